// The ring drawn on a canvas (arcs and points, coloured by node; a Maglev table as a strip), with
// its summary and legend, a tip naming what is under the pointer or the keyboard's cursor, and an
// SVG overlay (ring-overlay.js) for what is highlighted: a key's hash and its owner, moved ranges.

import { SPACE, number, percent } from './api.js';
import { OTHERS, canvasFill, paintSwatch, styleOf } from './palette.js';
import { describeItem, itemAt, itemCount, ringData } from './ring-data.js';
import { R_IN, R_OUT, R_TICK, STRIP_ASPECT, TAU, angle } from './ring-geometry.js';
import { drawOverlay } from './ring-overlay.js';

const LEGEND_MAX = 24;

export class RingView {
  constructor({ wrap, canvas, overlay, tip, cursor, summary, legend }) {
    Object.assign(this, { wrap, canvas, overlay, tip, cursor, summary, legend });
    this.data = null;
    this.cursorIndex = -1;
    this.highlights = { key: null, ranges: null };
    new ResizeObserver(() => this.scheduleDraw()).observe(wrap);
    canvas.addEventListener('pointermove', (e) => this.hover(e));
    canvas.addEventListener('pointerleave', () => this.hideTip());
    canvas.addEventListener('keydown', (e) => this.key(e));
    canvas.addEventListener('blur', () => this.hideTip());
  }

  /**
   * Shows a ring: the GET /points answer and the members' ids, ascending (the colour order).
   * Answers the count of hash values (ring) or entries (Maglev) each node holds as drawn.
   */
  show(points, memberIds) {
    const d = ringData(points, memberIds);
    this.data = d;
    this.cursorIndex = -1;
    this.wrap.classList.toggle('strip', d.table);
    this.overlay.setAttribute('viewBox', d.table ? `0 0 1000 ${1000 / STRIP_ASPECT}` : '0 0 1000 1000');
    this.describe();
    this.draw();
    this.drawOverlay();
    return d.counts;
  }

  styleFor(node) {
    const i = this.data.index.get(node);
    return i === undefined ? { color: OTHERS, hatched: false } : styleOf(i);
  }

  describe() {
    const d = this.data;
    const nodes = d.memberIds.length;
    let text;
    if (d.pointCount === 0) {
      text = `Version ${d.version}: no node owns a point yet.`;
    } else if (d.table) {
      text = `Version ${d.version}: a Maglev table of ${number(d.pointCount)} entries for ${number(nodes)} nodes`
        + (d.mode === 'slices' ? `, drawn as ${d.slices.length} equal slices (the largest 4 owners of each, the rest in grey).` : ', every entry drawn.');
    } else {
      text = `Version ${d.version}: ${number(nodes)} nodes, ${number(d.pointCount)} points`
        + (d.ketamaFlavor ? ` (ketama, digests counted as ${d.ketamaFlavor} does)` : '')
        + (d.mode === 'slices' ? `, drawn as ${d.slices.length} equal slices of the hash space (the largest 4 owners of each, the rest in grey).` : ', every point drawn.');
    }
    this.summary.textContent = text;
    this.legend.replaceChildren();
    if (nodes > LEGEND_MAX) {
      const li = document.createElement('li');
      li.className = 'muted';
      li.textContent = `${number(nodes)} nodes: the Ownership table names each.`;
      this.legend.appendChild(li);
      return;
    }
    for (const id of d.memberIds) {
      const li = document.createElement('li');
      const sw = document.createElement('span');
      sw.className = 'swatch';
      paintSwatch(sw, this.styleFor(id));
      const count = d.counts.get(id) || 0;
      li.dataset.node = id;
      li.dataset.count = String(count);
      li.append(sw, ` ${id} `);
      const share = document.createElement('span');
      share.className = 'muted';
      share.textContent = percent(count, d.size);
      li.appendChild(share);
      this.legend.appendChild(li);
    }
  }

  scheduleDraw() {
    if (this.pending) {
      return;
    }
    this.pending = requestAnimationFrame(() => {
      this.pending = 0;
      if (this.data) {
        this.draw();
      }
    });
  }

  /** Sizes the canvas to its box and draws every arc, point, entry or slice. */
  draw() {
    const d = this.data;
    const w = this.canvas.clientWidth || 300;
    const h = d.table ? w / STRIP_ASPECT : w;
    const dpr = window.devicePixelRatio || 1;
    this.canvas.width = Math.round(w * dpr);
    this.canvas.height = Math.round(h * dpr);
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    this.side = w;
    if (d.pointCount === 0) {
      return;
    }
    if (d.table) {
      this.drawStrip(ctx, w, h);
    } else {
      this.drawRing(ctx, w);
    }
  }

