// The ring's page: draws the ring and its ownership, routes keys, previews and applies membership
// changes, compares versions, and follows /ring/events to redraw within a second of any change.

import { ApiError, SPACE, call, number, percent, query } from './api.js';
import { OwnershipTable } from './ownership-table.js';
import { RingView } from './ring-view.js';

const $ = (id) => document.getElementById(id);
const TOKEN_KEY = 'ringd.admin-token';
const MAX_RANGES = 5000;

const state = {
  version: null,
  stream: 'connecting', // the /ring/events stream: connecting, live or lost
  staged: [],
  preview: null, // {diff, changes}: what Preview showed, and the batch it described
};

const view = new RingView({
  wrap: $('ring-wrap'), canvas: $('ring-canvas'), overlay: $('ring-overlay'), tip: $('ring-tip'),
  cursor: $('ring-cursor'), summary: $('ring-summary'), legend: $('legend'),
});
const table = new OwnershipTable($('ownership'));

// ---------------------------------------------------------------- messages

/** Replaces a region's content with paragraphs (strings or nodes); kind "error" marks it as one. */
function say(region, parts, kind = '') {
  region.replaceChildren();
  region.className = 'answer' + (kind ? ' ' + kind : '');
  for (const part of [].concat(parts)) {
    if (typeof part === 'string') {
      const p = document.createElement('p');
      p.textContent = part;
      region.appendChild(p);
    } else {
      region.appendChild(part);
    }
  }
}

function para(...children) {
  const p = document.createElement('p');
  p.append(...children);
  return p;
}

function strong(text) {
  const s = document.createElement('strong');
  s.textContent = text;
  return s;
}

/** What a refused request says to a reader. */
function problemText(e) {
  if (!(e instanceof ApiError)) {
    return String(e && e.message ? e.message : e);
  }
  const title = e.problem && e.problem.title ? e.problem.title : '';
  const detail = e.problem && e.problem.detail ? e.problem.detail : '';
  if (e.status === 0) {
    return detail;
  }
  return `${e.status}${title ? ' ' + title : ''}${detail ? ': ' + detail : ''}`;
}

function flowsTable(flows, caption) {
  const t = document.createElement('table');
  t.className = 'flows';
  const cap = document.createElement('caption');
  cap.textContent = caption;
  t.appendChild(cap);
  const head = t.createTHead().insertRow();
  for (const h of ['From', 'To', 'Hash values', 'Share']) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.textContent = h;
    head.appendChild(th);
  }
  const body = t.createTBody();
  for (const f of flows.slice(0, 20)) {
    const r = body.insertRow();
    r.insertCell().textContent = f.from ?? '(none)';
    r.insertCell().textContent = f.to ?? '(none)';
    r.insertCell().textContent = number(f.count);
    r.insertCell().textContent = percent(f.count);
  }
  if (flows.length > 20) {
    const r = body.insertRow();
    const c = r.insertCell();
    c.colSpan = 4;
    c.textContent = `and ${flows.length - 20} smaller flows`;
  }
  return t;
}

/** Describes a diff answer: moved share, ranges, flows; highlights its ranges on the ring. */
function showDiff(region, d, heading) {
  const parts = [para(strong(heading))];
  parts.push(`Moves ${percent(d.movedCount)} of the hash space (${number(d.movedCount)} hash values)`
    + (d.rangeCount > 0 ? ` in ${number(d.rangeCount)} ranges${d.rangesTruncated ? `, the first ${number(d.ranges.length)} highlighted` : ', highlighted on the ring'}.` : '.'));
  if (d.flows.length) {
    parts.push(flowsTable(d.flows, 'Flows'));
  }
  say(region, parts);
  view.markRanges(d.ranges);
}

// ---------------------------------------------------------------- the ring, drawn and followed

function setStatus() {
  const s = $('status');
  if (state.version === null) {
    s.textContent = 'Loading the ring…';
    return;
  }
  const stream = { connecting: ' · connecting to live updates…', live: ' · live', lost: ' · live updates lost: reconnecting…' };
  s.textContent = `version ${state.version}${stream[state.stream]}`;
  s.classList.toggle('lost', state.stream === 'lost');
}

/** Resolves once the browser has laid out and painted what was just changed. */
function painted() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

let refreshing = null;
let again = false;

