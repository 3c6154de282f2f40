//! Suppliers: the wholesalers the shop buys from. List, add, edit, delete (hidden from roles
//! that cannot write); a supplier that pets or purchase orders still name cannot be deleted,
//! and the refusal says so in plain words.

import * as api from '../api.js';
import { h, field, uid, replace } from '../dom.js';
import { openDialog, confirmAction, formValues } from '../dialog.js';
import { notify } from '../notify.js';
import { table, actionsCell, pageHeader, srOnly } from '../widgets.js';
import { invalidateSuppliers } from '../stockroom.js';

/** @typedef {import('../stockroom.js').Supplier} Supplier */

export const title = 'Suppliers';
export const watches = ['supplier.', 'purchase_order.'];

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  const canEdit = ctx.can('edit');
  const results = h('div', { class: 'results' });
  const addButton = canEdit ? h('button', { type: 'button', class: 'btn btn-primary', id: 'supplier-add', onclick: () => openForm(null) }, '+ Add supplier') : null;
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Suppliers', addButton),
    h('p', { class: 'muted page-intro' }, 'The wholesalers you buy from. Give each pet its supplier (Pets → Edit) so Purchasing can order what is low from each.'),
    results,
  );

  /** @param {Supplier | null} s */
  function openForm(s) {
    /** @param {string} name @param {string} type @param {string} max @param {string | null | undefined} value */
    const input = (name, type, max, value) => h('input', { id: uid(`supplier-${name}`), name, type, autocomplete: 'off', maxlength: max, value: value ?? '' });
    const name = h('input', { id: uid('supplier-name'), name: 'name', type: 'text', required: true, autocomplete: 'off', maxlength: '100', value: s?.name ?? '', autofocus: true });
    const contact = input('contact', 'text', '100', s?.contact);
    const phone = input('phone', 'tel', '40', s?.phone);
    const email = input('email', 'email', '254', s?.email);
    const note = h('textarea', { id: uid('supplier-note'), name: 'note', rows: '3' });
    /** @type {HTMLTextAreaElement} */ (note).value = s?.note ?? '';
    /** @type {import('../messages.js').ErrorContext} */
    const context = { action: 'supplier', name: s?.name };
    openDialog({
      title: s ? `Edit ${s.name}` : 'Add a supplier',
      context,
      body: [
        field('Name', name, 'The wholesaler, as it appears on its invoices.'),
        field('Contact person (optional)', contact),
        field('Phone (optional)', phone),
        field('Email (optional)', email),
        field('Note (optional)', note, 'Delivery days, account number, minimum order…'),
      ],
      submitLabel: s ? 'Save' : 'Add supplier',
      onSubmit: async (form) => {
        const v = formValues(form);
        context.name = v.name || s?.name;
        /** @type {Record<string, string | null>} */
        const body = { name: v.name };
        for (const k of ['contact', 'phone', 'email', 'note']) {
          if (s) body[k] = v[k] || null;
          else if (v[k]) body[k] = v[k];
        }
        if (s) {
          await api.patch(`/store/suppliers/${s.id}`, body);
          notify(`Saved ${v.name}.`, 'ok');
        } else {
          await api.post('/store/suppliers', body);
          notify(`Added ${v.name}.`, 'ok');
        }
        invalidateSuppliers();
        ctx.refresh();
      },
    });
  }

  /** @param {Supplier} s */
  function remove(s) {
    confirmAction({
      title: `Delete ${s.name}?`,
      message: `${s.name} will be removed from your suppliers. A supplier that pets or purchase orders still name cannot be deleted.`,
      confirmLabel: 'Delete',
      cancelLabel: 'Keep it',
      context: { action: 'supplier', name: s.name },
      onConfirm: async () => {
        await api.del(`/store/suppliers/${s.id}`);
        notify(`Deleted ${s.name}.`, 'ok');
        invalidateSuppliers();
        ctx.refresh();
      },
    });
  }

  /** @param {Supplier} s */
  function reach(s) {
    return [s.contact, s.phone, s.email].filter(Boolean).join(' · ');
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    focus: () => (addButton ?? /** @type {HTMLElement | null} */ (el.querySelector('h1')))?.focus(),
    async load() {
      const all = /** @type {Supplier[]} */ (await api.listAll('/store/suppliers', {}, 1000));
      const rows = all.map((s) =>
        h('tr', { 'data-supplier-id': String(s.id) },
          h('th', { scope: 'row', class: 'name' }, s.name),
          h('td', {}, reach(s)),
          h('td', { class: 'muted' }, s.note ?? ''),
          canEdit
            ? actionsCell(
              h('a', { class: 'btn', href: `#/purchasing?supplier=${s.id}` }, 'Orders', srOnly(` from ${s.name}`)),
              h('button', { type: 'button', class: 'btn', 'data-focus-key': `supplier-${s.id}-edit`, onclick: () => openForm(s) }, 'Edit', srOnly(` ${s.name}`)),
              h('button', { type: 'button', class: 'btn btn-danger-quiet', 'data-focus-key': `supplier-${s.id}-del`, onclick: () => remove(s) }, 'Delete', srOnly(` ${s.name}`)),
            )
            : null,
        ),
      );
      replace(results,
        table('Suppliers', canEdit ? ['Name', 'Contact', 'Note', 'Actions'] : ['Name', 'Contact', 'Note'], rows,
          canEdit ? 'No suppliers yet. Add the first one with “+ Add supplier”.' : 'No suppliers yet.'));
    },
  };
  return view;
}
