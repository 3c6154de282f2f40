//! The "Today" panel of the Orders page: orders placed, units sold and revenue so far today,
//! from the daily report (the store's own day, in its time zone).

import * as api from './api.js';
import { h, replace } from './dom.js';
import { formatPrice } from './money.js';

export function todayPanel() {
  const body = h('div', { class: 'stats' });
  const el = h('section', { class: 'panel today', 'aria-labelledby': 'today-h', id: 'today' }, h('h2', { id: 'today-h' }, 'Today'), body);
  /** @param {string} label @param {string} value @param {string} id */
  const stat = (label, value, id) => h('div', { class: 'stat' }, h('span', { class: 'stat-label' }, label), h('strong', { id }, value));
  return {
    el,
    async load() {
      // The report's last day is the store's today, whatever this device's clock says.
      const days = await api.get('/store/reports/daily', { from: undefined, to: undefined });
      const d = Array.isArray(days) && days.length ? days[days.length - 1] : null;
      if (!d) return replace(body);
      replace(body,
        stat('Orders', String(d.ordersPlaced), 'today-orders'),
        stat('Units sold', String(d.unitsSold), 'today-units'),
        stat('Revenue so far', formatPrice(d.revenue), 'today-revenue'),
        stat('Completed', String(d.ordersCompleted), 'today-completed'));
    },
  };
}
