//! Stock actions shared by the Pets and Inventory pages: quick ±1, set the count, adjust with a
//! reason, and the stock history of one pet.

import * as api from './api.js';
import { h, field, uid } from './dom.js';
import { openDialog, formValues } from './dialog.js';
import { localTime, signed } from './format.js';
import { notify, notifyError } from './notify.js';
import { table, pager } from './widgets.js';

/**
 * @typedef {{ id: number, name: string, categoryId: number, status?: string }} Pet
 */

/**
 * Add `delta` units at once (the quick +1 / −1 buttons).
 * @param {Pet} pet
 * @param {number} delta
 */
export async function quickAdjust(pet, delta) {
  try {
    const item = await api.post(
      `/store/inventory/${pet.id}/adjustments`,
      { delta },
      { 'Idempotency-Key': api.idempotencyKey() },
    );
    notify(`${pet.name}: ${signed(delta)}, now ${item?.quantity ?? '?'} in stock.`, 'ok');
  } catch (err) {
    notifyError(err);
  }
}

/**
 * Optional reason: sent only when typed.
 * @param {string | undefined} reason
 */
const withReason = (reason) => (reason ? { reason } : {});

/**
 * "Set count": the counted quantity and why.
 * @param {Pet} pet
 * @param {number | undefined} current
 */
export function openSetCount(pet, current) {
  const qty = h('input', {
    id: uid('qty'), name: 'quantity', type: 'number', inputmode: 'numeric', step: '1', required: true,
    value: current ?? '', autofocus: true, autocomplete: 'off',
  });
  const reason = h('input', { id: uid('reason'), name: 'reason', type: 'text', autocomplete: 'off', placeholder: 'Stock take' });
  openDialog({
    title: `Set stock count — ${pet.name}`,
    size: 'narrow',
    body: [
      h('p', { class: 'muted' }, `Now ${current ?? 'unknown'} in stock.`),
      field('Counted quantity', qty),
      field('Reason (optional)', reason, 'Shown in the stock history.'),
    ],
    submitLabel: 'Set count',
    onSubmit: async (form) => {
      const v = formValues(form);
      const item = await api.put(`/store/inventory/${pet.id}`, { quantity: Number(v.quantity), ...withReason(v.reason) });
      notify(`${pet.name}: stock set to ${item?.quantity ?? v.quantity}.`, 'ok');
    },
  });
}

/**
 * "Adjust": add or remove units with a reason (a delivery, a breakage).
 * @param {Pet} pet
 * @param {number | undefined} current
 */
export function openAdjust(pet, current) {
  const delta = h('input', {
    id: uid('delta'), name: 'delta', type: 'number', inputmode: 'numeric', step: '1', required: true,
    autofocus: true, autocomplete: 'off', placeholder: 'e.g. 5 or -2',
  });
  const reason = h('input', { id: uid('reason'), name: 'reason', type: 'text', required: true, autocomplete: 'off', placeholder: 'Delivery from supplier' });
  // A resend of the same change after a lost answer (network error) reuses its key, so it
  // counts once; after a definite answer from the server, the next try is a new request.
  let pending = '';
  let key = '';
  openDialog({
    title: `Adjust stock — ${pet.name}`,
    size: 'narrow',
    body: [
      h('p', { class: 'muted' }, `Now ${current ?? 'unknown'} in stock.`),
      field('Change (+ to add, − to remove)', delta),
      field('Reason', reason, 'Shown in the stock history.'),
    ],
    submitLabel: 'Adjust',
    onSubmit: async (form) => {
      const v = formValues(form);
      const body = { delta: Number(v.delta), ...withReason(v.reason) };
      const text = JSON.stringify(body);
      if (text !== pending) key = api.idempotencyKey();
      pending = text;
      /** @type {any} */
      let item;
      try {
        item = await api.post(`/store/inventory/${pet.id}/adjustments`, body, { 'Idempotency-Key': key });
      } catch (err) {
        if (!(err instanceof api.ApiError) || err.status !== 0) pending = '';
        throw err;
      }
      notify(`${pet.name}: ${signed(body.delta)}, now ${item?.quantity ?? '?'} in stock.`, 'ok');
    },
  });
}

const SOURCE = /** @type {Record<string, string>} */ ({
  order: 'Order',
  cancel: 'Order cancelled',
  set: 'Count set',
  adjustment: 'Adjustment',
});

/**
 * The stock history of one pet, newest first, paged.
 * @param {Pet} pet
 */
export function openHistory(pet) {
  const holder = h('div', { class: 'history' }, h('p', { class: 'muted' }, 'Loading…'));
  const limit = 20;
  /** @param {number} offset */
  const load = async (offset) => {
    try {
      const { items, total } = await api.list(`/store/inventory/${pet.id}/adjustments`, { limit, offset });
      const rows = items.map((c) =>
        h('tr', {},
          h('td', { class: 'when' }, localTime(c.at)),
          h('td', { class: c.delta < 0 ? 'num neg' : 'num pos' }, signed(c.delta)),
          h('td', { class: 'num' }, String(c.quantityAfter)),
          h('td', {}, SOURCE[c.source] ?? c.source, c.orderId ? ` #${c.orderId}` : ''),
          h('td', { class: 'reason' }, c.reason ?? '—'),
          h('td', {}, c.keyName ?? '—'),
        ),
      );
      holder.replaceChildren(
        table(`Stock history of ${pet.name}`, ['When', { label: 'Change', class: 'num' }, { label: 'After', class: 'num' }, 'What', 'Reason', 'By'], rows, 'No stock changes yet.'),
        pager({ offset, limit, total, label: 'changes', onChange: load }),
      );
    } catch (err) {
      holder.replaceChildren(h('p', { class: 'form-error', role: 'alert' }, err instanceof Error ? err.message : String(err)));
    }
  };
  openDialog({ title: `Stock history — ${pet.name}`, size: 'wide', body: [holder] });
  load(0);
}
