// The Ownership table: one row per node (id, weight, zone, points, exact share, how far the share
// is from the weight's share) with a bar, sortable by any column.

import { SPACE, number } from './api.js';
import { paintSwatch, styleOf } from './palette.js';

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

  /** Shows a GET /ownership answer. */
  show(ownership) {
    const nodes = ownership.nodes;
    const totalWeight = nodes.reduce((s, n) => s + n.weight, 0);
    this.rows = nodes.map((n, i) => {
      const share = n.count / SPACE;
      const weightShare = totalWeight > 0 ? n.weight / totalWeight : 0;
      return { ...n, index: i, shareExact: share, deviation: share - weightShare, weightShare };
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
    const frag = document.createDocumentFragment();
    for (const r of rows) {
      const tr = document.createElement('tr');
      tr.dataset.node = r.id;
      tr.dataset.count = String(r.count);
      const idCell = document.createElement('th');
      idCell.scope = 'row';
      const sw = document.createElement('span');
      sw.className = 'swatch';
      paintSwatch(sw, styleOf(r.index));
      idCell.append(sw, ' ' + r.id);
      tr.appendChild(idCell);
      const cell = (text, cls) => {
        const td = document.createElement('td');
        td.textContent = text;
        if (cls) {
          td.className = cls;
        }
        tr.appendChild(td);
        return td;
      };
      cell(String(r.weight), 'num');
      cell(r.zone || '—');
      cell(number(r.points), 'num');
      cell((r.shareExact * 100).toFixed(3) + '%', 'num share');
      const pp = r.deviation * 100;
      const rel = r.weightShare > 0 ? (r.deviation / r.weightShare) * 100 : 0;
      const dev = cell(`${pp >= 0 ? '+' : '−'}${Math.abs(pp).toFixed(3)} pp`, 'num');
      dev.title = `${rel >= 0 ? '+' : '−'}${Math.abs(rel).toFixed(1)}% of the weight's share (${(r.weightShare * 100).toFixed(3)}%)`;
      const barCell = cell('', 'bar-col');
      const bar = document.createElement('span');
      bar.className = 'bar';
      const fill = document.createElement('span');
      fill.className = 'fill';
      paintSwatch(fill, styleOf(r.index));
      fill.style.width = `${(r.shareExact / this.maxShare) * 100}%`;
      bar.appendChild(fill);
      barCell.appendChild(bar);
      frag.appendChild(tr);
    }
    this.body.replaceChildren(frag);
  }
}