  /**
   * Fills the segments of each node (a map from node, or null for the others, to segments), one
   * path per style rather than per node: styles repeat past 20 nodes, so a ring of thousands of
   * nodes still takes about 20 fills.
   */
  fillGroups(ctx, groups, path) {
    const byStyle = new Map();
    for (const [node, segs] of groups) {
      const style = node === null ? { color: OTHERS, hatched: false } : this.styleFor(node);
      const key = style.color + (style.hatched ? '/h' : '');
      let entry = byStyle.get(key);
      if (!entry) {
        entry = { style, lists: [] };
        byStyle.set(key, entry);
      }
      entry.lists.push(segs);
    }
    for (const { style, lists } of byStyle.values()) {
      ctx.fillStyle = canvasFill(ctx, style);
      ctx.beginPath();
      for (const segs of lists) {
        for (const s of segs) {
          path(s);
        }
      }
      ctx.fill();
    }
  }

  drawRing(ctx, w) {
    const d = this.data;
    const c = w / 2;
    const rIn = R_IN * w;
    const rOut = R_OUT * w;
    const groups = new Map();
    const push = (node, a0, span) => {
      let g = groups.get(node);
      if (!g) {
        g = [];
        groups.set(node, g);
      }
      g.push([a0, span]);
    };
    if (d.mode === 'points') {
      const n = d.hashes.length;
      for (let i = 0; i < n; i++) {
        const prev = i > 0 ? d.hashes[i - 1] : d.hashes[n - 1] - SPACE;
        const count = n === 1 ? SPACE : d.hashes[i] - prev;
        push(d.nodes[i], angle(d.hashes[i] + 1 - count), (count / SPACE) * TAU);
      }
    } else {
      for (const s of d.slices) {
        let a = angle(s.start);
        for (const o of s.owners) {
          const span = (o.count / SPACE) * TAU;
          push(o.node, a, span);
          a += span;
        }
        if (s.othersCount > 0) {
          push(null, a, (s.othersCount / SPACE) * TAU);
        }
      }
    }
    this.fillGroups(ctx, groups, ([a0, span]) => {
      const a1 = a0 + span;
      if (span * rOut < 2) {
        // under two pixels wide: a quadrilateral, much cheaper than two arcs
        const c0 = Math.cos(a0);
        const s0 = Math.sin(a0);
        const c1 = Math.cos(a1);
        const s1 = Math.sin(a1);
        ctx.moveTo(c + rOut * c0, c + rOut * s0);
        ctx.lineTo(c + rOut * c1, c + rOut * s1);
        ctx.lineTo(c + rIn * c1, c + rIn * s1);
        ctx.lineTo(c + rIn * c0, c + rIn * s0);
        ctx.closePath();
        return;
      }
      ctx.moveTo(c + rOut * Math.cos(a0), c + rOut * Math.sin(a0));
      ctx.arc(c, c, rOut, a0, a1);
      ctx.arc(c, c, rIn, a1, a0, true);
      ctx.closePath();
    });
    if (d.mode === 'points') {
      // every point as a tick, in its node's colour
      const rTick = R_TICK * w;
      const ticks = new Map(); // by colour
      for (let i = 0; i < d.hashes.length; i++) {
        const color = this.styleFor(d.nodes[i]).color;
        if (!ticks.has(color)) {
          ticks.set(color, []);
        }
        ticks.get(color).push(angle(d.hashes[i]));
      }
      ctx.lineWidth = d.hashes.length > 2000 ? 0.5 : 1;
      for (const [color, angles] of ticks) {
        ctx.strokeStyle = color;
        ctx.beginPath();
        for (const a of angles) {
          ctx.moveTo(c + rOut * Math.cos(a), c + rOut * Math.sin(a));
          ctx.lineTo(c + rTick * Math.cos(a), c + rTick * Math.sin(a));
        }
        ctx.stroke();
      }
    }
    ctx.strokeStyle = '#555';
    ctx.lineWidth = 1;
    ctx.beginPath();
    ctx.moveTo(c, c - rIn + 4);
    ctx.lineTo(c, c - R_TICK * w - 4);
    ctx.stroke();
  }

