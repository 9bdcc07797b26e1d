// The Ownership table: one row per node (id, weight, zone, points, exact share, how far the share
// is from the weight's share) with a bar, sortable by any column.

import { SPACE, number } from './api.js';
import { paintSwatch, styleOf } from './palette.js';

/** Text made safe for markup. */
function esc(text) {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

export class OwnershipTable {
  constructor(table) {
    this.table = table;
    this.body = table.tBodies[0];
    this.rows = [];
    this.sort = { key: 'id', dir: 1 };
    for (const th of table.tHead.querySelectorAll('th[data-sort]')) {
      th.querySelector('button').addEventListener('click', () => {
        const key = th.dataset.sort;
        this.sort = { key, dir: this.sort.key === key ? -this.sort.dir : key === 'id' || key === 'zone' ? 1 : -1 };
        this.render();
      });
    }
  }

  /** Shows a GET /ownership answer; hashKeys: the placement string of each node that has one (GET /points). */
  show(ownership, hashKeys = {}) {
    const nodes = ownership.nodes;
    const totalWeight = nodes.reduce((s, n) => s + n.weight, 0);
    this.rows = nodes.map((n, i) => {
      const share = n.count / SPACE;
      const weightShare = totalWeight > 0 ? n.weight / totalWeight : 0;
      return { ...n, index: i, shareExact: share, deviation: share - weightShare, weightShare, hashKey: hashKeys[n.id] };
    });
    this.maxShare = Math.max(1e-12, ...this.rows.map((r) => r.shareExact));
    this.render();
  }

  render() {
    const { key, dir } = this.sort;
    const value = (r) => (key === 'share' ? r.count : key === 'zone' ? r.zone || '' : r[key]);
    const rows = [...this.rows].sort((a, b) => {
      const va = value(a);
      const vb = value(b);
      const c = typeof va === 'string' ? (va < vb ? -1 : va > vb ? 1 : 0) : va - vb;
      return c !== 0 ? c * dir : a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
    });
    for (const th of this.table.tHead.querySelectorAll('th[data-sort]')) {
      if (th.dataset.sort === key) {
        th.setAttribute('aria-sort', dir > 0 ? 'ascending' : 'descending');
      } else {
        th.removeAttribute('aria-sort');
      }
    }
    // One parse of the rows' markup (thousands of rows build far faster than element by element), then
    // colours and bar widths through the CSSOM: the policy allows no style attribute in markup.
    let html = '';
    for (const r of rows) {
      const pp = r.deviation * 100;
      const rel = r.weightShare > 0 ? (r.deviation / r.weightShare) * 100 : 0;
      const title = `${rel >= 0 ? '+' : '−'}${Math.abs(rel).toFixed(1)}% of the weight's share (${(r.weightShare * 100).toFixed(3)}%)`;
      html += `<tr data-node="${esc(r.id)}" data-count="${r.count}">`
        + `<th scope="row"><span class="swatch"></span> ${esc(r.id)}`
        + (r.hashKey ? `<span class="hash-key muted small">placed by ${esc(r.hashKey)}</span>` : '') + '</th>'
        + `<td class="num">${esc(String(r.weight))}</td>`
        + `<td>${r.zone ? esc(r.zone) : '—'}</td>`
        + `<td class="num">${number(r.points)}</td>`
        + `<td class="num share">${(r.shareExact * 100).toFixed(3)}%</td>`
        + `<td class="num" title="${esc(title)}">${pp >= 0 ? '+' : '−'}${Math.abs(pp).toFixed(3)} pp</td>`
        + '<td class="bar-col"><span class="bar"><span class="fill"></span></span></td></tr>';
    }
    this.body.innerHTML = html;
    const trs = this.body.rows;
    for (let i = 0; i < rows.length; i++) {
      const style = styleOf(rows[i].index);
      const tr = trs[i];
      paintSwatch(tr.cells[0].firstChild, style);
      const fill = tr.cells[6].firstChild.firstChild;
      paintSwatch(fill, style);
      fill.style.width = `${(rows[i].shareExact / this.maxShare) * 100}%`;
    }
  }
}
