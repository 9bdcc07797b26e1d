// The Change safely panel: stages puts and removes, previews the batch (POST /diff: nothing
// applied) and applies exactly what the preview described (POST /membership with If-Match of the
// version previewed and the admin token, which stays in this tab's session storage). "As a plan",
// the preview is also the plan's dry run (POST /plans?dryRun=true: its steps), and Start plan makes
// that plan (POST /plans with If-Match), which the Plans panel then follows (docs/ring.md section 24).

import { call, problemText, query } from './api.js';
import { $, button, para, say, strong } from './dom.js';
import { MAX_RANGES, diffParts } from './diff-answer.js';
import { movesText, stepsTable } from './plan-view.js';

const TOKEN_KEY = 'ringd.admin-token';
/** A node's weight is in (0, MAX_WEIGHT], as ringd requires of it (docs/ring.md, section 3). */
const MAX_WEIGHT = 10000;

/** The longest step interval and gate timeout, in seconds (PT24H). */
const MAX_SECONDS = 86400;

/** A field's number when it is in (low, high] (or [low, high] with `closed`), else null. */
function numberIn(field, low, high, closed = false) {
  const text = field.value.trim();
  const n = Number(text);
  const ok = text !== '' && Number.isFinite(n) && (closed ? n >= low : n > low) && n <= high;
  field.setAttribute('aria-invalid', String(!ok));
  return ok ? n : null;
}

/** The plan fields as POST /plans takes them (the changes aside), or {problem, field} for the first refused. */
function planOptions() {
  const budget = numberIn($('plan-budget'), 0, 100);
  if (budget === null) {
    return { problem: 'Budget per step must be a percentage above 0 and at most 100.', field: $('plan-budget') };
  }
  const interval = numberIn($('plan-interval'), 0, MAX_SECONDS, true);
  if (interval === null) {
    return { problem: `Step interval must be 0 to ${MAX_SECONDS} seconds.`, field: $('plan-interval') };
  }
  const options = { maxMovedShare: budget / 100, minStepInterval: `PT${interval}S` };
  const gateField = $('plan-gate-share');
  if (gateField.value.trim() === '') {
    gateField.setAttribute('aria-invalid', 'false');
    return options;
  }
  const gate = numberIn(gateField, 0, 100);
  if (gate === null) {
    return { problem: 'Gate must be a percentage of the followers above 0 and at most 100, or empty for none.', field: gateField };
  }
  const timeout = numberIn($('plan-gate-timeout'), 1, MAX_SECONDS, true);
  if (timeout === null) {
    return { problem: `Gate timeout must be 1 to ${MAX_SECONDS} seconds.`, field: $('plan-gate-timeout') };
  }
  options.gate = { convergedShare: gate / 100, timeout: `PT${timeout}S` };
  return options;
}

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

/**
 * Wires the panel to the ring (redrawn once a batch is applied), its marks (the ring panel) and the
 * Plans panel (loaded once a plan is started, and pointed at while one holds the ring).
 */
