// The ringd API, as the page uses it: JSON in and out, problem details turned into errors.
// The page is the page of one ring (docs/ring.md section 22): served at / it is the ring default's,
// at /rings/{name}/ that ring's, and every call it makes goes under the folder it was served from.
// That folder is read from where this module was loaded (index.html names app/ relatively).

export const SPACE = 2 ** 32;

const PAGE = new URL('..', import.meta.url);
const NAMED = /\/rings\/([a-z0-9-]+)\/$/.exec(PAGE.pathname);

/** The name of the ring this page is for. */
export const RING = NAMED ? NAMED[1] : 'default';

/** The instance's own root (where GET /rings is), whichever ring's page this is. */
const ROOT = NAMED ? new URL('../../', PAGE) : PAGE;

/** The path of one of this ring's calls ('/ownership', '/ring/events?after=3') under the page's ring. */
export function ringPath(path) {
  return PAGE.pathname + path.replace(/^\//, '');
}

/** The address of the page of ring `name`: / for default, /rings/{name}/ for another. */
export function pageOf(name) {
  return name === 'default' ? ROOT.pathname : ROOT.pathname + 'rings/' + name + '/';
}

/** GET /rings: every ring the instance serves ({name, version, nodes, ...}), by name. */
export async function listRings() {
  return (await call(ROOT.pathname + 'rings', { instance: true })).rings;
}

const goneListeners = [];

/** Calls `listener(error)` once any call answers that this page's ring does not exist (404, field ring). */
export function onRingGone(listener) {
  goneListeners.push(listener);
}

/** Whether a refusal says that the ring itself does not exist (deleted, or never made). */
export function isRingGone(e) {
  return e instanceof ApiError && e.status === 404 && !!e.problem && e.problem.field === 'ring';
}

/** A refused request: its status and problem detail (RFC 9457), if any. */
export class ApiError extends Error {
  constructor(status, problem, version) {
    super(problem && problem.detail ? problem.detail : `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.version = version;
  }
}

/**
 * Sends a request and answers the JSON body; throws ApiError for any status but 2xx. `path` is one
 * of the ring's paths ('/ownership'), sent under the page's ring; with `instance`, sent as it is.
 */
export async function call(path, { method = 'GET', body, headers = {}, instance = false } = {}) {
  const init = { method, headers: { Accept: 'application/json', ...headers }, cache: 'no-store' };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(instance ? path : ringPath(path), init);
  } catch (e) {
    throw new ApiError(0, { detail: 'ringd did not answer (' + e.message + ')' }, null);
  }
  const text = await response.text();
  let data = null;
  try {
    data = text ? JSON.parse(text) : null;
  } catch {
    data = null;
  }
  if (!response.ok) {
    const error = new ApiError(response.status, data, response.headers.get('X-Ring-Version'));
    if (!instance && isRingGone(error)) {
      goneListeners.forEach((listener) => listener(error));
    }
    throw error;
  }
  return data;
}

/** A query string from an object, leaving out empty values; keys form-encoded. */
export function query(params) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (v !== undefined && v !== null && v !== '') {
      q.set(k, String(v));
    }
  }
  const s = q.toString();
  return s ? '?' + s : '';
}

/** A share of the hash space in percent, to 3 decimals. */
export function percent(count, of = SPACE) {
  return (count / of * 100).toFixed(3) + '%';
}

/** A number with thousands separators. */
export function number(n) {
  return Number(n).toLocaleString('en-US');
}

/** What a refused request (an ApiError, or any other error) says to a reader. */
export function problemText(e) {
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