/** Loads and draws the current ring; calls made while one runs are folded into one more. */
function refresh() {
  if (refreshing) {
    again = true;
    return refreshing;
  }
  refreshing = (async () => {
    do {
      again = false;
      const t0 = performance.now();
      const [ownership, points] = await Promise.all([call('/ownership'), call('/points')]);
      if (ownership.version !== points.version) {
        again = true; // a change landed between the two: read both again
        continue;
      }
      const t1 = performance.now();
      view.show(points, ownership.nodes.map((n) => n.id));
      const t2 = performance.now();
      table.show(ownership);
      state.version = ownership.version;
      const tBuilt = performance.now();
      await painted();
      const section = $('ring-section');
      // How long the last redraw took, from asking for the ring to the next frame painted with the ring and
      // the table (and the ring's drawing, the table's building and the wait for the frame alone); then the
      // version drawn.
      const t3 = performance.now();
      section.dataset.renderMs = (t3 - t0).toFixed(1);
      section.dataset.drawMs = (t2 - t1).toFixed(1);
      section.dataset.tableMs = (tBuilt - t2).toFixed(1);
      section.dataset.paintMs = (t3 - tBuilt).toFixed(1);
      section.dataset.renderedVersion = String(ownership.version);
      if ($('history-from').value === '') {
        $('history-from').placeholder = String(Math.max(0, ownership.version - 1));
      }
      setStatus();
    } while (again);
  })().catch((e) => {
    $('status').textContent = 'Could not load the ring: ' + problemText(e);
  }).finally(() => {
    refreshing = null;
  });
  return refreshing;
}

let retry = 500;
let source = null;

/** Follows /ring/events: any version other than the one drawn redraws. */
function follow(after) {
  if (source) {
    source.close();
  }
  const es = new EventSource('/ring/events' + (after !== undefined && after !== null ? query({ after }) : ''));
  source = es;
  const onVersion = (e) => {
    retry = 500;
    const v = Number(e.lastEventId);
    if (v !== state.version) {
      refresh();
    }
  };
  es.addEventListener('snapshot', onVersion);
  es.addEventListener('change', onVersion);
  es.addEventListener('open', () => {
    state.stream = 'live';
    setStatus();
  });
  es.addEventListener('error', () => {
    state.stream = 'lost';
    setStatus();
    if (es.readyState === EventSource.CLOSED && source === es) {
      // refused (a full server, say): the browser will not retry by itself
      setTimeout(() => follow(state.version), retry);
      retry = Math.min(retry * 2, 15000);
    }
  });
}

// ---------------------------------------------------------------- ask

$('ask-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const key = $('key').value;
  const region = $('ask-answer');
  if (key === '') {
    say(region, 'Type a key to route.', 'error');
    $('key').focus();
    return;
  }
  const version = $('ask-version').value.trim();
  const n = $('pref-n').value.trim() || '3';
  const distinctZones = $('pref-zones').checked;
  try {
    const [route, pref] = await Promise.all([
      call('/route' + query({ key, explain: true, version })),
      call('/preference' + query({ key, n, distinctZones, version })),
    ]);
    const e = route.explain;
    const parts = [para(strong(route.key), ' → ', strong(route.node), ` at version ${route.version} (hash ${route.hash})`)];
    if (e.placement === 'ring') {
      parts.push(`Owning point ${e.vnode} at ${e.point}: it owns the hash values ${e.start} to ${e.end}`
        + `${e.wraps ? ', wrapping past 4294967295' : ''} (${number(e.count)} values, ${percent(e.count)}).`);
    } else {
      parts.push(`Maglev entry ${e.entry} of ${e.tableSize}: it holds the hash values ${e.first}, ${e.first + e.tableSize}, … ${e.last} (${number(e.count)} values).`);
    }
    parts.push(`Preference (n = ${n}${distinctZones ? ', distinct zones' : ''}): ${pref.nodes.join(', ')}.`);
    if (route.version !== state.version) {
      parts.push(`The ring drawn is version ${state.version}: the marks show where version ${route.version}'s answer falls on it.`);
    }
    say(region, parts);
    region.dataset.node = route.node;
    view.markKey(e, route.hash);
  } catch (err) {
    say(region, problemText(err), 'error');
    view.markKey(null);
  }
});

// ---------------------------------------------------------------- change safely

const tokenField = $('token');
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
  if (state.staged.length === 0) {
    const li = document.createElement('li');
    li.className = 'muted';
    li.textContent = 'Nothing staged.';
    list.appendChild(li);
  }
  for (const c of state.staged) {
    const li = document.createElement('li');
    const text = c.op === 'put'
      ? `put ${c.id}, weight ${c.weight}${c.zone ? ', zone ' + c.zone : ', no zone'}`
      : `remove ${c.id}`;
    li.append(text + ' ');
    const b = document.createElement('button');
    b.type = 'button';
    b.className = 'link';
    b.textContent = 'Unstage';
    b.setAttribute('aria-label', `Unstage ${text}`);
    b.addEventListener('click', () => {
      state.staged = state.staged.filter((x) => x !== c);
      changed();
    });
    li.appendChild(b);
    list.appendChild(li);
  }
}

