// The ring's page: draws the ring and its ownership, routes keys, previews and applies membership
// changes (directly, or as a plan made in steps), compares versions, follows /ring/events to
// redraw within a second of any change, follows and steers the ring's plans (the Plans panel), and
// shows which versions the ring's followers hold (the Fleet panel).
// One module per panel; what they share is the LiveRing (the version drawn, the stream) and the
// ring panel's marks. The page is one ring's: at / the ring default's, at /rings/{name}/ that
// ring's (docs/ring.md section 22), which the picker switches between. Plain ES modules, served as they are: no build step, nothing inline.

import { askPanel } from './ask-panel.js';
import { changePanel } from './change-panel.js';
import { fleetPanel } from './fleet-panel.js';
import { historyPanel } from './history-panel.js';
import { LiveRing } from './live-ring.js';
import { plansPanel } from './plans-panel.js';
import { RingPanel } from './ring-panel.js';
import { ringPicker } from './ring-picker.js';

const ringPanel = new RingPanel();
const ring = new LiveRing((ownership, points, startedAt) => ringPanel.draw(ownership, points, startedAt));
ringPanel.watch(ring);
ringPicker(ring);
askPanel(ring, ringPanel);
const plans = plansPanel(ring);
changePanel(ring, ringPanel, plans);
historyPanel(ring, ringPanel);
const fleet = fleetPanel(ring);

// A page left (or put in the back-forward cache) closes its stream, so that it holds no connection,
// and stops asking for the followers and the plans; one shown again from that cache reads the ring
// and follows it anew.
window.addEventListener('pagehide', () => {
  ring.stop();
  fleet.stop();
  plans.stop();
});
window.addEventListener('pageshow', (e) => {
  if (e.persisted) {
    ring.start();
    fleet.start();
    plans.start();
  }
});

ring.start();
fleet.start();
plans.start();
