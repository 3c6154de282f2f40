//! Stock actions shared by the Pets and Inventory pages: quick ±1, set the count (with a second
//! look at an unlikely number), adjust with a reason, make a restocked pet available again,
//! and the stock history of one pet. Also the one low-stock rule every page uses.

import * as api from './api.js';
import { h, field, uid } from './dom.js';
import { openDialog, formValues } from './dialog.js';
import { localTime, signed, statusLabel } from './format.js';
import { notify, notifyError } from './notify.js';
import { explain } from './messages.js';
import { isLow, mismatch, unlikelyCount } from './rules.js';

export { isLow, mismatch, unlikelyCount };
import { table, pager, statusBadge } from './widgets.js';

/**
 * @typedef {import('./types.js').Pet} Pet
 * @typedef {import('./types.js').InventoryItem} InventoryItem
 * @typedef {import('./types.js').StockChange} StockChange
 */

/**
 * Set a pet's status to available (the "make available?" action).
 * @param {Pet} pet
 */
export async function makeAvailable(pet) {
  try {
    await api.patch(`/pets/${pet.id}`, { status: 'available' });
    notify(`${pet.name} is available again and can be sold.`, 'ok', { group: `status-${pet.id}` });
  } catch (err) {
    notifyError(err, { action: 'pet', name: pet.name, change: `${pet.name} made available` });
  }
}

/**
 * Add `delta` units at once (the quick +1 / −1 buttons). One message per pet, replaced by the
 * next click, not one per click.
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
    notify(`${pet.name}: ${signed(delta)}, now ${item?.quantity ?? '?'} in stock.`, 'ok', { group: `stock-${pet.id}` });
  } catch (err) {
    notifyError(err, { action: 'adjust', name: pet.name, change: `${signed(delta)} on ${pet.name}` });
  }
}

/**
 * Optional reason: sent only when typed.
 * @param {string | undefined} reason
 */
const withReason = (reason) => (reason ? { reason } : {});

/**
 * A checkbox offered when stock is added to a pet that is sold or pending: make it available
 * again in the same step, since a stock change never changes the status by itself.
 * @param {Pet} pet
 */
function availableAgainBox(pet) {
  if (pet.status !== 'sold' && pet.status !== 'pending') return null;
  const id = uid('avail');
  const box = h('input', { id, name: 'makeAvailable', type: 'checkbox', checked: true, value: 'yes' });
  return h('label', { class: 'check', for: id }, box, ` Make ${pet.name} available again (now ${statusLabel(pet.status)})`);
}

/** @param {Pet} pet @param {Record<string, string>} v @param {number} qtyAfter */
async function afterRestock(pet, v, qtyAfter) {
  if (v.makeAvailable === 'yes' && qtyAfter > 0) await api.patch(`/pets/${pet.id}`, { status: 'available' });
}

/**
 * "Set count": the counted quantity and why. The box starts with the current count selected,
 * so typing replaces it; a count far from the old one is asked about once before saving.
 * @param {Pet} pet
 * @param {number | undefined} current
 */
export function openSetCount(pet, current) {
  const qty = /** @type {HTMLInputElement} */ (h('input', {
    id: uid('qty'), name: 'quantity', type: 'number', inputmode: 'numeric', step: '1', required: true,
    value: current ?? '', autofocus: true, autocomplete: 'off',
  }));
  const reason = h('input', { id: uid('reason'), name: 'reason', type: 'text', autocomplete: 'off', placeholder: 'Stock take' });
  const warning = h('p', { class: 'warning', role: 'alert', hidden: true });
  let confirmed = '';
  qty.addEventListener('input', () => { warning.hidden = true; });
  openDialog({
    title: `Set stock count — ${pet.name}`,
    size: 'narrow',
    context: { action: 'set', name: pet.name },
    body: [
      h('p', { class: 'muted' }, `Now ${current ?? 'unknown'} in stock. Type the number you counted.`),
      field('Counted quantity', qty),
      warning,
      field('Reason (optional)', reason, 'Shown in the stock history.'),
      availableAgainBox(pet),
    ],
    submitLabel: 'Set count',
    onSubmit: async (form) => {
      const v = formValues(form);
      const n = Number(v.quantity);
      if (Number.isInteger(n) && unlikelyCount(current, n) && confirmed !== v.quantity) {
        confirmed = v.quantity;
        warning.textContent = `${n.toLocaleString('en-US')} is far from the ${current ?? 0} in stock now. Check the number, then press Set count again to save it.`;
        warning.hidden = false;
        qty.focus();
        qty.select();
        throw new Confirmation();
      }
      const item = await api.put(`/store/inventory/${pet.id}`, { quantity: n, ...withReason(v.reason) });
      await afterRestock(pet, v, item?.quantity ?? n);
      notify(`${pet.name}: stock set to ${item?.quantity ?? v.quantity}.`, 'ok', { group: `stock-${pet.id}` });
    },
  });
  qty.select();
}

