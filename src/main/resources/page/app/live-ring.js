// What the panels share: the ring as the page knows it. It loads one version of GET /ownership and
// GET /points, has it drawn, and follows /ring/events so that any other version is loaded within a
// second. The panels read `version` (the one drawn), ask for `refresh()` after a change of their
// own, and listen for its events: "version" (the stream named a version: `detail` {version, plan},
// plan the step it is, or null), "drawn" (a version drawn and painted), "stream" (the stream's
// state changed: `stream` is connecting, live or lost), "failed" (a load failed: `error`) and
// "gone" (the ring does not exist: deleted, or never made; nothing is loaded or followed after it).

import { call, isRingGone, onRingGone, query, ringPath } from './api.js';

/** The plan step a change event's version is ({id, step, of}), or null (docs/ring.md section 24). */
function planOf(e) {
  if (e.type !== 'change') {
    return null;
  }
  try {
    return JSON.parse(e.data).plan || null;
  } catch {
    return null;
  }
}

/** Resolves once the browser has laid out and painted what was just changed. */
function painted() {
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)));
}

export class LiveRing extends EventTarget {
  /** draw(ownership, points, startedAt): draws one version at once (startedAt: when its load began). */
  constructor(draw) {
    super();
    this.draw = draw;
    this.version = null;
    this.stream = 'connecting';
    this.error = null;
    this.refreshing = null;
    this.again = false;
    this.source = null;
    this.retry = 500;
    this.gone = false;
    onRingGone((e) => this.lost(e));
  }

  /** The ring does not exist (any call answered 404 naming ring): stops for good and says so once. */
  lost(error) {
    if (this.gone) {
      return;
    }
    this.gone = true;
    this.error = error;
    this.stop();
    this.dispatchEvent(new Event('gone'));
  }

  /** Loads and draws the current ring; calls made while one runs are folded into one more. */
  refresh() {
    if (this.refreshing) {
      this.again = true;
      return this.refreshing;
    }
    this.refreshing = (async () => {
      do {
        this.again = false;
        const startedAt = performance.now();
        const [ownership, points] = await Promise.all([call('/ownership'), call('/points')]);
        if (ownership.version !== points.version) {
          this.again = true; // a change landed between the two: read both again
          continue;
        }
        this.draw(ownership, points, startedAt);
        this.version = ownership.version;
        await painted();
        this.dispatchEvent(new Event('drawn'));
      } while (this.again);
    })().catch((e) => {
      this.error = e;
      if (!isRingGone(e)) {
        this.dispatchEvent(new Event('failed'));
      }
    }).finally(() => {
      this.refreshing = null;
    });
    return this.refreshing;
  }

  /** Follows /ring/events after version `after` (from now, if null): any version but the one drawn redraws. */
  follow(after) {
    if (this.source) {
      this.source.close();
    }
    if (this.gone) {
      return;
    }
    const es = new EventSource(ringPath('/ring/events') + (after !== undefined && after !== null ? query({ after }) : ''));
    this.source = es;
    const onVersion = (e) => {
      this.retry = 500;
      this.dispatchEvent(new CustomEvent('version', { detail: { version: Number(e.lastEventId), plan: planOf(e) } }));
      if (Number(e.lastEventId) !== this.version) {
        this.refresh();
      }
    };
    es.addEventListener('snapshot', onVersion);
    es.addEventListener('change', onVersion);
    es.addEventListener('open', () => this.setStream('live'));
    es.addEventListener('error', () => {
      this.setStream('lost');
      if (es.readyState === EventSource.CLOSED && this.source === es) {
        // refused (a full server, or a ring deleted: its stream ends, then 404): the browser will not
        // retry by itself. A load first tells a deleted ring (gone) from a busy server.
        this.refresh().then(() => {
          if (!this.gone && this.source === es) {
            setTimeout(() => this.follow(this.version), this.retry);
            this.retry = Math.min(this.retry * 2, 15000);
          }
        });
      }
    });
  }

  /** Loads the ring, then follows it. */
  start() {
    if (this.gone) {
      return Promise.resolve();
    }
    return this.refresh().then(() => this.follow(this.version));
  }

  /** Closes the stream, so that a page left (or in the back-forward cache) holds no connection. */
  stop() {
    if (this.source) {
      this.source.close();
      this.source = null;
    }
    this.setStream(this.gone ? 'gone' : 'connecting');
  }

  setStream(stream) {
    this.stream = stream;
    this.dispatchEvent(new Event('stream'));
  }
}
