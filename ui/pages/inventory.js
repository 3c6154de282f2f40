//! Inventory: every pet's stock, searchable by every word of name and category, sortable by
//! stock, name or id, or only the low ones (at or below their reorder point: the one rule of
//! stock.js); reorder points edited in place on the row (type, Enter or leave the box to save,
//! Escape to undo the typing); set a count, adjust with a reason, and a pet's stock history.
//! The whole list is
//! read once per load (a shop has hundreds of pets, not millions) and a stock change redraws
//! from the event itself, with no fetch.

import * as api from '../api.js';
import { h, field, replace } from '../dom.js';
import { notify, notifyError } from '../notify.js';
import { categoryNames } from '../lookups.js';
import { openSetCount, openAdjust, openHistory, isLow, statusCell } from '../stock.js';
import { table, pager, actionsCell, stockFigure, pageHeader, sortHeader, srOnly } from '../widgets.js';
import { matchesWords } from '../format.js';
import { scanBox } from '../scan.js';
import { BOUNDS } from '../facts.js';

/**
 * @typedef {import('../types.js').Pet} Pet
 * @typedef {import('../types.js').InventoryItem} InventoryItem
 * @typedef {import('../types.js').StoreEvent} StoreEvent
 */

export const title = 'Inventory';
export const watches = ['inventory.', 'pet.', 'category.'];