/** Thrown to keep a dialog open for a second look, with no error shown. */
export class Confirmation extends Error {
  constructor() {
    super('');
    this.name = 'Confirmation';
  }
}

/** Reasons a clerk picks with one click. */
export const QUICK_REASONS = ['Delivery', 'Return', 'Damaged', 'Found', 'Correction'];

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
  const reason = /** @type {HTMLInputElement} */ (h('input', { id: uid('reason'), name: 'reason', type: 'text', required: true, autocomplete: 'off', placeholder: 'Delivery from supplier' }));
  const quick = h('div', { class: 'quick-reasons', role: 'group', 'aria-label': 'Common reasons' },
    QUICK_REASONS.map((r) => h('button', {
      type: 'button', class: 'btn btn-chip',
      // Picked: the next Enter saves (the reason is filled and the keyboard is on Adjust).
      onclick: (/** @type {Event} */ e) => {
        reason.value = r;
        reason.removeAttribute('aria-invalid');
        /** @type {HTMLElement | null} */ (/** @type {HTMLElement} */ (e.currentTarget).closest('form')?.querySelector('button[type=submit]') ?? null)?.focus();
      },
    }, r)));
  // A resend of the same change after a lost answer (network error) reuses its key, so it
  // counts once; after a definite answer from the server, the next try is a new request.
  let pending = '';
  let key = '';
  openDialog({
    title: `Adjust stock — ${pet.name}`,
    size: 'narrow',
    context: { action: 'adjust', name: pet.name },
    body: [
      h('p', { class: 'muted' }, `Now ${current ?? 'unknown'} in stock.`),
      field('Change (+ to add, − to remove)', delta),
      field('Reason', reason, 'Shown in the stock history.'),
      quick,
      availableAgainBox(pet),
    ],
    submitLabel: 'Adjust',
    onSubmit: async (form) => {
      const v = formValues(form);
      const body = { delta: Number(v.delta), ...withReason(v.reason) };
      const text = JSON.stringify(body);
      if (text !== pending) key = api.idempotencyKey();
      pending = text;
      /** @type {InventoryItem} */
      let item;
      try {
        item = await api.post(`/store/inventory/${pet.id}/adjustments`, body, { 'Idempotency-Key': key });
      } catch (err) {
        if (!(err instanceof api.ApiError) || err.status !== 0) pending = '';
        throw err;
      }
      await afterRestock(pet, v, item?.quantity ?? 0);
      notify(`${pet.name}: ${signed(body.delta)}, now ${item?.quantity ?? '?'} in stock.`, 'ok', { group: `stock-${pet.id}` });
    },
  });
}

const SOURCE = /** @type {Record<string, string>} */ ({
  order: 'Order',
  cancel: 'Order cancelled',
  set: 'Count set',
  adjustment: 'Adjustment',
  count: 'Stocktake',
  import: 'Import',
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
      const rows = items.map((/** @type {StockChange} */ c) =>
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
      holder.replaceChildren(h('p', { class: 'form-error', role: 'alert' }, explain(err, { action: 'load', name: pet.name })));
    }
  };
  openDialog({ title: `Stock history — ${pet.name}`, size: 'wide', body: [holder] });
  load(0);
}

/**
 * The status as a badge, and where status and stock disagree, what it means and the fix:
 * "Sold · 2 in stock" with "Make available", or "Available" with "out of stock".
 * @param {Pet} pet
 * @param {number | undefined} qty
 * @param {boolean} canFix  the signed-in role may change pets
 */
export function statusCell(pet, qty, canFix) {
  const badge = statusBadge(pet.status);
  const m = mismatch(pet.status, qty);
  if (m === 'sellable-but-blocked') {
    return h('div', { class: 'status-cell' }, badge, h('span', { class: 'status-note' }, ` · ${qty} in stock`),
      canFix
        ? h('button', { type: 'button', class: 'btn btn-small', 'data-focus-key': `avail-${pet.id}`, onclick: () => makeAvailable(pet) },
          'Make available', h('span', { class: 'sr-only' }, ` ${pet.name}`))
        : h('span', { class: 'status-note muted' }, ' — can’t be sold until a manager makes it available'));
  }
  if (m === 'available-but-empty') {
    return h('div', { class: 'status-cell' }, badge, h('span', { class: 'status-note muted' }, ' · out of stock'));
  }
  return badge;
}