/** The staged batch changed: any preview no longer describes it. */
function changed() {
  state.preview = null;
  $('apply').disabled = true;
  view.markRanges(null);
  renderStaged();
}

function stage(change) {
  state.staged = state.staged.filter((c) => c.id !== change.id).concat([change]);
  changed();
  say($('change-answer'), `Staged: ${change.op} ${change.id}. Preview shows what the batch would move.`);
}

$('change-form').addEventListener('submit', (ev) => {
  ev.preventDefault();
  const id = $('node-id').value.trim();
  const weight = Number($('node-weight').value);
  const zone = $('node-zone').value.trim();
  if (!id) {
    say($('change-answer'), 'Type a Node id to stage.', 'error');
    $('node-id').focus();
    return;
  }
  if ($('node-weight').value.trim() === '' || !Number.isFinite(weight) || weight <= 0) {
    say($('change-answer'), 'Weight must be a number above 0 (at most 10000).', 'error');
    $('node-weight').focus();
    return;
  }
  const change = { op: 'put', id, weight };
  if (zone) {
    change.zone = zone;
  }
  stage(change);
});

$('remove').addEventListener('click', () => {
  const id = $('node-id').value.trim();
  if (!id) {
    say($('change-answer'), 'Type the Node id to remove.', 'error');
    $('node-id').focus();
    return;
  }
  stage({ op: 'remove', id });
});

async function preview() {
  const region = $('change-answer');
  if (state.staged.length === 0) {
    say(region, 'Stage a change first: nothing to preview.', 'error');
    return;
  }
  const changes = state.staged.map((c) => ({ ...c }));
  try {
    const diff = await call('/diff' + query({ maxRanges: MAX_RANGES }), { method: 'POST', body: { changes } });
    state.preview = { diff, changes };
    showDiff(region, diff, `Preview against version ${diff.from}: nothing applied yet.`);
    $('apply').disabled = false;
  } catch (e) {
    state.preview = null;
    $('apply').disabled = true;
    say(region, 'The preview was refused: ' + problemText(e), 'error');
  }
}

$('preview').addEventListener('click', preview);

$('apply').addEventListener('click', async () => {
  const region = $('change-answer');
  const p = state.preview;
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
    state.staged = [];
    changed();
    say(region, [para(strong(`Applied as version ${answer.version}.`)), `The batch previewed against version ${p.diff.from} is in the ring.`]);
    refresh();
  } catch (e) {
    if (e.status === 401) {
      say(region, [para(strong('The admin token was refused (401): nothing was applied.')),
        'Check the Admin token field: it must be the token ringd was started with.'], 'error');
    } else if (e.status === 412) {
      const b = document.createElement('button');
      b.type = 'button';
      b.textContent = 'Preview again';
      b.addEventListener('click', preview);
      say(region, [para(strong('The ring moved on (412): nothing was applied.')),
        `The preview described version ${p.diff.from}; the ring is now at version ${e.version ?? 'newer'}. `
        + 'Preview again to see what the batch would move now, then apply that.', para(b)], 'error');
      $('apply').disabled = true;
      state.preview = null;
    } else {
      say(region, 'The change was refused: ' + problemText(e), 'error');
    }
  }
});

// ---------------------------------------------------------------- history

$('history-form').addEventListener('submit', async (ev) => {
  ev.preventDefault();
  const region = $('history-answer');
  const from = $('history-from').value.trim() || $('history-from').placeholder;
  const to = $('history-to').value.trim();
  if (from === '') {
    say(region, 'Type the version to compare from.', 'error');
    return;
  }
  try {
    const d = await call('/diff' + query({ from, to, maxRanges: MAX_RANGES }));
    showDiff(region, d, `From version ${d.from} to version ${d.to}.`);
  } catch (e) {
    say(region, problemText(e), 'error');
    view.markRanges(null);
  }
});

// ---------------------------------------------------------------- start

// A page left (or put in the back-forward cache) closes its stream, so that it holds no connection;
// one shown again from that cache reads the ring and follows it anew.
window.addEventListener('pagehide', () => {
  if (source) {
    source.close();
    source = null;
  }
  state.stream = 'connecting';
});
window.addEventListener('pageshow', (e) => {
  if (e.persisted) {
    refresh().then(() => follow(state.version));
  }
});

setStatus();
refresh().then(() => follow(state.version));
