// The History panel: compares two versions kept (GET /diff?from&to) and highlights what moved;
// "from" defaults to the version before the one drawn.

import { call, problemText, query } from './api.js';
import { $, say } from './dom.js';
import { MAX_RANGES, diffParts } from './diff-answer.js';

/** Wires the panel to the ring (the version drawn) and its marks (the ring panel). */
export function historyPanel(ring, marks) {
  const region = $('history-answer');
  const fromField = $('history-from');
  ring.addEventListener('drawn', () => {
    if (fromField.value === '') {
      fromField.placeholder = String(Math.max(0, ring.version - 1));
    }
  });
  $('history-form').addEventListener('submit', async (ev) => {
    ev.preventDefault();
    const from = fromField.value.trim() || fromField.placeholder;
    const to = $('history-to').value.trim();
    if (from === '') {
      say(region, 'Type the version to compare from.', 'error');
      return;
    }
    try {
      const d = await call('/diff' + query({ from, to, maxRanges: MAX_RANGES }));
      say(region, diffParts(d, `From version ${d.from} to version ${d.to}.`));
      marks.markRanges(d.ranges);
    } catch (e) {
      say(region, problemText(e), 'error');
      marks.markRanges(null);
    }
  });
}