const state = {
  view: /** @type {'all' | 'low'} */ ('all'),
  q: '',
  sort: 'stock',
  offset: 0,
  limit: 25,
};

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  const canStock = ctx.can('stock');
  const canEdit = ctx.can('edit');
  // The header's "Low stock" count links here with #/inventory?low.
  if (/[?&]low\b/.test(location.hash)) state.view = 'low';
  const scan = scanBox({
    id: 'inv-scan',
    label: 'Scan a barcode',
    onFound: (pet) => {
      state.q = pet.name;
      /** @type {HTMLInputElement} */ (search).value = pet.name;
      state.view = 'all';
      state.offset = 0;
      syncTabs();
      draw();
      /** @type {HTMLElement | null} */ (results.querySelector(`tr[data-pet-id="${pet.id}"] button`))?.focus();
    },
    onMissing: (code, kind) => notify(`No pet has the ${kind === 'barcode' ? 'barcode' : 'SKU'} ${code}. Add it on the Pets page.`, 'error'),
  });
  const results = h('div', { class: 'results' });
  /** @type {Map<number, InventoryItem>} */
  let items = new Map();
  /** @type {Map<number, Pet>} */
  let pets = new Map();
  /** @type {Map<number, string>} */
  let categories = new Map();

  /** @param {'all' | 'low'} v @param {string} label */
  const tab = (v, label) =>
    h('button', {
      type: 'button', class: 'tab', id: `inv-tab-${v}`, 'aria-pressed': String(state.view === v),
      onclick: () => { state.view = v; state.offset = 0; syncTabs(); draw(); },
    }, label);
  const tabs = h('div', { class: 'tabs', role: 'group', 'aria-label': 'Which stock to show' }, tab('all', 'All stock'), tab('low', 'Low stock'));
  function syncTabs() {
    for (const t of tabs.querySelectorAll('.tab')) t.setAttribute('aria-pressed', String(t.id === `inv-tab-${state.view}`));
  }
  const search = h('input', {
    id: 'inv-search', type: 'search', placeholder: 'e.g. neon tetra', value: state.q,
    autocomplete: 'off', 'data-search': true, enterkeyhint: 'search',
  });
  search.addEventListener('input', () => {
    state.q = /** @type {HTMLInputElement} */ (search).value.trim();
    state.offset = 0;
    draw();
  });

  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Inventory'),
    h('div', { class: 'toolbar', role: 'search', 'aria-label': 'Find stock' }, scan.el, field('Search name or category', search), tabs),
    results,
  );

  /** The rows to show now, filtered and sorted, before paging. */
  function visible() {
    const rows = [...items.values()].map((it) => ({ it, pet: pets.get(it.petId) }));
    const words = state.q;
    const kept = rows.filter(({ it, pet }) =>
      (state.view === 'all' || isLow(it)) &&
      (!words || matchesWords(words, [pet?.name ?? '', pet?.sku ?? '', pet?.barcode ?? ''], [categories.get(pet?.categoryId ?? 0) ?? ''])));
    const key = state.sort.replace(/^-/, '');
    const dir = state.sort.startsWith('-') ? -1 : 1;
    const byName = (/** @type {typeof rows[number]} */ r) => (r.pet?.name ?? '').toLocaleLowerCase();
    kept.sort((a, b) => {
      const c = key === 'stock' ? a.it.quantity - b.it.quantity
        : key === 'name' ? byName(a).localeCompare(byName(b))
          : a.it.petId - b.it.petId;
      return dir * c || a.it.petId - b.it.petId;
    });
    return kept;
  }

  function syncLowCount() {
    const lowCount = [...items.values()].filter(isLow).length;
    /** @type {HTMLElement} */ (tabs.querySelector('#inv-tab-low')).textContent = lowCount ? `Low stock (${lowCount})` : 'Low stock';
  }

  function draw() {
    syncLowCount();
    const all = visible();
    if (state.offset >= all.length) state.offset = Math.max(0, Math.floor((all.length - 1) / state.limit) * state.limit);
    const pageRows = all.slice(state.offset, state.offset + state.limit);
    const onSort = (/** @type {string} */ s) => { state.sort = s; state.offset = 0; draw(); };
    const rows = pageRows.map(({ it, pet: known }) => {
      const pet = known ?? { id: it.petId, name: `Pet #${it.petId}`, categoryId: 0 };
      const k = `inv-${it.petId}`;
      return h('tr', { 'data-pet-id': String(it.petId) },
        h('td', { class: 'muted id wide-only' }, `#${it.petId}`),
        h('th', { scope: 'row', class: 'name' }, pet.name),
        h('td', {}, categories.get(pet.categoryId) ?? '—'),
        h('td', { 'data-cell': 'status' }, statusCell(pet, it.quantity, canEdit)),
        h('td', { class: 'num', 'data-cell': 'stock' }, stockFigure(it.quantity, isLow(it))),
        h('td', { class: 'num', 'data-cell': 'rp' }, canStock
          ? reorderBox(pet, it)
          : h('span', { class: 'muted' }, typeof it.reorderPoint === 'number' ? String(it.reorderPoint) : '—')),
        actionsCell(
          canStock ? h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-adj`, onclick: () => openAdjust(pet, items.get(it.petId)?.quantity) }, 'Adjust', srOnly(` ${pet.name}`)) : null,
          canStock ? h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-set`, onclick: () => openSetCount(pet, items.get(it.petId)?.quantity) }, 'Set count', srOnly(` of ${pet.name}`)) : null,
          h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-hist`, onclick: () => openHistory(pet) }, 'History', srOnly(` of ${pet.name}`)),
        ),
      );
    });
    const empty = state.q ? 'No stock matches this search.'
      : state.view === 'low' ? 'Nothing is at or below its reorder point. All stocked up.' : 'No pets yet.';
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focusKey = active && results.contains(active) ? active.dataset.focusKey : undefined;
    replace(results,
      table(state.view === 'low' ? 'Pets at or below their reorder point' : 'Stock of every pet',
        [
          sortHeader('ID', 'id', state.sort, onSort, 'wide-only'),
          sortHeader('Pet', 'name', state.sort, onSort),
          'Category', 'Status',
          sortHeader('In stock', 'stock', state.sort, onSort, 'num'),
          { label: 'Reorder at', class: 'num' },
          'Actions',
        ], rows, empty),
      pager({ offset: state.offset, limit: state.limit, total: all.length, label: 'stock items', onChange: (o) => { state.offset = o; draw(); } }),
    );
    if (focusKey) /** @type {HTMLElement | null} */ (results.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`))?.focus();
  }

  /**
   * The reorder point, edited in place: at or below it the item is low, on every page. The
   * box saves when the clerk presses Enter or leaves it with a changed value; empty means no
   * reorder point (a single animal); Escape puts back the saved value.
   * @param {Pet} pet @param {InventoryItem} it
   */
  function reorderBox(pet, it) {
    const saved = () => {
      const now = items.get(pet.id) ?? it;
      return typeof now.reorderPoint === 'number' ? String(now.reorderPoint) : '';
    };
    const input = /** @type {HTMLInputElement} */ (h('input', {
      type: 'number', class: 'rp-input', inputmode: 'numeric', min: String(BOUNDS.reorderPoint.min), max: String(BOUNDS.reorderPoint.max), step: '1',
      value: saved(), placeholder: '—', autocomplete: 'off', enterkeyhint: 'done',
      'aria-label': `Reorder point of ${pet.name}`, 'data-focus-key': `inv-${pet.id}-rp`,
      title: 'Low when stock is at or below this. Empty: never low (a single animal).',
    }));
    let busy = false;
    const save = async () => {
      const typed = input.value.trim();
      if (busy || typed === saved()) return;
      const value = typed === '' ? null : Number(typed);
      if (value !== null && (!Number.isInteger(value) || value < 0 || value > 1_000_000)) {
        input.setAttribute('aria-invalid', 'true');
        notify(`A reorder point for ${pet.name} is a whole number from 0 to 1,000,000, or empty.`, 'error', { group: `rp-${pet.id}` });
        return;
      }
      busy = true;
      input.setAttribute('aria-busy', 'true');
      try {
        const item = /** @type {InventoryItem} */ (await api.patch(`/store/inventory/${pet.id}`, { reorderPoint: value }));
        // The answer is the whole item: a cleared reorder point is absent from it.
        items.set(pet.id, { ...item, petId: pet.id });
        input.removeAttribute('aria-invalid');
        input.value = saved();
        syncLowCount();
        const tr = input.closest('tr');
        const now = items.get(pet.id);
        if (tr && now) replace(/** @type {HTMLElement} */ (tr.querySelector('[data-cell="stock"]')), stockFigure(now.quantity, isLow(now)));
        notify(value === null ? `${pet.name} has no reorder point now.` : `${pet.name} is low at ${value} or fewer.`, 'ok', { group: `rp-${pet.id}` });
      } catch (err) {
        input.setAttribute('aria-invalid', 'true');
        notifyError(err, { name: pet.name });
      } finally {
        busy = false;
        input.removeAttribute('aria-busy');
      }
    };
    input.addEventListener('keydown', (e) => {
      if (e.key === 'Enter') {
        e.preventDefault();
        void save();
      } else if (e.key === 'Escape') {
        e.preventDefault();
        input.value = saved();
        input.removeAttribute('aria-invalid');
      }
    });
    input.addEventListener('change', () => void save());
    // The box starts selected, so typing replaces the old figure (never 5 then 25 = 525),
    // whether it was reached by a tap or by Tab.
    let justFocused = false;
    input.addEventListener('focus', () => { input.select(); justFocused = true; });
    input.addEventListener('mouseup', (e) => { if (justFocused) e.preventDefault(); justFocused = false; });
    input.addEventListener('blur', () => { justFocused = false; });
    return input;
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    focus: () => search.focus(),
    affects(/** @type {StoreEvent} */ ev) {
      if (ev.type.startsWith('inventory.') && ev.data && typeof ev.data.petId === 'number' && items.has(ev.data.petId)) {
        // Only the row's figures change: rows do not re-sort or move under the pointer while
        // a till sells; the next load (or a click on a header) puts them in order again.
        // The event holds the item as it now is (a cleared reorder point is absent).
        const it = /** @type {InventoryItem} */ ({ ...ev.data });
        items.set(it.petId, it);
        syncLowCount();
        const tr = results.querySelector(`tr[data-pet-id="${it.petId}"]`);
        if (tr) {
          const pet = pets.get(it.petId) ?? { id: it.petId, name: `Pet #${it.petId}`, categoryId: 0 };
          replace(/** @type {HTMLElement} */ (tr.querySelector('[data-cell="status"]')), statusCell(pet, it.quantity, canEdit));
          replace(/** @type {HTMLElement} */ (tr.querySelector('[data-cell="stock"]')), stockFigure(it.quantity, isLow(it)));
          // The box follows the stored value, unless the clerk is typing in it.
          const rp = /** @type {HTMLInputElement | null} */ (tr.querySelector('input.rp-input'));
          if (rp && rp !== document.activeElement) rp.value = typeof it.reorderPoint === 'number' ? String(it.reorderPoint) : '';
        }
        return false;
      }
      return true;
    },
    async load() {
      const [inv, allPets, cats] = await Promise.all([
        api.listAll('/store/inventory'),
        api.listAll('/pets', { sort: 'id' }),
        categoryNames(),
      ]);
      items = new Map(inv.map((/** @type {InventoryItem} */ it) => [it.petId, it]));
      pets = new Map(allPets.map((/** @type {Pet} */ p) => [p.id, p]));
      categories = cats;
      draw();
    },
  };
  return view;
}
