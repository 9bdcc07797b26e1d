// The Ring panel and the Ownership table, with the status line: what a LiveRing loads, drawn, and
// how the page stands (the version drawn, the live stream). The other panels mark the ring
// through markKey and markRanges.

import { RING, problemText } from './api.js';
import { $ } from './dom.js';
import { OwnershipTable } from './ownership-table.js';
import { RingView } from './ring-view.js';

const STREAM = { connecting: ' · connecting to live updates…', live: ' · live', lost: ' · live updates lost: reconnecting…' };

export class RingPanel {
  constructor() {
    this.view = new RingView({
      wrap: $('ring-wrap'), canvas: $('ring-canvas'), overlay: $('ring-overlay'), tip: $('ring-tip'),
      cursor: $('ring-cursor'), summary: $('ring-summary'), legend: $('legend'),
    });
    this.table = new OwnershipTable($('ownership'));
    this.section = $('ring-section');
    this.status = $('status');
    this.timings = null;
  }

  /** Draws a version (GET /ownership and GET /points of it), noting how long each part took. */
  draw(ownership, points, startedAt) {
    const fetched = performance.now();
    this.view.show(points, ownership.nodes.map((n) => n.id));
    const ringDrawn = performance.now();
    this.table.show(ownership, points.hashKeys || {});
    this.timings = { startedAt, fetched, ringDrawn, built: performance.now(), version: ownership.version };
  }

  /** Shows on the page what the ring does: each version drawn, the stream, a failed load. */
  watch(ring) {
    this.showStatus(ring);
    ring.addEventListener('drawn', () => {
      this.noteTimings();
      this.showStatus(ring);
    });
    ring.addEventListener('stream', () => this.showStatus(ring));
    ring.addEventListener('failed', () => {
      this.status.textContent = 'Could not load the ring: ' + problemText(ring.error);
    });
  }

  /**
   * How long the last redraw took, from asking for the ring to the next frame painted with the ring
   * and the table (and the ring's drawing, the table's building and the wait for the frame alone);
   * then the version drawn.
   */
  noteTimings() {
    const t = this.timings;
    const painted = performance.now();
    const data = this.section.dataset;
    data.renderMs = (painted - t.startedAt).toFixed(1);
    data.drawMs = (t.ringDrawn - t.fetched).toFixed(1);
    data.tableMs = (t.built - t.ringDrawn).toFixed(1);
    data.paintMs = (painted - t.built).toFixed(1);
    data.renderedVersion = String(t.version);
  }

  showStatus(ring) {
    if (ring.gone) {
      this.status.textContent = `ring ${RING} not found`;
      this.status.classList.add('lost');
      return;
    }
    if (ring.version === null) {
      this.status.textContent = 'Loading the ring…';
      return;
    }
    this.status.textContent = `version ${ring.version}${STREAM[ring.stream]}`;
    this.status.classList.toggle('lost', ring.stream === 'lost');
  }

  /** Marks a routed key: its hash and the point or entry that owns it (GET /route's explain); null clears. */
  markKey(explain, hash) {
    this.view.markKey(explain, hash);
  }

  /** Highlights moved ranges ([{start, end}] of hash values); null clears. */
  markRanges(ranges) {
    this.view.markRanges(ranges);
  }
}
