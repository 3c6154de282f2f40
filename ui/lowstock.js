//! The "Low stock" count in the header, on every page: how many items are at or below their
//! reorder point. It links to the Inventory page's low list and is recounted (at most once a
//! second) when stock changes.

import * as api from './api.js';
import { h } from './dom.js';

export function lowStockBadge() {
  const count = h('span', { class: 'low-count' }, '0');
  const el = /** @type {HTMLAnchorElement} */ (h('a', { href: '#/inventory?low', class: 'low-badge', id: 'low-stock', 'data-low': '0' }, 'Low stock: ', count));
  let timer = 0;
  const load = async () => {
    try {
      const { total } = await api.list('/store/inventory', { low: 'true', limit: 1 });
      count.textContent = String(total);
      el.dataset.low = String(total);
      el.setAttribute('aria-label', `Low stock: ${total} ${total === 1 ? 'item' : 'items'} at or below the reorder point`);
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