  drawStrip(ctx, w, h) {
    const d = this.data;
    const y0 = h * 0.3;
    const sh = h * 0.45;
    const groups = new Map();
    const push = (node, x, width) => {
      if (!groups.has(node)) {
        groups.set(node, []);
      }
      groups.get(node).push([x, width]);
    };
    if (d.mode === 'entries') {
      // runs of one owner
      let start = 0;
      for (let e = 1; e <= d.nodes.length; e++) {
        if (e === d.nodes.length || d.nodes[e] !== d.nodes[start]) {
          push(d.nodes[start], (start / d.size) * w, ((e - start) / d.size) * w);
          start = e;
        }
      }
    } else {
      for (const s of d.slices) {
        let x = (s.start / d.size) * w;
        for (const o of s.owners) {
          push(o.node, x, (o.count / d.size) * w);
          x += (o.count / d.size) * w;
        }
        if (s.othersCount > 0) {
          push(null, x, (s.othersCount / d.size) * w);
        }
      }
    }
    this.fillGroups(ctx, groups, ([x, width]) => ctx.rect(x, y0, width, sh));
  }

  // ------------------------------------------------------------------ overlay

  /** Marks a key: its hash and the point (arc) or entry that owns it; null clears. */
  markKey(explain, hash) {
    this.highlights.key = explain ? { explain, hash } : null;
    this.drawOverlay();
  }

  /** Highlights moved ranges ([{start,end}] of hash values); null clears. */
  markRanges(ranges) {
    this.highlights.ranges = ranges;
    this.drawOverlay();
  }

  drawOverlay() {
    drawOverlay(this.overlay, this.data, this.highlights);
  }

  // ------------------------------------------------------------------ hover and keyboard

  /** Where on the canvas (CSS pixels) a hash value or entry is drawn. */
  place(pos) {
    const d = this.data;
    const w = this.side;
    if (d.table) {
      return { x: (pos / d.size) * w, y: (w / STRIP_ASPECT) * 0.3 };
    }
    const a = angle(pos);
    return { x: w / 2 + R_TICK * w * Math.cos(a), y: w / 2 + R_TICK * w * Math.sin(a) };
  }

  hover(ev) {
    const d = this.data;
    if (!d || d.pointCount === 0) {
      return;
    }
    const rect = this.canvas.getBoundingClientRect();
    const x = ev.clientX - rect.left;
    const y = ev.clientY - rect.top;
    const w = rect.width;
    let pos;
    if (d.table) {
      pos = (x / w) * d.size;
    } else {
      const dx = x - w / 2;
      const dy = y - w / 2;
      const r = Math.hypot(dx, dy) / w;
      if (r < R_IN * 0.8 || r > 0.5) {
        this.hideTip();
        return;
      }
      let a = Math.atan2(dy, dx) + Math.PI / 2;
      if (a < 0) {
        a += TAU;
      }
      pos = Math.min(SPACE - 1, Math.floor((a / TAU) * SPACE));
    }
    const item = describeItem(d, itemAt(d, pos));
    this.showTip(item.text, x, y);
  }

  key(ev) {
    const d = this.data;
    if (!d || d.pointCount === 0) {
      return;
    }
    const n = itemCount(d);
    let i = this.cursorIndex;
    switch (ev.key) {
      case 'ArrowRight':
      case 'ArrowDown':
        i = (i + 1) % n;
        break;
      case 'ArrowLeft':
      case 'ArrowUp':
        i = i <= 0 ? n - 1 : i - 1;
        break;
      case 'PageDown':
        i = (Math.max(i, 0) + Math.ceil(n / 24)) % n;
        break;
      case 'PageUp':
        i = (Math.max(i, 0) - Math.ceil(n / 24) + n) % n;
        break;
      case 'Home':
        i = 0;
        break;
      case 'End':
        i = n - 1;
        break;
      case 'Escape':
        this.hideTip();
        return;
      default:
        return;
    }
    ev.preventDefault();
    this.cursorIndex = i;
    const item = describeItem(d, i);
    const p = this.place(item.pos);
    this.showTip(item.text, p.x, p.y);
    this.cursor.textContent = item.text;
  }

  showTip(text, x, y) {
    this.tip.textContent = text;
    this.tip.hidden = false;
    const w = this.wrap.clientWidth;
    const tw = Math.min(this.tip.offsetWidth, w);
    this.tip.style.left = `${Math.max(0, Math.min(w - tw, x + 12))}px`;
    this.tip.style.top = `${Math.max(0, y + 12)}px`;
  }

  hideTip() {
    this.tip.hidden = true;
  }
}
