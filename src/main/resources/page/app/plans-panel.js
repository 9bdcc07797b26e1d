// The Plans panel: the ring's planned changes (GET /plans, docs/ring.md section 24). The one that
// holds the ring (running or paused) is shown in full: its state and why, its progress, its budget,
// interval and gate, each step, and what the next step waits for: the interval, and the gate (how
// many followers hold the last step's version, GET /followers/converged with wait PT0S), how long
// it has waited and when it times out. Pause, Resume and Abort send the admin token of the Change
// safely panel. Ended plans are listed compactly. The panel loads again on each version the stream
// names (a step's event names its plan), every 1.5 s while a plan holds the ring (its wait and
// gate change with no ring event), every 15 s otherwise, and never while the tab is hidden.

import { call, isRingGone, number, problemText, query } from './api.js';
import { $, para, say, strong } from './dom.js';
import { changesText, duration, gateText, movesText, seconds, share, shareAsked, span, stepsTable, time } from './plan-view.js';

/** How soon the panel asks again while a plan holds the ring, and otherwise. */
const HELD_MS = 1500;
const IDLE_MS = 15000;
const DONE = { pause: 'paused', resume: 'resumed', abort: 'aborted' };

/** Whether a plan holds the ring: only its steps change the ring until it is done or aborted. */
export function holds(plan) {
  return plan.state === 'running' || plan.state === 'paused';
}

/** Why a plan is in its state, in a sentence. */
function reasonText(p) {
  const at = `at step ${p.currentStep} of ${p.steps.length}`;
  switch (p.state) {
    case 'running':
      return p.currentStep === 0 ? 'Running: its first step is being made.'
        : 'Running: each next step is made once the interval and the gate allow.';
    case 'paused':
      return p.reason === 'gate-timeout'
        ? `Paused ${at} (gate-timeout): the gate was not met within ${duration(p.gate.timeout)}. Resume to wait `
          + 'for it again (its timeout counts afresh), or abort.'
        : `Paused by an admin ${at}: no step is made until it is resumed.`;
    case 'done':
      return 'Done: every step is made, and the ring has the target membership.';
    case 'aborted':
      return `Aborted by an admin ${at}: the steps made stay made.`;
    case 'failed':
      return p.reason === 'ring-changed'
        ? `Failed ${at} (ring-changed): the ring changed under the plan, so its next step no longer applies.`
        : `Failed ${at} (${p.reason}): ringd refused its next step. The steps made stay made.`;
    default:
      return p.state;
  }
}

function fact(dl, term, ...value) {
  const dt = document.createElement('dt');
  dt.textContent = term;
  const dd = document.createElement('dd');
  dd.append(...value);
  dl.append(dt, dd);
}

/** A plan's settings and what it moves, as a list of terms. */
function facts(p) {
  const dl = document.createElement('dl');
  dl.className = 'plan-facts';
  const changes = document.createElement('span');
  changes.textContent = changesText(p.changes);
  fact(dl, 'Changes', changes);
  fact(dl, 'Budget', `at most ${shareAsked(p.maxMovedShare)} of the hash space moved per step`);
  fact(dl, 'Interval', `at least ${duration(p.minStepInterval)} between two steps`);
  fact(dl, 'Gate', gateText(p.gate));
  fact(dl, 'Moves', movesText(p));
  fact(dl, 'Made', 'from version ' + p.baseVersion + ' at ', time(p.createdAt));
  if (p.endedAt) {
    fact(dl, 'Ended', time(p.endedAt));
  }
  return dl;
}

