// The ringd API, as the page uses it: JSON in and out, problem details turned into errors.

export const SPACE = 2 ** 32;

/** A refused request: its status and problem detail (RFC 9457), if any. */
export class ApiError extends Error {
  constructor(status, problem, version) {
    super(problem && problem.detail ? problem.detail : `HTTP ${status}`);
    this.status = status;
    this.problem = problem;
    this.version = version;
  }
}

/** Sends a request and answers the JSON body; throws ApiError for any status but 2xx. */
export async function call(path, { method = 'GET', body, headers = {} } = {}) {
  const init = { method, headers: { Accept: 'application/json', ...headers }, cache: 'no-store' };
  if (body !== undefined) {
    init.body = JSON.stringify(body);
    init.headers['Content-Type'] = 'application/json';
  }
  let response;
  try {
    response = await fetch(path, init);
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
    throw new ApiError(response.status, data, response.headers.get('X-Ring-Version'));
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
