//! The "Low stock" count in the header, on every page: how many items are at or below their
//! reorder point. It links to the Inventory page's low list, and (for those who may order)
//! beside it to Purchasing's "Order what is low"; it is recounted (at most once a second)
//! when stock changes.

import * as api from './api.js';
import { h } from './dom.js';

/** @param {boolean} [canOrder]  the signed-in role may make purchase orders */
export function lowStockBadge(canOrder = false) {
  const count = h('span', { class: 'low-count' }, '0');
  const badge = /** @type {HTMLAnchorElement} */ (h('a', { href: '#/inventory?low', class: 'low-badge', id: 'low-stock', 'data-low': '0' }, 'Low stock: ', count));
  const order = canOrder ? h('a', { href: '#/purchasing?low', class: 'top-link low-order', id: 'low-order', hidden: true, title: 'Order what is low' }, 'Order', h('span', { class: 'wide-only' }, '\u00a0what is low')) : null;
  const el = h('span', { class: 'low-wrap' }, badge, order);
  let timer = 0;
  const load = async () => {
    try {
      const { total } = await api.list('/store/inventory', { low: 'true', limit: 1 });
      count.textContent = String(total);
      badge.dataset.low = String(total);
      if (order) order.hidden = total === 0;
      badge.setAttribute('aria-label', `Low stock: ${total} ${total === 1 ? 'item' : 'items'} at or below the reorder point`);
    } catch {
      // The count is a convenience: the pages report their own errors.
    }
  };
  load();
  return {
    el,
    /** Recount soon (a burst of stock changes costs one request). */
    soon() {
      window.clearTimeout(timer);
      timer = window.setTimeout(load, 1000);
    },
  };
}