/** Wires the panel to the ring: its versions, and its end. The admin token is the Change safely panel's. */
export function plansPanel(ring) {
  const section = $('plans-section');
  const status = $('plans-status');
  const current = $('plan-current');
  const gate = $('plan-gate');
  const answer = $('plan-answer');
  const confirm = $('plan-confirm');
  const tokenField = $('token');
  const buttons = { pause: $('plan-pause'), resume: $('plan-resume'), abort: $('plan-abort') };
  let held = null; // the plan that holds the ring, as last loaded
  let shownPlan = null; // the key of the plan drawn in full, and of the ended list: unchanged ones are not redrawn
  let shownEnded = null;
  let timer = null;
  let loading = null;
  let again = false;
  let running = false;

  function setStatus(text, kind) {
    if (status.textContent !== text) {
      status.textContent = text;
    }
    status.className = 'plans-status ' + kind;
  }

  function show(plans, conv) {
    held = plans.find(holds) || null;
    const latest = plans[0];
    section.dataset.plan = held ? held.id : '';
    section.dataset.state = held ? held.state : 'none';
    section.dataset.step = held ? String(held.currentStep) : '';
    if (held) {
      setStatus(`Plan ${held.id} is ${held.state}: step ${held.currentStep} of ${held.steps.length} made. `
        + 'Only its steps change the ring until it is done or aborted.', held.state);
    } else if (latest) {
      setStatus(`No plan holds the ring: direct changes are open. The latest plan, ${latest.id}, is ${latest.state} `
        + `(${latest.currentStep} of ${latest.steps.length} steps made).`, 'none');
    } else {
      setStatus('No plan has been made for this ring.', 'none');
    }
    current.hidden = !held;
    $('plan-more').hidden = !held;
    if (held) {
      showHeld(held);
      showWait(held, conv);
    } else {
      shownPlan = null;
      confirm.hidden = true;
    }
    showEnded(plans.filter((p) => !holds(p)));
  }

  function showHeld(p) {
    buttons.pause.hidden = p.state !== 'running';
    buttons.resume.hidden = p.state !== 'paused';
    buttons.abort.hidden = false;
    if (confirm.dataset.plan && confirm.dataset.plan !== p.id) {
      confirm.hidden = true;
    }
    const key = JSON.stringify(p);
    if (key === shownPlan) {
      return;
    }
    shownPlan = key;
    const head = $('plan-head');
    const id = document.createElement('code');
    id.textContent = p.id;
    const state = document.createElement('span');
    state.className = 'plan-state ' + p.state;
    state.textContent = p.state;
    head.replaceChildren('Plan ', id, ' ', state);
    $('plan-reason').textContent = reasonText(p);
    const progress = $('plan-progress');
    progress.max = p.steps.length;
    progress.value = p.currentStep;
    $('plan-progress-label').textContent = `Step ${p.currentStep} of ${p.steps.length} made`
      + ` (${share(p.steps.slice(0, p.currentStep).reduce((s, x) => s + x.movedShare, 0))} of ${share(p.stepsMovedShare)} moved)`;
    $('plan-facts').replaceChildren(facts(p));
    $('plan-steps').replaceChildren(stepsTable(p, 'Steps'));
  }

  /** What the next step waits for: the interval after the last, and the gate (how far the followers are). */
  function showWait(p, conv) {
    const k = p.currentStep;
    const n = p.steps.length;
    gate.replaceChildren();
    delete gate.dataset.converged;
    gate.hidden = k === 0 || k >= n;
    if (gate.hidden) {
      return;
    }
    const last = p.steps[k - 1];
    const next = p.state === 'running' ? `Step ${k + 1} of ${n} waits for:` : `Step ${k + 1} of ${n} waits; the plan is paused.`;
    gate.appendChild(para(strong(next)));
    const ready = Date.parse(last.committedAt) + seconds(p.minStepInterval) * 1000;
    const left = (ready - Date.now()) / 1000;
    gate.appendChild(para(`The interval: ${duration(p.minStepInterval)} after step ${k} (committed at `, time(last.committedAt),
      left > 0 ? `), ${span(left)} to go.` : '), passed.'));
    if (!p.gate) {
      gate.appendChild(para('No gate: it waits for no follower.'));
      return;
    }
    const want = `The gate: ${shareAsked(p.gate.convergedShare)} of the followers at version ${last.version} or later`;
    if (!conv) {
      gate.appendChild(para(`${want}; how far they are could not be asked.`));
    } else {
      gate.dataset.converged = String(conv.converged);
      gate.dataset.followers = String(conv.followers);
      gate.dataset.atOrPast = String(conv.atOrPast);
      const there = conv.followers === 0 ? 'no follower reports, so it is met'
        : `${number(conv.atOrPast)} of ${number(conv.followers)} followers there`
          + ` (${shareAsked(conv.atOrPast / conv.followers)})${conv.diverged ? `, ${number(conv.diverged)} diverged` : ''}`
          + (conv.converged ? ': met' : ': not met yet');
      const line = para(`${want}: `, strong(there), '.');
      line.className = conv.converged ? 'met' : 'waiting';
      gate.appendChild(line);
    }
    const since = p.waitingSince || last.committedAt;
    const waited = (Date.now() - Date.parse(since)) / 1000;
    const timeout = seconds(p.gate.timeout);
    gate.appendChild(p.state === 'running'
      ? para(`Waiting for ${span(waited)} (since `, time(since), `); the plan pauses if the gate is not met within `
        + `${duration(p.gate.timeout)}${timeout - waited > 0 ? ` (in ${span(timeout - waited)})` : ''}.`)
      : para(`Once resumed, it waits for the gate again, for at most ${duration(p.gate.timeout)} from then.`));
  }

  function showEnded(ended) {
    const key = JSON.stringify(ended.map((p) => [p.id, p.state, p.currentStep]));
    if (key === shownEnded) {
      return;
    }
    shownEnded = key;
    const list = $('plans-ended');
    list.replaceChildren();
    $('plans-ended-title').hidden = ended.length === 0;
    for (const p of ended) {
      const li = document.createElement('li');
      li.dataset.plan = p.id;
      li.dataset.state = p.state;
      const details = document.createElement('details');
      const summary = document.createElement('summary');
      const id = document.createElement('code');
      id.textContent = p.id;
      const state = document.createElement('span');
      state.className = 'plan-state ' + p.state;
      state.textContent = p.state;
      summary.append(id, ' ', state, ` · ${p.currentStep} of ${p.steps.length} steps · ${changesText(p.changes)}`
        + (p.endedAt ? ' · ended ' : ''), ...(p.endedAt ? [time(p.endedAt)] : []));
      details.append(summary, para(reasonText(p)), facts(p), stepsTable(p, `Steps of plan ${p.id}`));
      li.appendChild(details);
      list.appendChild(li);
    }
  }

  /** How far the followers are toward the gate of the held plan's next step, or null (none asked, or refused). */
  async function convergence(p) {
    if (!p || !p.gate || p.currentStep === 0 || p.currentStep >= p.steps.length) {
      return null;
    }
    const version = p.steps[p.currentStep - 1].version;
    try {
      return await call('/followers/converged' + query({ version, share: p.gate.convergedShare, wait: 'PT0S' }));
    } catch {
      return null;
    }
  }

  /** Loads the plans (and the gate's followers) and plans the next load; one asked for meanwhile follows at once. */
  function load() {
    if (loading) {
      again = true;
      return loading;
    }
    again = false;
    clearTimeout(timer);
    loading = call('/plans').then(async ({ plans }) => {
      const conv = await convergence(plans.find(holds));
      show(plans, conv);
      return held ? HELD_MS : IDLE_MS;
    }, (e) => {
      if (isRingGone(e)) {
        return null;
      }
      shownPlan = null;
      setStatus('Could not load the plans: ' + problemText(e), 'error');
      return IDLE_MS;
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

  /** Pauses, resumes or aborts plan `id` with the admin token; a refusal is said, and the plan loaded again. */
  async function act(verb, id) {
    const pressed = document.activeElement;
    confirm.hidden = true;
    const token = tokenField.value;
    if (!token) {
      say(answer, `Type the Admin token (in the Change safely panel) first: to ${verb} a plan needs it.`, 'error');
      tokenField.focus();
      return;
    }
    try {
      const p = await call(`/plans/${encodeURIComponent(id)}/${verb}`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
      say(answer, [para(strong(`Plan ${p.id} ${DONE[verb]}`), ` at step ${p.currentStep} of ${p.steps.length}.`)]);
    } catch (e) {
      const nothing = `plan ${id} was not ${DONE[verb]}`;
      if (e.status === 401) {
        say(answer, [para(strong(`The admin token was refused (401): ${nothing}.`)),
          'Check the Admin token field (in the Change safely panel): it must be the token ringd was started with.'], 'error');
      } else if (e.status === 403) {
        say(answer, [para(strong(`The token may not change this ring (403): ${nothing}.`)),
          'A ring\'s own token changes that ring alone; the admin token changes every ring.'], 'error');
      } else if (e.status === 409) {
        say(answer, [para(strong(`Refused (409): ${nothing}.`)), problemText(e)], 'error');
      } else {
        say(answer, [para(strong(`Refused: ${nothing}.`)), problemText(e)], 'error');
      }
    }
    await load();
    if (loading) {
      await loading; // the load under way when the plan changed is followed by a fresh one: its answer counts
    }
    const focus = held && (held.state === 'running' ? buttons.pause : held.state === 'paused' ? buttons.resume : null);
    if (focus && pressed && pressed.closest('[hidden]')) {
      focus.focus(); // the button pressed is gone (Pause turned into Resume): the one that undoes it
    }
  }

  buttons.pause.addEventListener('click', () => held && act('pause', held.id));
  buttons.resume.addEventListener('click', () => held && act('resume', held.id));
  buttons.abort.addEventListener('click', () => {
    if (!held) {
      return;
    }
    confirm.dataset.plan = held.id;
    $('plan-confirm-text').textContent = `Abort plan ${held.id} at step ${held.currentStep} of ${held.steps.length}? `
      + 'The steps made stay made, and the ring is open to direct changes again.';
    confirm.hidden = false;
    $('plan-abort-confirm').focus();
  });
  $('plan-abort-confirm').addEventListener('click', () => act('abort', confirm.dataset.plan));
  $('plan-abort-cancel').addEventListener('click', () => {
    confirm.hidden = true;
    buttons.abort.focus();
  });

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

  /** Brings the panel into view and focus (the Change safely panel points at it when a plan holds the ring). */
  function reveal() {
    section.scrollIntoView({ block: 'start' });
    $('plans-title').focus();
  }

  ring.addEventListener('version', () => running && !document.hidden && load());
  ring.addEventListener('gone', stop);
  document.addEventListener('visibilitychange', () => {
    if (document.hidden) {
      clearTimeout(timer);
    } else if (running) {
      load();
    }
  });
  return { start, stop, load, reveal };
}
