// The Fleet panel: the ring's followers (processes that hold the ring and route from memory, such as
// the Java client) as GET /followers reports them: how many followers hold each version, how many
// are current, behind, diverged or silent, the diverged ones by name, and whether every follower
// that reports holds the ring's version ("Converged") or how many do so far ("Converging: x of y").
// A follower's report makes no ring event, so the panel asks again every few seconds (every second
// while the followers converge, never while the tab is hidden) and at once when a version is drawn.

import { call, isRingGone, number, problemText, query } from './api.js';
import { $, para, strong } from './dom.js';

/** The most followers one GET /followers answers: the table counts these; the summary counts all. */
const LIMIT = 10000;
/** How soon the panel asks again while some follower is behind, and otherwise. */
const CONVERGING_MS = 1000;
const STEADY_MS = 5000;
/** The diverged followers named; past these, how many more. */
const DIVERGED_NAMED = 50;
const STATES = ['current', 'behind', 'diverged', 'silent'];

/** "1 follower", "3 followers". */
function followers(n) {
  return `${number(n)} follower${n === 1 ? '' : 's'}`;
}

/** What the followers amount to: a word for the whole (converged, converging, ...) and a sentence. */
export function verdict(version, summary) {
  const counted = summary.current + summary.behind + summary.diverged;
  const silent = summary.silent > 0 ? ` ${followers(summary.silent)} silent, not counted.` : '';
  if (counted === 0) {
    return summary.silent === 0
      ? { state: 'none', text: 'No followers have reported.' }
      : { state: 'none', text: `No follower has reported lately: ${followers(summary.silent)} silent.` };
  }
  if (summary.behind === 0 && summary.diverged === 0) {
    const all = counted === 1 ? 'the one follower holds' : `all ${number(counted)} followers hold`;
    return { state: 'converged', text: `Converged: ${all} version ${version}.${silent}` };
  }
  const held = `${number(summary.current)} of ${followers(counted)} hold version ${version}`;
  if (summary.diverged > 0) {
    return { state: 'diverged', text: `Not converged: ${held}; ${number(summary.diverged)} diverged.${silent}` };
  }
  return { state: 'converging', text: `Converging: ${held}.${silent}` };
}

/** The followers counted per version (silent ones left out), newest version first: [{version, count, diverged}]. */
export function byVersion(list) {
  const rows = new Map();
  for (const f of list) {
    if (f.state === 'silent') {
      continue;
    }
    const row = rows.get(f.version) || { version: f.version, count: 0, diverged: 0 };
    row.count++;
    row.diverged += f.state === 'diverged' ? 1 : 0;
    rows.set(f.version, row);
  }
  return [...rows.values()].sort((a, b) => b.version - a.version);
}

