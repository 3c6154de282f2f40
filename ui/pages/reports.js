//! Reports: the daily report for a chosen range of days (in the store's time zone), a bar
//! chart of revenue per day drawn as inline SVG (no library, nothing from the internet), and
//! the same rows as a CSV download.

import * as api from '../api.js';
import { h, field, replace, saveBlob } from '../dom.js';
import { notifyError } from '../notify.js';
import { table, pageHeader } from '../widgets.js';
import { formatPrice, loadProfile } from '../money.js';
import { animalsSection } from '../animalreport.js';

/**
 * @typedef {{ date: string, ordersPlaced: number, ordersCompleted: number, ordersCancelled: number, unitsSold: number, revenue: number }} Day
 */

export const title = 'Reports';
export const watches = ['order.', 'store.', 'sale.'];

const SVG = 'http://www.w3.org/2000/svg';

/** @param {Date} d */
const isoDay = (d) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

const state = { from: '', to: '' };

/**
 * An SVG element.
 * @param {string} tag
 * @param {Record<string, string | number>} attrs
 * @param {...(Node | string)} children
 */
function svg(tag, attrs, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
  el.append(...children);
  return el;
}

/**
 * Revenue per day as bars, with the highest day's figure on the axis. Each bar says its day
 * and revenue to a pointer (title) and to a screen reader (the chart is an image with a
 * summary; the table below holds every figure).
 * @param {Day[]} days
 */
export function revenueChart(days) {
  const width = 760;
  const height = 240;
  const left = 70;
  const bottom = 28;
  const top = 12;
  const max = Math.max(1, ...days.map((d) => d.revenue));
  const slot = (width - left - 8) / Math.max(1, days.length);
  const bar = Math.max(2, slot * 0.7);
  const plot = height - bottom - top;
  const total = days.reduce((s, d) => s + d.revenue, 0);
  const best = days.reduce((b, d) => (d.revenue > (b?.revenue ?? -1) ? d : b), /** @type {Day | null} */ (null));
  const summary = `Revenue per day from ${days[0]?.date ?? ''} to ${days[days.length - 1]?.date ?? ''}: ${formatPrice(total)} in all${best && best.revenue > 0 ? `, highest ${formatPrice(best.revenue)} on ${best.date}` : ''}.`;
  const chart = svg('svg', { viewBox: `0 0 ${width} ${height}`, class: 'chart', role: 'img', 'aria-label': summary, 'data-chart': 'revenue' },
    svg('line', { x1: left, y1: top + plot, x2: width, y2: top + plot, class: 'axis' }),
    svg('text', { x: left - 6, y: top + 10, 'text-anchor': 'end', class: 'tick' }, formatPrice(max)),
    svg('text', { x: left - 6, y: top + plot, 'text-anchor': 'end', class: 'tick' }, formatPrice(0)),
  );
  days.forEach((d, i) => {
    const hgt = Math.round((d.revenue / max) * plot);
    const x = left + i * slot + (slot - bar) / 2;
    chart.append(svg('rect', { x: x.toFixed(1), y: top + plot - hgt, width: bar.toFixed(1), height: Math.max(hgt, d.revenue > 0 ? 1 : 0), class: 'bar', 'data-date': d.date, 'data-revenue': d.revenue },
      svg('title', {}, `${d.date}: ${formatPrice(d.revenue)}, ${d.unitsSold} sold`)));
    const every = Math.ceil(days.length / 10);
    if (i % every === 0) chart.append(svg('text', { x: (x + bar / 2).toFixed(1), y: height - 8, 'text-anchor': 'middle', class: 'tick' }, d.date.slice(5)));
  });
  return chart;
}

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  if (!state.to) {
    const today = new Date();
    state.to = isoDay(today);
    state.from = isoDay(new Date(today.getFullYear(), today.getMonth(), today.getDate() - 29));
  }
  const from = /** @type {HTMLInputElement} */ (h('input', { id: 'rep-from', type: 'date', value: state.from }));
  const to = /** @type {HTMLInputElement} */ (h('input', { id: 'rep-to', type: 'date', value: state.to }));
  for (const input of [from, to]) {
    input.addEventListener('change', () => {
      if (!from.value || !to.value) return;
      state.from = from.value;
      state.to = to.value;
      ctx.refresh();
    });
  }
  const download = h('button', { type: 'button', class: 'btn', id: 'rep-csv', onclick: downloadCsv }, 'Download CSV');
  const results = h('div', { class: 'results' });
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Reports', download),
    h('div', { class: 'toolbar', role: 'group', 'aria-label': 'Days to report' }, field('From', from), field('To', to)),
    results,
  );

  async function downloadCsv() {
    try {
      const blob = await api.download('/store/reports/daily', { from: state.from, to: state.to });
      saveBlob(blob, `daily-${state.from}-${state.to}.csv`);
    } catch (err) {
      notifyError(err);
    }
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    focus: () => from.focus(),
    async load() {
      const profile = await loadProfile();
      const days = /** @type {Day[]} */ (await api.get('/store/reports/daily', { from: state.from, to: state.to }));
      // The animals sold (staff and up): the record, the sale and the buyer of each.
      const animals = ctx.can('stock') ? await animalsSection(state.from, state.to) : null;
      const sum = (/** @type {keyof Day} */ k) => days.reduce((s, d) => s + Number(d[k]), 0);
      const rows = [...days].reverse().map((d) => h('tr', {},
        h('th', { scope: 'row' }, d.date),
        h('td', { class: 'num' }, String(d.ordersPlaced)),
        h('td', { class: 'num' }, String(d.ordersCompleted)),
        h('td', { class: 'num' }, String(d.ordersCancelled)),
        h('td', { class: 'num' }, String(d.unitsSold)),
        h('td', { class: 'num' }, formatPrice(d.revenue)),
      ));
      replace(results,
        h('div', { class: 'stats' },
          h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Revenue'), h('strong', { id: 'rep-revenue' }, formatPrice(sum('revenue')))),
          h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Orders'), h('strong', {}, String(sum('ordersPlaced')))),
          h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Units sold'), h('strong', {}, String(sum('unitsSold')))),
          h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, 'Days in'), h('strong', {}, profile.timezone))),
        h('figure', { class: 'chart-box' }, revenueChart(days), h('figcaption', { class: 'muted' }, 'Revenue per day')),
        table('Daily report', ['Day', { label: 'Placed', class: 'num' }, { label: 'Completed', class: 'num' }, { label: 'Cancelled', class: 'num' }, { label: 'Units sold', class: 'num' }, { label: 'Revenue', class: 'num' }], rows, 'No days in this range.'),
        animals,
      );
    },
  };
  return view;
}
