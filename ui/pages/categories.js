//! Categories: list (with search), add, edit, delete (hidden from roles that cannot).

import * as api from '../api.js';
import { h, field, uid, replace } from '../dom.js';
import { openDialog, confirmAction, formValues } from '../dialog.js';
import { notify } from '../notify.js';
import { table, pager, actionsCell, pageHeader, srOnly } from '../widgets.js';

export const title = 'Categories';
export const watches = ['category.'];

const state = { q: '', offset: 0, limit: 25 };

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  const canEdit = ctx.can('edit');
  const search = h('input', { id: 'cat-search', type: 'search', placeholder: 'Name contains…', value: state.q, autocomplete: 'off', 'data-search': true });
  let timer = 0;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = window.setTimeout(() => {
      state.q = /** @type {HTMLInputElement} */ (search).value.trim();
      state.offset = 0;
      ctx.refresh();
    }, 250);
  });
  const results = h('div', { class: 'results' });
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Categories', canEdit ? h('button', { type: 'button', class: 'btn btn-primary', onclick: () => openForm(null) }, '+ Add category') : null),
    h('div', { class: 'toolbar', role: 'search', 'aria-label': 'Find categories' }, field('Search by name', search)),
    results,
  );

  /** @param {import('../types.js').Category | null} cat */
  function openForm(cat) {
    const name = h('input', { id: uid('name'), name: 'name', type: 'text', required: true, autocomplete: 'off', value: cat?.name ?? '', autofocus: true });
    const description = h('textarea', { id: uid('desc'), name: 'description', rows: '3' });
    /** @type {HTMLTextAreaElement} */ (description).value = cat?.description ?? '';
    /** @type {import('../messages.js').ErrorContext} */
    const context = { action: 'category', name: cat?.name };
    openDialog({
      title: cat ? `Edit ${cat.name}` : 'Add a category',
      context,
      body: [field('Name', name, 'A kind of animal, for example Dogs or Rabbits.'), field('Description (optional)', description)],
      submitLabel: cat ? 'Save' : 'Add category',
      onSubmit: async (form) => {
        const v = formValues(form);
        context.name = v.name || cat?.name;
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

  /** @param {import('../types.js').Category} cat */
  function remove(cat) {
    confirmAction({
      cancelLabel: 'Keep it',
      context: { action: 'category', name: cat.name },
      title: `Delete ${cat.name}?`,
      message: `The category ${cat.name} will be removed. A category that still has pets cannot be deleted.`,
      confirmLabel: 'Delete',
      onConfirm: async () => {
        await api.del(`/categories/${cat.id}`);
        notify(`Deleted ${cat.name}.`, 'ok');
      },
    });
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    focus: () => search.focus(),
    async load() {
      const page = await api.list('/categories', { q: state.q, limit: state.limit, offset: state.offset });
      if (page.items.length === 0 && state.offset > 0 && page.total > 0) {
        state.offset = 0;
        ctx.refresh(); // runs again once this run ends
        return;
      }
      const rows = page.items.map((/** @type {import('../types.js').Category} */ c) =>
        h('tr', { 'data-category-id': String(c.id) },
          h('td', { class: 'muted id' }, `#${c.id}`),
          h('th', { scope: 'row', class: 'name' }, c.name),
          h('td', { class: 'muted' }, c.description ?? ''),
          canEdit
            ? actionsCell(
              h('button', { type: 'button', class: 'btn', 'data-focus-key': `cat-${c.id}-edit`, onclick: () => openForm(c) }, 'Edit', srOnly(` ${c.name}`)),
              h('button', { type: 'button', class: 'btn btn-danger-quiet', 'data-focus-key': `cat-${c.id}-del`, onclick: () => remove(c) }, 'Delete', srOnly(` ${c.name}`)),
            )
            : null,
        ),
      );
      replace(results,
        table('Categories', canEdit ? ['ID', 'Name', 'Description', 'Actions'] : ['ID', 'Name', 'Description'], rows,
          state.q ? 'No categories match.' : 'No categories yet. Add one with “+ Add category”.'),
        pager({ offset: state.offset, limit: state.limit, total: page.total, label: 'categories', onChange: (o) => { state.offset = o; ctx.refresh(); } }),
      );
    },
  };
  return view;
}