/** Wires the panel to the ring: loads on each version drawn and every few seconds; stops when the ring is gone. */
export function fleetPanel(ring) {
  const section = $('fleet-section');
  const status = $('fleet-status');
  const states = $('fleet-states');
  const diverged = $('fleet-diverged');
  const table = $('fleet-versions');
  const note = $('fleet-note');
  let timer = null;
  let loading = null;
  let again = false; // a load was asked for while one ran
  let running = false;
  let shown = null; // what was last drawn: an answer that changes nothing redraws nothing (and says nothing)

  function show(answer) {
    const key = JSON.stringify([answer.version, answer.summary, answer.followers.map((f) => [f.id, f.version, f.state])]);
    if (key === shown) {
      return;
    }
    shown = key;
    const v = verdict(answer.version, answer.summary);
    status.textContent = v.text;
    status.className = 'fleet-status ' + v.state;
    section.dataset.converged = String(v.state === 'converged');
    section.dataset.fleetVersion = String(answer.version);
    showStates(answer.summary);
    showDiverged(answer.followers.filter((f) => f.state === 'diverged'), answer.summary.diverged);
    showVersions(answer.version, byVersion(answer.followers));
    const total = STATES.reduce((s, k) => s + answer.summary[k], 0);
    note.textContent = total > answer.followers.length
      ? `The table counts the first ${number(answer.followers.length)} followers by id of ${number(total)}.` : '';
  }

  function showStates(summary) {
    states.replaceChildren();
    states.hidden = STATES.every((state) => summary[state] === 0); // "No followers have reported" says it all
    for (const state of STATES) {
      const li = document.createElement('li');
      li.dataset.state = state;
      li.dataset.count = String(summary[state]);
      li.append(strong(number(summary[state])), ' ' + state);
      li.classList.toggle('alarm', state === 'diverged' && summary[state] > 0);
      states.appendChild(li);
    }
  }

  function showDiverged(list, count) {
    diverged.replaceChildren();
    diverged.hidden = count === 0;
    if (count === 0) {
      return;
    }
    diverged.appendChild(para(strong(`Diverged: ${followers(count)}`), count === 1
      ? ' holds a ring that is not the version it names, and routes keys where ringd does not.'
      : ' hold a ring that is not the version they name, and route keys where ringd does not.'));
    const ul = document.createElement('ul');
    for (const f of list.slice(0, DIVERGED_NAMED)) {
      const li = document.createElement('li');
      li.dataset.follower = f.id;
      li.dataset.version = String(f.version);
      const id = document.createElement('code');
      id.textContent = f.id;
      li.append(id, ` at version ${f.version}`);
      ul.appendChild(li);
    }
    diverged.appendChild(ul);
    if (count > Math.min(list.length, DIVERGED_NAMED)) {
      diverged.appendChild(para(`and ${number(count - Math.min(list.length, DIVERGED_NAMED))} more `
        + '(GET followers?state=diverged lists them).'));
    }
  }

  function showVersions(current, rows) {
    table.hidden = rows.length === 0;
    const body = table.tBodies[0];
    body.replaceChildren();
    const most = Math.max(1, ...rows.map((r) => r.count));
    for (const r of rows) {
      const tr = body.insertRow();
      tr.dataset.version = String(r.version);
      tr.dataset.count = String(r.count);
      const th = document.createElement('th');
      th.scope = 'row';
      th.className = 'num';
      th.textContent = r.version === current ? `${r.version} (current)` : String(r.version);
      tr.appendChild(th);
      const count = tr.insertCell();
      count.className = 'num';
      count.textContent = number(r.count);
      const bad = tr.insertCell();
      bad.className = r.diverged > 0 ? 'num alarm' : 'num';
      bad.textContent = r.diverged > 0 ? number(r.diverged) : '—';
      const cell = tr.insertCell();
      cell.className = 'bar-col';
      const bar = document.createElement('span');
      bar.className = 'bar';
      const fill = document.createElement('span');
      fill.className = 'fill ' + (r.version === current ? 'current' : 'older');
      fill.style.width = `${(r.count / most) * 100}%`; // through the CSSOM: the policy allows no style attribute
      bar.appendChild(fill);
      cell.appendChild(bar);
    }
  }

  /** Loads the followers and plans the next load; one asked for while a load runs follows it at once. */
  function load() {
    if (loading) {
      again = true;
      return loading;
    }
    again = false;
    clearTimeout(timer);
    loading = call('/followers' + query({ limit: LIMIT })).then((answer) => {
      show(answer);
      return answer.summary.behind > 0 ? CONVERGING_MS : STEADY_MS;
    }, (e) => {
      if (isRingGone(e)) {
        return null;
      }
      shown = null;
      status.textContent = 'Could not load the followers: ' + problemText(e);
      status.className = 'fleet-status error';
      return STEADY_MS;
    }).then((next) => {
      loading = null;
      if (!running || next === null || ring.gone || document.hidden) {
        return;
      }
      if (again) {
        load();
      } else {
        timer = setTimeout(load, next);
      }
    });
    return loading;
  }

  function start() {
    running = !ring.gone;
    if (running && !document.hidden) {
      load();
    }
  }

  function stop() {
    running = false;
    clearTimeout(timer);
  }

  ring.addEventListener('drawn', () => {
    if (running && !document.hidden) {
      load();
    }
  });
  ring.addEventListener('gone', stop);
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) {
      clearTimeout(timer);
    } else if (running) {
      load();
    }
  });
  return { start, stop };
}
