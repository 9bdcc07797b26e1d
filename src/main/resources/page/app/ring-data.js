// A GET /points answer as the ring view reads it: every point (hash, node, vnode), every Maglev
// entry, or the equal slices of a summarised ring; what each node holds as drawn; what sits at a
// hash value or entry, and how it is described. No drawing here.

import { SPACE, number, percent } from './api.js';

/** Index of the first value >= x in an ascending array, or its length. */
function lowerBound(values, x) {
  let lo = 0;
  let hi = values.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (values[mid] < x) {
      lo = mid + 1;
    } else {
      hi = mid;
    }
  }
  return lo;
}

/** The hash values point i of n owns, the ones after the point before it (all of them for one point). */
function pointCount(d, i) {
  const n = d.hashes.length;
  const prev = i > 0 ? d.hashes[i - 1] : d.hashes[n - 1] - SPACE;
  return n === 1 ? SPACE : d.hashes[i] - prev;
}

/** Per node, what it holds as drawn: exact for points and entries, the named owners' part for slices. */
function countsOf(d) {
  const counts = new Map();
  const add = (node, c) => counts.set(node, (counts.get(node) || 0) + c);
  if (d.mode === 'points') {
    for (let i = 0; i < d.hashes.length; i++) {
      add(d.nodes[i], pointCount(d, i));
    }
  } else if (d.mode === 'entries') {
    d.nodes.forEach((node) => add(node, 1));
  } else {
    d.slices.forEach((s) => s.owners.forEach((o) => add(o.node, o.count)));
  }
  return counts;
}

/**
 * The ring to draw: a GET /points answer and the members' ids, ascending (the colour order).
 * mode is "points", "entries" (a whole Maglev table) or "slices"; size is what the drawing spans
 * (2^32 hash values, or the Maglev table's entries); counts what each node holds as drawn.
 */
export function ringData(points, memberIds) {
  const index = new Map(memberIds.map((id, i) => [id, i]));
  const d = {
    version: points.version, placement: points.placement, pointCount: points.pointCount, index, memberIds,
    ketamaFlavor: points.ketamaFlavor || null,
  };
  if (points.points) {
    d.mode = 'points';
    d.hashes = points.points.map((p) => p.hash);
    d.nodes = points.points.map((p) => p.node);
    d.vnodes = points.points.map((p) => p.vnode);
  } else if (points.entries) {
    d.mode = 'entries';
    d.nodes = points.entries;
  } else {
    d.mode = 'slices';
    d.slices = points.slices;
    d.starts = points.slices.map((s) => s.start);
  }
  d.table = points.placement === 'maglev';
  d.size = d.table ? points.pointCount : SPACE;
  d.counts = countsOf(d);
  return d;
}

/** The points (or entries, or slices) drawn, each of which the pointer and the keys can step to. */
export function itemCount(d) {
  return d.mode === 'points' ? d.hashes.length : d.mode === 'entries' ? d.nodes.length : d.slices.length;
}

/** The index of the item at a hash value (ring) or entry (Maglev). */
export function itemAt(d, pos) {
  if (d.mode === 'points') {
    const i = lowerBound(d.hashes, pos);
    return i === d.hashes.length ? 0 : i;
  }
  if (d.mode === 'entries') {
    return Math.min(d.nodes.length - 1, Math.max(0, Math.floor(pos)));
  }
  return Math.max(0, lowerBound(d.starts, pos + 1) - 1);
}

/** Item i: its description and the hash value or entry where it is drawn. */
export function describeItem(d, i) {
  if (d.mode === 'points') {
    const count = pointCount(d, i);
    return { text: `${d.vnodes[i]} · node ${d.nodes[i]} · point ${d.hashes[i]} · owns ${number(count)} hash values (${percent(count)})`,
      pos: d.hashes[i] };
  }
  if (d.mode === 'entries') {
    return { text: `entry ${number(i)} · node ${d.nodes[i]}`, pos: i + 0.5 };
  }
  const s = d.slices[i];
  const size = s.end - s.start + 1;
  const parts = s.owners.map((o) => `${o.node} ${percent(o.count, size)}`);
  if (s.othersCount > 0) {
    parts.push(`${s.othersNodes} others ${percent(s.othersCount, size)}`);
  }
  const what = d.table ? 'entries' : 'hash values';
  return { text: `slice ${i + 1} of ${d.slices.length} (${what} ${number(s.start)}–${number(s.end)}): ${parts.join(', ')}`,
    pos: (s.start + s.end) / 2 };
}
