// The Ask panel: routes a key (GET /route with explain, GET /preference), at the current version or
// an older one kept, says why that node owns it, and marks the key and its owner on the ring.

import { call, number, percent, problemText, query } from './api.js';
import { $, para, say, strong } from './dom.js';

/** Explains GET /route's answer: the owning point (ring) or entry (Maglev). */
function placement(e) {
  if (e.placement === 'ring') {
    return `Owning point ${e.vnode} at ${e.point}: it owns the hash values ${e.start} to ${e.end}`
      + `${e.wraps ? ', wrapping past 4294967295' : ''} (${number(e.count)} values, ${percent(e.count)}).`;
  }
  return `Maglev entry ${e.entry} of ${e.tableSize}: it holds the hash values ${e.first}, ${e.first + e.tableSize}, … ${e.last} (${number(e.count)} values).`;
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
        call('/route' + query({ key, explain: true, version })),
        call('/preference' + query({ key, n, distinctZones, version })),
      ]);
      const parts = [para(strong(route.key), ' → ', strong(route.node), ` at version ${route.version} (hash ${route.hash})`)];
      parts.push(placement(route.explain));
      parts.push(`Preference (n = ${n}${distinctZones ? ', distinct zones' : ''}): ${pref.nodes.join(', ')}.`);
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
