// A planned change (docs/ring.md section 24) as the Plans panel and the Change safely panel's plan
// preview show it: its steps as a table (changes, moved share, over budget, version, when
// committed), and the words for its numbers (shares, ISO-8601 durations, times, changes).

import { number } from './api.js';

/** The most steps a table lists: past these, a window around the next step, the rest counted. */
const STEPS_SHOWN = 30;
/** The most changes one step's cell names: past these, how many more (all of them in its title). */
const CHANGES_NAMED = 4;

/** A share of the hash space (0..1) in percent, to 3 decimals: "4.871%". */
export function share(s) {
  return (s * 100).toFixed(3) + '%';
}

/** A share asked for (a budget, a gate's share) as written: "5%", "99.5%". */
export function shareAsked(s) {
  return `${Number((s * 100).toFixed(4))}%`;
}

/** The seconds of an ISO-8601 duration as Java writes one ("PT30S", "PT1M30S", "PT24H", "PT0.5S"), or NaN. */
export function seconds(iso) {
  const m = /^PT(?:(\d+)H)?(?:(\d+)M)?(?:(\d+(?:\.\d+)?)S)?$/.exec(iso || '');
  return m ? (Number(m[1] || 0) * 3600 + Number(m[2] || 0) * 60 + Number(m[3] || 0)) : NaN;
}

/** A span of seconds in words: "0 s", "45 s", "2 min", "2 min 5 s", "1 h 30 min". */
export function span(s) {
  if (!Number.isFinite(s)) {
    return '?';
  }
  s = Math.max(0, Math.round(s));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = s % 60;
  const parts = [];
  if (h) {
    parts.push(`${h} h`);
  }
  if (m) {
    parts.push(`${m} min`);
  }
  if (rest || parts.length === 0) {
    parts.push(`${rest} s`);
  }
  return parts.slice(0, 2).join(' ');
}

/** An ISO-8601 duration in words, as written by ringd: "PT30S" is "30 s". */
export function duration(iso) {
  return span(seconds(iso));
}

/** A <time> of a wire time, shown as this browser's local time of day, the instant in its title. */
export function time(wire) {
  const t = document.createElement('time');
  t.dateTime = wire;
  t.title = wire;
  const d = new Date(wire);
  t.textContent = Number.isNaN(d.getTime()) ? wire : d.toLocaleTimeString('en-GB', { hour12: false });
  return t;
}

/** A weight, short: at most 4 decimals (a ramp's weights such as 0.2734375 or 1.0000000000000002). */
function weight(w) {
  return String(Number(Number(w).toFixed(4)));
}

/** One change, compact: "put cache-e 0.2734", "remove cache-b", "put cache-e 1 (eu-1a)". */
export function changeText(c) {
  if (c.op !== 'put') {
    return `remove ${c.id}`;
  }
  return `put ${c.id} ${weight(c.weight)}${c.zone ? ` (${c.zone})` : ''}${c.hashKey ? ` by ${c.hashKey}` : ''}`;
}

/** Changes, compact: the first few named, "+ N more" after them. */
export function changesText(changes) {
  const named = changes.slice(0, CHANGES_NAMED).map(changeText).join('; ');
  return changes.length > CHANGES_NAMED ? `${named}; + ${number(changes.length - CHANGES_NAMED)} more` : named;
}

/** How a step stands in its plan: made, next (to be made when the plan goes on), or not made (yet). */
export function stepState(plan, step) {
  if (step.version !== null && step.version !== undefined) {
    return 'made';
  }
  const held = plan.state === 'running' || plan.state === 'paused';
  if (held && step.step === plan.currentStep + 1) {
    return 'next';
  }
  return held || !plan.state ? 'pending' : 'not-made';
}

const STATE_TEXT = { made: 'made', next: 'next', pending: '—', 'not-made': 'not made' };

function cell(row, text, className = '') {
  const c = row.insertCell();
  c.className = className;
  if (typeof text === 'string') {
    c.textContent = text;
  } else {
    c.appendChild(text);
  }
  return c;
}

function gapRow(body, text) {
  const r = body.insertRow();
  r.className = 'gap';
  const c = r.insertCell();
  c.colSpan = 5;
  c.textContent = text;
}

/** The table of a plan's steps (at most STEPS_SHOWN of them, around the next one). */
export function stepsTable(plan, caption) {
  const t = document.createElement('table');
  t.className = 'plan-steps';
  const cap = document.createElement('caption');
  cap.textContent = caption;
  t.appendChild(cap);
  const head = t.createTHead().insertRow();
  for (const [h, cls] of [['Step', 'num'], ['Changes', ''], ['Moves', 'num'], ['Version', 'num'], ['Committed', '']]) {
    const th = document.createElement('th');
    th.scope = 'col';
    th.className = cls;
    th.textContent = h;
    head.appendChild(th);
  }
  const body = t.createTBody();
  const steps = plan.steps;
  const around = Math.min(steps.length, Math.max(1, plan.currentStep || 0));
  const first = steps.length <= STEPS_SHOWN ? 0 : Math.max(0, Math.min(around - 10, steps.length - STEPS_SHOWN));
  const last = Math.min(steps.length, first + STEPS_SHOWN);
  if (first > 0) {
    gapRow(body, `${number(first)} earlier step${first === 1 ? '' : 's'}, made`);
  }
  for (const s of steps.slice(first, last)) {
    const r = body.insertRow();
    const state = stepState(plan, s);
    r.className = 'step ' + state;
    r.dataset.step = String(s.step);
    r.dataset.state = state;
    const th = document.createElement('th');
    th.scope = 'row';
    th.className = 'num';
    th.textContent = String(s.step);
    r.appendChild(th);
    const changes = cell(r, changesText(s.changes), 'changes');
    changes.title = s.changes.map(changeText).join('\n');
    const moves = cell(r, share(s.movedShare), 'num');
    if (s.overBudget) {
      const over = document.createElement('span');
      over.className = 'over-budget';
      over.textContent = 'over budget';
      over.title = 'The smallest step possible, and it still moves more than the budget';
      moves.append(' ', over);
      r.dataset.overBudget = 'true';
    }
    cell(r, s.version !== null && s.version !== undefined ? String(s.version) : STATE_TEXT[state], 'num');
    cell(r, s.committedAt ? time(s.committedAt) : '', '');
  }
  if (last < steps.length) {
    gapRow(body, `${number(steps.length - last)} later step${steps.length - last === 1 ? '' : 's'}`);
  }
  return t;
}

/** What a plan moves: "4 steps, each moving at most 5%: 23.205% moved directly, 23.205% in all its steps." */
export function movesText(plan) {
  const n = plan.steps.length;
  const over = plan.steps.filter((s) => s.overBudget).length;
  return `${number(n)} step${n === 1 ? '' : 's'}, each moving at most ${shareAsked(plan.maxMovedShare)}`
    + (over ? ` (${number(over)} over budget: they cannot be split further)` : '')
    + `: ${share(plan.movedShare)} moved directly, ${share(plan.stepsMovedShare)} in all its steps.`;
}

/** A plan's gate in words: "99% of the followers at each step's version, within 2 min", or "none". */
export function gateText(gate) {
  return gate ? `${shareAsked(gate.convergedShare)} of the followers at each step's version, within ${duration(gate.timeout)}`
    : 'none';
}