export function changePanel(ring, marks, plans) {
  const region = $('change-answer');
  const applyButton = $('apply');
  const tokenField = $('token');
  const weightField = $('node-weight');
  const asPlan = $('as-plan');
  let staged = [];
  let previewed = null; // {from, changes, plan}: what Preview showed: the version, the batch, the plan's request if one

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

  asPlan.addEventListener('change', () => {
    $('plan-fields').hidden = !asPlan.checked;
    applyButton.textContent = asPlan.checked ? 'Start plan' : 'Apply';
    changed();
  });
  $('plan-fields').addEventListener('input', () => {
    if (previewed) {
      changed(); // the plan previewed is not the one these fields now describe
    }
  });

  /** Says why a write was refused; `nothing` says what did not happen ("nothing was applied"). */
  function refused(e, nothing, from) {
    if (e.status === 401) {
      say(region, [para(strong(`The admin token was refused (401): ${nothing}.`)),
        'Check the Admin token field: it must be the token ringd was started with.'], 'error');
    } else if (e.status === 403) {
      say(region, [para(strong(`The token may not change this ring (403): ${nothing}.`)),
        'A ring\'s own token changes that ring alone; the admin token changes every ring.'], 'error');
    } else if (e.status === 409 && e.problem && e.problem.plan) {
      const link = button('the Plans panel', () => plans.reveal());
      link.className = 'link';
      say(region, [para(strong(`Plan ${e.problem.plan} holds the ring (409, ${e.problem.planState}): ${nothing}.`)),
        para('Only its steps change the ring until it is done or aborted. Follow it, pause it or abort it in ', link, '.')],
      'error');
      plans.load();
    } else if (e.status === 412) {
      say(region, [para(strong(`The ring moved on (412): ${nothing}.`)),
        `The preview described version ${from}; the ring is now at version ${e.version ?? 'newer'}. `
        + 'Preview again to see what the batch would move now, then apply that.', para(button('Preview again', preview))], 'error');
      applyButton.disabled = true;
      previewed = null;
    } else {
      say(region, `Refused: ${nothing}. ` + problemText(e), 'error');
    }
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
    let request = null;
    if (asPlan.checked) {
      const options = planOptions();
      if (options.problem) {
        say(region, options.problem, 'error');
        options.field.focus();
        return;
      }
      request = { changes, ...options };
      if (!tokenField.value) {
        say(region, 'Type the Admin token first: a plan\'s dry run (POST /plans?dryRun=true) is an admin call.', 'error');
        tokenField.focus();
        return;
      }
    }
    try {
      // a plan's dry run first: the version its steps start from is the one the diff is asked against
      const plan = request ? await call('/plans' + query({ dryRun: true }), {
        method: 'POST', body: request, headers: { Authorization: `Bearer ${tokenField.value}` },
      }) : null;
      const diff = await call('/diff' + query({ maxRanges: MAX_RANGES }), { method: 'POST', body: { changes } });
      if (plan && plan.baseVersion !== diff.from) {
        throw new Error(`the ring moved on from version ${plan.baseVersion} during the preview: preview again`);
      }
      previewed = { from: diff.from, changes, plan: request };
      if (plan) {
        say(region, [para(strong(`Plan preview against version ${diff.from}: nothing started yet.`)), movesText(plan),
          stepsTable(plan, 'Steps of the plan'),
          ...diffParts(diff, 'Together, its steps make this change:')]);
      } else {
        say(region, diffParts(diff, `Preview against version ${diff.from}: nothing applied yet.`));
      }
      marks.markRanges(diff.ranges);
      applyButton.disabled = false;
    } catch (e) {
      previewed = null;
      applyButton.disabled = true;
      if (e.status === 401 || e.status === 403 || (e.status === 409 && e.problem && e.problem.plan)) {
        refused(e, 'no plan was previewed', null);
      } else {
        say(region, 'The preview was refused: ' + problemText(e), 'error');
      }
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
    const headers = { 'If-Match': `"${p.from}"`, Authorization: `Bearer ${token}` };
    if (p.plan) {
      try {
        const plan = await call('/plans', { method: 'POST', body: p.plan, headers });
        staged = [];
        changed();
        const link = button('the Plans panel', () => plans.reveal());
        link.className = 'link';
        say(region, [para(strong(`Plan ${plan.id} started: ${plan.steps.length} steps from version ${p.from}.`)),
          para('Its first step is made at once, each next one after the interval and the gate. Follow it, pause it or '
            + 'abort it in ', link, '.')]);
        plans.load();
        ring.refresh();
      } catch (e) {
        refused(e, 'no plan was started', p.from);
      }
      return;
    }
    try {
      const answer = await call('/membership', { method: 'POST', body: { changes: p.changes }, headers });
      staged = [];
      changed();
      say(region, [para(strong(`Applied as version ${answer.version}.`)), `The batch previewed against version ${p.from} is in the ring.`]);
      ring.refresh();
    } catch (e) {
      refused(e, 'nothing was applied', p.from);
    }
  });
}
