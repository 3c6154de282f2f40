//! Inventory: every pet's stock, or only the low ones (below N, remembered on this device);
//! set a count, adjust with a reason, and a pet's stock history.

import * as api from '../api.js';
import { h, field, replace } from '../dom.js';
import { petsById } from '../lookups.js';
import { openSetCount, openAdjust, openHistory } from '../stock.js';
import { table, pager, actionsCell, statusBadge, stockFigure, pageHeader, srOnly } from '../widgets.js';

export const title = 'Inventory';
export const watches = ['inventory.', 'pet.', 'order.'];

const BELOW_KEY = 'petstore.lowStockBelow';

const state = {
  view: /** @type {'all' | 'low'} */ ('all'),
  below: Number(localStorage.getItem(BELOW_KEY) ?? 5) || 5,
  offset: 0,
  limit: 25,
};

/** @param {import('../app.js').PageContext} _ctx */
export function mount(_ctx) {
  const results = h('div', { class: 'results' });

  /** @param {'all' | 'low'} v @param {string} label */
  const tab = (v, label) =>
    h('button', {
      type: 'button', role: 'tab', class: 'tab', id: `inv-tab-${v}`, 'aria-selected': String(state.view === v),
      onclick: () => { state.view = v; state.offset = 0; syncTabs(); view.refresh(); },
    }, label);
  const tabs = h('div', { class: 'tabs', role: 'tablist', 'aria-label': 'Which stock to show' }, tab('all', 'All stock'), tab('low', 'Low stock'));
  const below = h('input', { id: 'inv-below', type: 'number', min: '1', step: '1', inputmode: 'numeric', value: String(state.below), class: 'short' });
  below.addEventListener('change', () => {
    const n = Math.floor(Number(/** @type {HTMLInputElement} */ (below).value));
    if (!Number.isFinite(n) || n < 1) return;
    state.below = n;
    localStorage.setItem(BELOW_KEY, String(n));
    state.view = 'low';
    state.offset = 0;
    syncTabs();
    view.refresh();
  });
  function syncTabs() {
    for (const t of tabs.querySelectorAll('[role=tab]')) t.setAttribute('aria-selected', String(t.id === `inv-tab-${state.view}`));
  }

  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Inventory'),
    h('div', { class: 'toolbar' }, tabs, field('Low means fewer than', below)),
    results,
  );

  const view = {
    el,
    focus: () => /** @type {HTMLElement} */ (tabs.querySelector('[aria-selected=true]'))?.focus(),
    async refresh() {
      const page = await api.list('/store/inventory', {
        below: state.view === 'low' ? state.below : null, limit: state.limit, offset: state.offset,
      });
      if (page.items.length === 0 && state.offset > 0 && page.total > 0) {
        state.offset = 0;
        view.refresh(); // runs again once this run ends
        return;
      }
      const pets = await petsById(page.items.map((i) => i.petId));
      const rows = page.items.map((it) => {
        const pet = pets.get(it.petId) ?? { id: it.petId, name: `Pet #${it.petId}`, categoryId: 0 };
        const k = `inv-${it.petId}`;
        return h('tr', { 'data-pet-id': String(it.petId) },
          h('td', { class: 'muted id' }, `#${it.petId}`),
          h('th', { scope: 'row', class: 'name' }, pet.name),
          h('td', {}, statusBadge(it.status)),
          h('td', { class: 'num' }, stockFigure(it.quantity, state.below)),
          actionsCell(
            h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-set`, onclick: () => openSetCount(pet, it.quantity) }, 'Set count', srOnly(` of ${pet.name}`)),
            h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-adj`, onclick: () => openAdjust(pet, it.quantity) }, 'Adjust', srOnly(` ${pet.name}`)),
            h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-hist`, onclick: () => openHistory(pet) }, 'History', srOnly(` of ${pet.name}`)),
          ),
        );
      });
      replace(results,
        table(state.view === 'low' ? `Pets with fewer than ${state.below} in stock` : 'Stock of every pet',
          ['ID', 'Pet', 'Status', { label: 'In stock', class: 'num' }, 'Actions'], rows,
          state.view === 'low' ? `Nothing is below ${state.below}. All stocked up.` : 'No pets yet.'),
        pager({ offset: state.offset, limit: state.limit, total: page.total, label: 'stock items', onChange: (o) => { state.offset = o; view.refresh(); } }),
      );
    },
  };
  return view;
}
