// A GET or POST /diff answer as the Change safely and History panels show it: the share of the
// hash space it moves, its ranges (which the ring highlights) and its largest flows.

import { number, percent } from './api.js';
import { para, strong } from './dom.js';

const FLOWS_SHOWN = 20;

function flowsTable(flows, total, caption) {
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
  for (const f of flows.slice(0, FLOWS_SHOWN)) {
    const r = body.insertRow();
    r.insertCell().textContent = f.from ?? '(none)';
    r.insertCell().textContent = f.to ?? '(none)';
    r.insertCell().textContent = number(f.count);
    r.insertCell().textContent = percent(f.count);
  }
  const shown = Math.min(flows.length, FLOWS_SHOWN);
  if (total > shown) {
    const r = body.insertRow();
    const c = r.insertCell();
    c.colSpan = 4;
    c.textContent = `and ${number(total - shown)} smaller flows`;
  }
  return t;
}

/** The parts (for say) that describe diff d under a heading: moved share, ranges, flows. */
export function diffParts(d, heading) {
  const parts = [para(strong(heading))];
  parts.push(`Moves ${percent(d.movedCount)} of the hash space (${number(d.movedCount)} hash values)`
    + (d.rangeCount > 0 ? ` in ${number(d.rangeCount)} ranges${d.rangesTruncated ? `, the first ${number(d.ranges.length)} highlighted` : ', highlighted on the ring'}.` : '.'));
  if (d.flows.length) {
    parts.push(flowsTable(d.flows, d.flowCount ?? d.flows.length, 'Flows'));
  }
  return parts;
}

/** The most moved ranges a diff is asked for (the ring highlights them; the answer says when there are more). */
export const MAX_RANGES = 5000;
