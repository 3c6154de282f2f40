//! Pets: search by name, filter by category and status, sort, page; add, edit, delete; the
//! stock of each row with quick ±1 and "Set count".

import * as api from '../api.js';
import { h, field, uid, select, replace } from '../dom.js';
import { openDialog, confirmAction, formValues } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { categoryNames, stockFor } from '../lookups.js';
import { quickAdjust, openSetCount } from '../stock.js';
import { table, pager, actionsCell, statusBadge, stockFigure, pageHeader, sortHeader, srOnly } from '../widgets.js';

export const title = 'Pets';
/** Event types (prefixes) that change what this page shows. */
export const watches = ['pet.', 'category.', 'inventory.', 'order.'];

/** Filters survive a trip to another page. */
const state = { q: '', categoryId: '', status: '', sort: 'name', offset: 0, limit: 25 };

const STATUS_OPTIONS = /** @type {Array<[string, string]>} */ ([
  ['', 'No status'], ['available', 'Available'], ['pending', 'Pending'], ['sold', 'Sold'],
]);

/** @param {import('../app.js').PageContext} _ctx */
export function mount(_ctx) {
  /** @type {Map<number, string>} */
  let categories = new Map();

  const search = h('input', {
    id: 'pet-search', type: 'search', placeholder: 'Name contains…', value: state.q,
    autocomplete: 'off', 'data-search': true, enterkeyhint: 'search',
  });
  let searchTimer = 0;
  search.addEventListener('input', () => {
    clearTimeout(searchTimer);
    searchTimer = window.setTimeout(() => {
      state.q = /** @type {HTMLInputElement} */ (search).value.trim();
      state.offset = 0;
      view.refresh();
    }, 250);
  });

  const catFilter = select({ id: 'pet-cat-filter' }, [['', 'All categories']], state.categoryId);
  catFilter.addEventListener('change', () => {
    state.categoryId = /** @type {HTMLSelectElement} */ (catFilter).value;
    state.offset = 0;
    view.refresh();
  });
  const statusFilter = select(
    { id: 'pet-status-filter' },
    [['', 'Any status'], ['available', 'Available'], ['pending', 'Pending'], ['sold', 'Sold']],
    state.status,
  );
  statusFilter.addEventListener('change', () => {
    state.status = /** @type {HTMLSelectElement} */ (statusFilter).value;
    state.offset = 0;
    view.refresh();
  });

  const results = h('div', { class: 'results', 'aria-live': 'off' });
  const el = h(
    'section',
    { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Pets', h('button', { type: 'button', class: 'btn btn-primary', onclick: () => openPetForm(null) }, '+ Add pet')),
    h('div', { class: 'toolbar', role: 'search', 'aria-label': 'Find pets' },
      field('Search by name', search),
      field('Category', catFilter),
      field('Status', statusFilter),
    ),
    results,
  );

  /** @param {any | null} pet  null: a new pet */
  async function openPetForm(pet) {
    if (categories.size === 0) {
      // Clicked before the page's first load finished: fetch the categories now.
      try {
        categories = await categoryNames();
      } catch (err) {
        notifyError(err);
        return;
      }
    }
    if (categories.size === 0) {
      notify('Add a category first (Categories page): every pet belongs to one.', 'error');
      return;
    }
    const name = h('input', { id: uid('name'), name: 'name', type: 'text', required: true, autocomplete: 'off', value: pet?.name ?? '', autofocus: true });
    const cat = select(
      { id: uid('cat'), name: 'categoryId', required: true },
      [...categories].map(([id, n]) => [String(id), n]),
      String(pet?.categoryId ?? [...categories.keys()][0]),
    );
    const status = select({ id: uid('status'), name: 'status' }, STATUS_OPTIONS, pet ? (pet.status ?? '') : 'available');
    openDialog({
      title: pet ? `Edit ${pet.name}` : 'Add a pet',
      body: [field('Name', name), field('Category', cat), field('Status', status)],
      submitLabel: pet ? 'Save' : 'Add pet',
      onSubmit: async (form) => {
        const v = formValues(form);
        const body = { name: v.name, categoryId: Number(v.categoryId) };
        if (pet) {
          await api.patch(`/pets/${pet.id}`, { ...body, status: v.status || null });
          notify(`Saved ${v.name}.`, 'ok');
        } else {
          const created = await api.post('/pets', v.status ? { ...body, status: v.status } : body);
          notify(`Added ${created?.name ?? v.name}. Its stock starts at 0.`, 'ok');
        }
      },
    });
  }

  /** @param {any} pet */
  function deletePet(pet) {
    confirmAction({
      title: `Delete ${pet.name}?`,
      message: `${pet.name} and its stock record will be removed. This cannot be undone.`,
      confirmLabel: 'Delete',
      onConfirm: async () => {
        await api.del(`/pets/${pet.id}`);
        notify(`Deleted ${pet.name}.`, 'ok');
      },
    });
  }

  /** @param {any} pet @param {number | undefined} qty */
  function row(pet, qty) {
    const n = pet.name;
    const k = `pet-${pet.id}`;
    return h('tr', { 'data-pet-id': String(pet.id) },
      h('td', { class: 'muted id' }, `#${pet.id}`),
      h('th', { scope: 'row', class: 'name' }, n),
      h('td', {}, categories.get(pet.categoryId) ?? `#${pet.categoryId}`),
      h('td', {}, statusBadge(pet.status)),
      h('td', { class: 'num' }, stockFigure(qty)),
      actionsCell(
        h('div', { class: 'stepper', role: 'group', 'aria-label': `Stock of ${n}` },
          h('button', { type: 'button', class: 'btn btn-step', 'aria-label': `Remove one from ${n}'s stock`, 'data-focus-key': `${k}-minus`, disabled: qty === 0, onclick: () => quickAdjust(pet, -1) }, '−1'),
          h('button', { type: 'button', class: 'btn btn-step', 'aria-label': `Add one to ${n}'s stock`, 'data-focus-key': `${k}-plus`, onclick: () => quickAdjust(pet, 1) }, '+1'),
        ),
        h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-set`, onclick: () => openSetCount(pet, qty) }, 'Set count', srOnly(` of ${n}`)),
        h('button', { type: 'button', class: 'btn', 'data-focus-key': `${k}-edit`, onclick: () => openPetForm(pet) }, 'Edit', srOnly(` ${n}`)),
        h('button', { type: 'button', class: 'btn btn-danger-quiet', 'data-focus-key': `${k}-del`, onclick: () => deletePet(pet) }, 'Delete', srOnly(` ${n}`)),
      ),
    );
  }

  const view = {
    el,
    focus: () => search.focus(),
    async refresh() {
      const [cats, page] = await Promise.all([
        categoryNames(),
        api.list('/pets', {
          q: state.q, categoryId: state.categoryId, status: state.status, sort: state.sort,
          limit: state.limit, offset: state.offset,
        }),
      ]);
      categories = cats;
      syncCategoryFilter();
      if (page.items.length === 0 && state.offset > 0 && page.total > 0) {
        state.offset = Math.max(0, Math.floor((page.total - 1) / state.limit) * state.limit);
        view.refresh(); // runs again once this run ends
        return;
      }
      const stock = await stockFor(page.items.map((p) => p.id));
      const onSort = (/** @type {string} */ s) => { state.sort = s; state.offset = 0; view.refresh(); };
      replace(results,
        table('Pets', [
          sortHeader('ID', 'id', state.sort, onSort),
          sortHeader('Name', 'name', state.sort, onSort),
          'Category', 'Status', { label: 'In stock', class: 'num' }, 'Actions',
        ], page.items.map((p) => row(p, stock.get(p.id))),
        state.q || state.categoryId || state.status ? 'No pets match these filters.' : 'No pets yet. Add the first one with “+ Add pet”.'),
        pager({ offset: state.offset, limit: state.limit, total: page.total, label: 'pets', onChange: (o) => { state.offset = o; view.refresh(); } }),
      );
    },
  };

  function syncCategoryFilter() {
    const sel = /** @type {HTMLSelectElement} */ (catFilter);
    const want = ['', ...[...categories.keys()].map(String)].join(',');
    const have = [...sel.options].map((o) => o.value).join(',');
    if (want === have) return;
    const current = sel.value;
    sel.replaceChildren(
      h('option', { value: '' }, 'All categories'),
      ...[...categories].map(([id, n]) => h('option', { value: String(id), selected: String(id) === current }, n)),
    );
  }

  return view;
}
