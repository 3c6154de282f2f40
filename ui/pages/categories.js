//! Categories: list (with search), add, edit, delete.

import * as api from '../api.js';
import { h, field, uid, replace } from '../dom.js';
import { openDialog, confirmAction, formValues } from '../dialog.js';
import { notify } from '../notify.js';
import { table, pager, actionsCell, pageHeader, srOnly } from '../widgets.js';

export const title = 'Categories';
export const watches = ['category.'];

const state = { q: '', offset: 0, limit: 25 };

/** @param {import('../app.js').PageContext} _ctx */
export function mount(_ctx) {
  const search = h('input', { id: 'cat-search', type: 'search', placeholder: 'Name contains…', value: state.q, autocomplete: 'off', 'data-search': true });
  let timer = 0;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      state.q = /** @type {HTMLInputElement} */ (search).value.trim();
      state.offset = 0;
      view.refresh();
    }, 250);
  });
  const results = h('div', { class: 'results' });
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Categories', h('button', { type: 'button', class: 'btn btn-primary', onclick: () => openForm(null) }, '+ Add category')),
    h('div', { class: 'toolbar', role: 'search', 'aria-label': 'Find categories' }, field('Search by name', search)),
    results,
  );

  /** @param {any | null} cat */
  function openForm(cat) {
    const name = h('input', { id: uid('name'), name: 'name', type: 'text', required: true, autocomplete: 'off', value: cat?.name ?? '', autofocus: true });
    const description = h('textarea', { id: uid('desc'), name: 'description', rows: '3' });
    /** @type {HTMLTextAreaElement} */ (description).value = cat?.description ?? '';
    openDialog({
      title: cat ? `Edit ${cat.name}` : 'Add a category',
      body: [field('Name', name, 'A kind of animal, for example Dogs or Rabbits.'), field('Description (optional)', description)],
      submitLabel: cat ? 'Save' : 'Add category',
      onSubmit: async (form) => {
        const v = formValues(form);
        if (cat) {
          await api.patch(`/categories/${cat.id}`, { name: v.name, description: v.description || null });
          notify(`Saved ${v.name}.`, 'ok');
        } else {
          await api.post('/categories', v.description ? { name: v.name, description: v.description } : { name: v.name });
          notify(`Added ${v.name}.`, 'ok');
        }
      },
    });
  }

  /** @param {any} cat */
  function remove(cat) {
    confirmAction({
      title: `Delete ${cat.name}?`,
      message: `The category ${cat.name} will be removed. A category that still has pets cannot be deleted.`,
      confirmLabel: 'Delete',
      onConfirm: async () => {
        await api.del(`/categories/${cat.id}`);
        notify(`Deleted ${cat.name}.`, 'ok');
      },
    });
  }

  const view = {
    el,
    focus: () => search.focus(),
    async refresh() {
      const page = await api.list('/categories', { q: state.q, limit: state.limit, offset: state.offset });
      if (page.items.length === 0 && state.offset > 0 && page.total > 0) {
        state.offset = 0;
        view.refresh(); // runs again once this run ends
        return;
      }
      const rows = page.items.map((c) =>
        h('tr', { 'data-category-id': String(c.id) },
          h('td', { class: 'muted id' }, `#${c.id}`),
          h('th', { scope: 'row', class: 'name' }, c.name),
          h('td', { class: 'muted' }, c.description ?? ''),
          actionsCell(
            h('button', { type: 'button', class: 'btn', 'data-focus-key': `cat-${c.id}-edit`, onclick: () => openForm(c) }, 'Edit', srOnly(` ${c.name}`)),
            h('button', { type: 'button', class: 'btn btn-danger-quiet', 'data-focus-key': `cat-${c.id}-del`, onclick: () => remove(c) }, 'Delete', srOnly(` ${c.name}`)),
          ),
        ),
      );
      replace(results,
        table('Categories', ['ID', 'Name', 'Description', 'Actions'], rows,
          state.q ? 'No categories match.' : 'No categories yet. Add one with “+ Add category”.'),
        pager({ offset: state.offset, limit: state.limit, total: page.total, label: 'categories', onChange: (o) => { state.offset = o; view.refresh(); } }),
      );
    },
  };
  return view;
}
