// The Ask panel: routes a key (GET /route with explain, GET /preference), at the current version or
// an older one kept, says why that node owns it, and marks the key and its owner on the ring. At
// the current version it also asks who held the key before (handoff=true, docs/ring.md section 21).

import { ApiError, call, number, percent, problemText, query } from './api.js';
import { $, para, say, strong } from './dom.js';

/** Explains GET /route's answer: the owning point (ring) or entry (Maglev). */
function placement(e) {
  if (e.placement === 'ring') {
    return `Owning point ${e.vnode} at ${e.point}: it owns the hash values ${e.start} to ${e.end}`
      + `${e.wraps ? ', wrapping past 4294967295' : ''} (${number(e.count)} values, ${percent(e.count)}).`;
  }
  return `Maglev entry ${e.entry} of ${e.tableSize}: it holds the hash values ${e.first}, ${e.first + e.tableSize}, … ${e.last} (${number(e.count)} values).`;
}

/**
 * Says who held the key before (the handoff of GET /route?handoff=true): when it moved to its owner
 * and the earlier owners, newest first, the order a read-through asks them in on a miss.
 */
function handoffText(node, h) {
  const p = para();
  p.className = 'handoff';
  if (h === undefined) {
    p.textContent = 'ringd was too busy to say who held it before: route it again.';
    return p;
  }
  if (h === null) {
    p.textContent = `${node} has held it throughout the handoff window: no earlier owner to read it from.`;
    p.dataset.previous = '';
    return p;
  }
  const when = h.movedAtTime ? ` (${h.movedAtTime})` : '';
  const from = h.previous.length === 0 ? ', from an empty ring'
    : `, previously on ${h.previous.join(', before that ')}`;
  p.append('Moved to ', strong(node), ` at version ${h.movedAt}${when}${from}.`);
  if (h.previous.length > 0) {
    p.append(` On a miss at ${node}, a read-through asks ${h.previous.join(', then ')} while the window lasts.`);
  }
  p.dataset.movedAt = String(h.movedAt);
  p.dataset.previous = h.previous.join(',');
  return p;
}

/**
 * GET /route with explain, and with handoff at the current version. The first handoff lookup of a
 * version builds its index and may be refused with 503 while the server is busy: the route is then
 * asked for without it, and the answer says so (handoff: undefined).
 */
async function routeOf(key, version) {
  const plain = '/route' + query({ key, explain: true, version });
  if (version !== '') {
    return call(plain);
  }
  try {
    return await call('/route' + query({ key, explain: true, handoff: true }));
  } catch (err) {
    if (err instanceof ApiError && err.status === 503) {
      const r = await call(plain);
      return { ...r, handoff: undefined };
    }
    throw err;
  }
}

/** Wires the panel to the ring (the version drawn) and its marks (the ring panel). */
export function askPanel(ring, marks) {
  const region = $('ask-answer');
  $('ask-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const key = $('key').value;
    if (key === '') {
      say(region, 'Type a key to route.', 'error');
      $('key').focus();
      return;
    }
    const version = $('ask-version').value.trim();
    const n = $('pref-n').value.trim() || '3';
    const distinctZones = $('pref-zones').checked;
    try {
      const [route, pref] = await Promise.all([
        routeOf(key, version),
        call('/preference' + query({ key, n, distinctZones, version })),
      ]);
      const parts = [para(strong(route.key), ' → ', strong(route.node), ` at version ${route.version} (hash ${route.hash})`)];
      parts.push(placement(route.explain));
      parts.push(`Preference (n = ${n}${distinctZones ? ', distinct zones' : ''}): ${pref.nodes.join(', ')}.`);
      if (version === '') {
        parts.push(handoffText(route.node, route.handoff));
      }
      if (route.version !== ring.version) {
        parts.push(`The ring drawn is version ${ring.version}: the marks show where version ${route.version}'s answer falls on it.`);
      }
      say(region, parts);
      region.dataset.node = route.node;
      marks.markKey(route.explain, route.hash);
    } catch (err) {
      say(region, problemText(err), 'error');
      marks.markKey(null);
    }
  });
}
