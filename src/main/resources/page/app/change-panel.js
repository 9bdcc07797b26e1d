// The Change safely panel: stages puts and removes, previews the batch (POST /diff: nothing
// applied) and applies exactly what the preview described (POST /membership with If-Match of the
// version previewed and the admin token, which stays in this tab's session storage).

import { call, problemText, query } from './api.js';
import { $, button, para, say, strong } from './dom.js';
import { MAX_RANGES, diffParts } from './diff-answer.js';

const TOKEN_KEY = 'ringd.admin-token';
/** A node's weight is in (0, MAX_WEIGHT], as ringd requires of it (docs/ring.md, section 3). */
const MAX_WEIGHT = 10000;

/** Why a Weight field's text is refused, or null when it is a weight ringd takes. */
function weightProblem(text) {
  const weight = Number(text);
  if (text !== '' && Number.isFinite(weight) && weight > 0 && weight <= MAX_WEIGHT) {
    return null;
  }
  return `Weight must be a number above 0 and at most ${MAX_WEIGHT}: ${text === '' ? 'type one' : text + ' is not'}.`;
}

function describe(change) {
  return change.op === 'put'
    ? `put ${change.id}, weight ${change.weight}${change.zone ? ', zone ' + change.zone : ', no zone'}`
      + (change.hashKey ? `, placed by ${change.hashKey}` : '')
    : `remove ${change.id}`;
}

/** Wires the panel to the ring (redrawn once a batch is applied) and its marks (the ring panel). */
export function changePanel(ring, marks) {
  const region = $('change-answer');
  const applyButton = $('apply');
  const tokenField = $('token');
  const weightField = $('node-weight');
  let staged = [];
  let previewed = null; // {diff, changes}: what Preview showed, and the batch it described

  tokenField.value = sessionStorage.getItem(TOKEN_KEY) || '';
  tokenField.addEventListener('input', () => {
    if (tokenField.value) {
      sessionStorage.setItem(TOKEN_KEY, tokenField.value);
    } else {
      sessionStorage.removeItem(TOKEN_KEY);
    }
  });

  function renderStaged() {
    const list = $('staged');
    list.replaceChildren();
    if (staged.length === 0) {
      const li = document.createElement('li');
      li.className = 'muted';
      li.textContent = 'Nothing staged.';
      list.appendChild(li);
    }
    for (const c of staged) {
      const li = document.createElement('li');
      const text = describe(c);
      li.append(text + ' ');
      const b = button('Unstage', () => {
        staged = staged.filter((x) => x !== c);
        changed();
      });
      b.className = 'link';
      b.setAttribute('aria-label', `Unstage ${text}`);
      li.appendChild(b);
      list.appendChild(li);
    }
  }

  /** The staged batch changed: any preview no longer describes it. */
  function changed() {
    previewed = null;
    applyButton.disabled = true;
    marks.markRanges(null);
    renderStaged();
  }

  function stage(change) {
    staged = staged.filter((c) => c.id !== change.id).concat([change]);
    changed();
    say(region, `Staged: ${change.op} ${change.id}. Preview shows what the batch would move.`);
  }

  $('change-form').addEventListener('submit', (ev) => {
    ev.preventDefault();
    const id = $('node-id').value.trim();
    const zone = $('node-zone').value.trim();
    const hashKey = $('node-hash-key').value; // taken as typed: a placement string may hold any character
    if (!id) {
      say(region, 'Type a Node id to stage.', 'error');
      $('node-id').focus();
      return;
    }
    const weightText = weightField.value.trim();
    const problem = weightProblem(weightText);
    weightField.setAttribute('aria-invalid', String(problem !== null));
    if (problem) {
      say(region, problem, 'error');
      weightField.focus();
      return;
    }
    const change = { op: 'put', id, weight: Number(weightText) };
    if (zone) {
      change.zone = zone;
    }
    if (hashKey) {
      change.hashKey = hashKey;
    }
    stage(change);
  });

  $('remove').addEventListener('click', () => {
    const id = $('node-id').value.trim();
    if (!id) {
      say(region, 'Type the Node id to remove.', 'error');
      $('node-id').focus();
      return;
    }
    stage({ op: 'remove', id });
  });

  async function preview() {
    if (staged.length === 0) {
      say(region, 'Stage a change first: nothing to preview.', 'error');
      return;
    }
    const changes = staged.map((c) => ({ ...c }));
    try {
      const diff = await call('/diff' + query({ maxRanges: MAX_RANGES }), { method: 'POST', body: { changes } });
      previewed = { diff, changes };
      say(region, diffParts(diff, `Preview against version ${diff.from}: nothing applied yet.`));
      marks.markRanges(diff.ranges);
      applyButton.disabled = false;
    } catch (e) {
      previewed = null;
      applyButton.disabled = true;
      say(region, 'The preview was refused: ' + problemText(e), 'error');
    }
  }

  $('preview').addEventListener('click', preview);

  applyButton.addEventListener('click', async () => {
    const p = previewed;
    if (!p) {
      say(region, 'Preview the batch first: Apply sends exactly what a preview described.', 'error');
      return;
    }
    const token = tokenField.value;
    if (!token) {
      say(region, 'Type the Admin token first: applying a change needs it.', 'error');
      tokenField.focus();
      return;
    }
    try {
      const answer = await call('/membership', {
        method: 'POST', body: { changes: p.changes },
        headers: { 'If-Match': `"${p.diff.from}"`, Authorization: `Bearer ${token}` },
      });
      staged = [];
      changed();
      say(region, [para(strong(`Applied as version ${answer.version}.`)), `The batch previewed against version ${p.diff.from} is in the ring.`]);
      ring.refresh();
    } catch (e) {
      if (e.status === 401) {
        say(region, [para(strong('The admin token was refused (401): nothing was applied.')),
          'Check the Admin token field: it must be the token ringd was started with.'], 'error');
      } else if (e.status === 403) {
        say(region, [para(strong('The token may not change this ring (403): nothing was applied.')),
          'A ring\'s own token changes that ring alone; the admin token changes every ring.'], 'error');
      } else if (e.status === 412) {
        say(region, [para(strong('The ring moved on (412): nothing was applied.')),
          `The preview described version ${p.diff.from}; the ring is now at version ${e.version ?? 'newer'}. `
          + 'Preview again to see what the batch would move now, then apply that.', para(button('Preview again', preview))], 'error');
        applyButton.disabled = true;
        previewed = null;
      } else {
        say(region, 'The change was refused: ' + problemText(e), 'error');
      }
    }
  });
}
