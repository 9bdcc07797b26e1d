// The ring picker: which ring this page is for (docs/ring.md section 22), the rings GET /rings
// lists, and the page of another ring once one is chosen (/ for default, /rings/{name}/ for
// another, so that every ring's page can be linked to). A ring that does not exist (deleted while
// its page was open, or a link to one never made) is said so in place of its panels.

import { RING, listRings, pageOf, problemText } from './api.js';
import { $, para, strong } from './dom.js';

/** Wires the picker and the not-found message to the ring (its "gone" event). */
export function ringPicker(ring) {
  const select = $('ring-picker');
  let shown = null; // the names the options were last built from

  function render(names) {
    const all = names.includes(RING) ? names : names.concat([RING]);
    const key = all.join(' ') + (names.includes(RING) ? '' : ' !');
    if (key === shown) {
      return; // the same list: an open dropdown is left alone
    }
    shown = key;
    select.replaceChildren();
    for (const name of all) {
      const option = document.createElement('option');
      option.value = name;
      option.textContent = names.includes(name) ? name : `${name} (not found)`;
      select.appendChild(option);
    }
    select.value = RING;
  }

  async function load() {
    try {
      render((await listRings()).map((r) => r.name));
      select.removeAttribute('title');
      select.dataset.loaded = 'true';
    } catch (e) {
      select.title = 'Could not list the rings: ' + problemText(e);
    }
  }

  function showGone() {
    const region = $('ring-gone');
    region.replaceChildren(
      para(strong(`There is no ring named ${RING}.`), ' It was deleted, or never made: nothing of it can be shown '
        + 'or changed here.'),
      para('Choose another ring above, or go to the page of ', link('the ring default', pageOf('default')), '.'));
    region.hidden = false;
    document.querySelector('main').hidden = true;
    load();
  }

  render([RING]);
  $('ring-name').textContent = RING;
  document.title = `ringd: ring ${RING}`;
  select.addEventListener('change', () => {
    if (select.value !== RING) {
      window.location.assign(pageOf(select.value));
    }
  });
  select.addEventListener('focus', load);
  ring.addEventListener('gone', showGone);
  if (ring.gone) {
    showGone();
  }
  load();
}

function link(text, href) {
  const a = document.createElement('a');
  a.href = href;
  a.textContent = text;
  return a;
}
