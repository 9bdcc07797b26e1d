// The SVG overlay on the ring's canvas: the version in the middle, and what is highlighted (a
// key's hash and the point or Maglev entry that owns it, the ranges a change moves).

import { SPACE, number } from './api.js';
import { R_IN, R_MOVED_IN, R_MOVED_OUT, R_OUT, R_OWNER, R_TICK, STRIP_ASPECT, TAU, angle } from './ring-geometry.js';

const SVG = 'http://www.w3.org/2000/svg';

function el(name, attrs = {}, parent = null) {
  const e = document.createElementNS(SVG, name);
  for (const [k, v] of Object.entries(attrs)) {
    e.setAttribute(k, String(v));
  }
  if (parent) {
    parent.appendChild(e);
  }
  return e;
}

/** An SVG path along an arc of radius r (overlay units) from angle a0 over span radians. */
function arcPath(cx, cy, r, a0, span) {
  if (span >= TAU - 1e-9) {
    return `M ${cx} ${cy - r} A ${r} ${r} 0 1 1 ${cx} ${cy + r} A ${r} ${r} 0 1 1 ${cx} ${cy - r}`;
  }
  const a1 = a0 + span;
  const x0 = cx + r * Math.cos(a0);
  const y0 = cy + r * Math.sin(a0);
  const x1 = cx + r * Math.cos(a1);
  const y1 = cy + r * Math.sin(a1);
  return `M ${x0.toFixed(2)} ${y0.toFixed(2)} A ${r} ${r} 0 ${span > Math.PI ? 1 : 0} 1 ${x1.toFixed(2)} ${y1.toFixed(2)}`;
}

/**
 * Draws the overlay of ring data d (see ring-data.js; nothing when null) with its highlights:
 * key, {explain, hash} of a routed key or null; ranges, [{start, end}] of moved hash values or null.
 */
export function drawOverlay(svg, d, { key, ranges }) {
  svg.replaceChildren();
  if (!d) {
    return;
  }
  if (d.table) {
    drawStripOverlay(svg, d, key);
    return;
  }
  const c = 500;
  el('text', { x: c, y: c - 10, class: 'center-big', 'text-anchor': 'middle' }, svg).textContent = `v${d.version}`;
  el('text', { x: c, y: c + 28, class: 'center-small', 'text-anchor': 'middle' }, svg).textContent =
    `${number(d.pointCount)} points`;
  el('text', { x: c, y: 1000 * (0.5 - R_TICK) - 12, class: 'axis', 'text-anchor': 'middle' }, svg).textContent = '0';
  if (ranges && ranges.length) {
    const r = ((R_MOVED_IN + R_MOVED_OUT) / 2) * 1000;
    let path = '';
    for (const m of ranges) {
      const span = Math.max(((m.end - m.start + 1) / SPACE) * TAU, 0.006);
      path += arcPath(c, c, r, angle(m.start), span) + ' ';
    }
    el('path', { d: path, class: 'moved', 'stroke-width': (R_MOVED_OUT - R_MOVED_IN) * 1000 }, svg);
  }
  if (key && key.explain.placement === 'ring') {
    const e = key.explain;
    const span = Math.max((e.count / SPACE) * TAU, 0.01);
    el('path', { d: arcPath(c, c, R_OWNER * 1000, angle(e.start), span), class: 'owner-arc' }, svg);
    el('path', { d: arcPath(c, c, ((R_IN + R_OUT) / 2) * 1000, angle(e.start), span), class: 'owner-band',
      'stroke-width': (R_OUT - R_IN) * 1000 }, svg);
    const ap = angle(e.point);
    el('circle', { cx: c + R_OWNER * 1000 * Math.cos(ap), cy: c + R_OWNER * 1000 * Math.sin(ap), r: 9, class: 'owner-point' }, svg);
    const ak = angle(key.hash);
    el('line', { x1: c + 0.2 * 1000 * Math.cos(ak), y1: c + 0.2 * 1000 * Math.sin(ak),
      x2: c + 0.49 * 1000 * Math.cos(ak), y2: c + 0.49 * 1000 * Math.sin(ak), class: 'key-line' }, svg);
    el('circle', { cx: c + 0.2 * 1000 * Math.cos(ak), cy: c + 0.2 * 1000 * Math.sin(ak), r: 7, class: 'key-dot' }, svg);
  }
}

function drawStripOverlay(svg, d, key) {
  const h = 1000 / STRIP_ASPECT;
  el('text', { x: 0, y: h * 0.22, class: 'axis' }, svg).textContent = `v${d.version}: entry 0`;
  el('text', { x: 1000, y: h * 0.22, class: 'axis', 'text-anchor': 'end' }, svg).textContent = `entry ${number(d.size - 1)}`;
  if (key && key.explain.placement === 'maglev') {
    const x = (key.explain.entry / d.size) * 1000;
    el('rect', { x: x - 2, y: h * 0.25, width: 4, height: h * 0.55, class: 'entry-mark' }, svg);
    el('circle', { cx: x, cy: h * 0.9, r: 6, class: 'key-dot' }, svg);
  }
}
