//! Orders: open, completed and cancelled, newest first; place an order (pick a pet, a quantity); mark
//! complete, with five seconds to undo before it is sent (completion is one-way on the
//! server); cancel. A row completed here stays where it was, marked done, so the next order
//! never slides under the pointer. Each row shows the pet's current status, and a line of a
//! sale (interface 1.2) links to that sale on the Sales page. Cancelled orders (gone from the
//! orders on the server) are listed from their record, so a clerk can tell a cancelled order
//! from one that never went through.

import * as api from '../api.js';
import { h, field, uid, replace } from '../dom.js';
import { openDialog, confirmAction, formValues } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { localTime, plural } from '../format.js';
import { petsById, stockFor } from '../lookups.js';
import { table, pager, actionsCell, statusBadge, pageHeader, srOnly } from '../widgets.js';
import { todayPanel } from '../today.js';
import { formatPrice, loadProfile } from '../money.js';
import { holdText } from '../animal.js';
import { BOUNDS } from '../facts.js';

/**
 * @typedef {import('../types.js').Order} Order
 * @typedef {import('../types.js').CancelledOrder} CancelledOrder
 * @typedef {import('../types.js').Pet} Pet
 */

export const title = 'Orders';
export const watches = ['order.', 'pet.'];

/** How long "Mark complete" waits for an Undo before it is sent. */
export const UNDO_MS = 5000;
/** How long a row completed here keeps its place in the open list. */
const KEEP_PLACE_MS = 60_000;

const state = { openOffset: 0, doneOffset: 0, cancelledOffset: 0, limit: 15 };

/**
 * Completions waiting for their undo window, by order id. Module-wide, so leaving the page does
 * not lose one: it is still sent when its time is up.
 * @type {Map<number, { timer: number, order: Order, send: (closing?: boolean) => Promise<void> }>}
 */
const pending = new Map();
// A tab closed (or reloaded) inside the undo window still completes the order: the request is
// sent at once, and the browser finishes it after the page has gone.
window.addEventListener('pagehide', () => {
  for (const p of [...pending.values()]) {
    window.clearTimeout(p.timer);
    void p.send(true);
  }
});
/** Orders completed from this screen lately: id → when, and the row as it was. */
/** @type {Map<number, { at: number, order: Order }>} */
const recent = new Map();
/** The open list as last drawn, to keep completed rows in their place. */
/** @type {number[]} */
let lastOpenIds = [];
/** Redraw the open page, if one is mounted. */
let redraw = () => {};

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  const canSell = ctx.can('sell');
  const openBox = h('div', { class: 'results', id: 'orders-open' });
  const doneBox = h('div', { class: 'results', id: 'orders-done' });
  const cancelledBox = h('div', { class: 'results', id: 'orders-cancelled' });
  const today = todayPanel();
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Orders', canSell ? h('button', { type: 'button', class: 'btn btn-primary', onclick: placeOrder }, '+ Place order') : null),
    today.el,
    h('section', { class: 'panel', 'aria-labelledby': 'orders-open-h' }, h('h2', { id: 'orders-open-h' }, 'Open orders'), openBox),
    h('section', { class: 'panel', 'aria-labelledby': 'orders-done-h' }, h('h2', { id: 'orders-done-h' }, 'Completed orders'), doneBox),
    h('section', { class: 'panel', 'aria-labelledby': 'orders-cancelled-h' }, h('h2', { id: 'orders-cancelled-h' }, 'Cancelled orders'), cancelledBox),
  );
  /** @type {Map<number, Pet>} */
  let petsShown = new Map();
  /**
   * The name a deleted pet was sold under, by order id, from the sale the order is a line of:
   * for orders placed before an order kept its pet's name (`petName`).
   */
  /** @type {Map<number, string>} */
  const soldAs = new Map();
  /** @type {{ items: Order[], total: number }} */
  let openPage = { items: [], total: 0 };
  /** @type {{ items: Order[], total: number }} */
  let donePage = { items: [], total: 0 };
  /** @type {{ items: CancelledOrder[], total: number }} */
  let cancelledPage = { items: [], total: 0 };

  async function placeOrder() {
    // The dialog opens at once, with the keyboard in "Find a pet", and the pets follow: a code
    // scanned straight after the click lands in the box, and its Enter waits for the list.
    /** @type {Pet[]} */
    let pets = [];
    /** @type {Map<number, number>} */
    let stock = new Map();
    let loaded = false;
    let enterWaiting = false;
    const orderable = (/** @type {Pet} */ p) => (p.status ?? 'available') === 'available' && (stock.get(p.id) ?? 0) > 0 && !p.hold;
    // Busy until the pets are listed: a screen reader says so, and so can a test.
    const petSelect = /** @type {HTMLSelectElement} */ (h('select', { id: uid('pet'), name: 'petId', required: true, 'aria-describedby': uid('pethint'), 'aria-busy': 'true' }));
    const hint = h('small', { class: 'hint', id: petSelect.getAttribute('aria-describedby') ?? '' });
    // The keyboard starts here, so a scanner's code lands in it.
    const filter = h('input', { id: uid('petfilter'), type: 'search', autocomplete: 'off', placeholder: 'Type or scan', autofocus: true });
    /** The pet whose barcode or SKU is exactly `q` (a scan), if any. @param {string} q */
    const byCode = (q) => (q ? pets.find((p) => p.barcode === q || (p.sku ?? '').toLowerCase() === q) : undefined);
    const fill = () => {
      const q = /** @type {HTMLInputElement} */ (filter).value.trim().toLowerCase();
      const words = q.split(/\s+/).filter(Boolean);
      const scanned = byCode(q);
      const shown = scanned ? [scanned] : pets.filter((p) => words.every((w) => p.name.toLowerCase().includes(w)));
      const keep = petSelect.value;
      petSelect.replaceChildren(
        h('option', { value: '' }, !loaded ? 'Loading the pets…' : shown.length ? 'Choose a pet…' : 'No pet matches'),
        ...shown.map((p) => {
          const qty = stock.get(p.id) ?? 0;
          const why = orderable(p) ? `${qty} in stock` : p.hold ? holdText(p) : (p.status ?? 'available') !== 'available' ? `${p.status}${qty > 0 ? `, ${qty} on the shelf` : ''}` : 'out of stock';
          return h('option', { value: String(p.id), disabled: !orderable(p), selected: String(p.id) === keep }, `${p.name} (#${p.id}) — ${why}`);
        }),
      );
      const first = shown.filter(orderable);
      if ((!petSelect.value || scanned) && q && first.length === 1) petSelect.value = String(first[0].id);
      const blocked = shown.filter((p) => !orderable(p) && !p.hold && (stock.get(p.id) ?? 0) > 0);
      hint.textContent = blocked.length
        ? `Greyed pets are sold or pending. ${blocked.length === 1 ? blocked[0].name + ' has' : blocked.length + ' of them have'} stock: make ${blocked.length === 1 ? 'it' : 'them'} available on the Pets page to sell.`
        : shown.some((p) => p.hold) ? 'Greyed pets are sold, pending, out of stock or on hold (the reason is beside them).' : 'Greyed pets are sold, pending or out of stock.';
    };
    filter.addEventListener('input', () => { fill(); drawTotal(); });
    const qty = h('input', { id: uid('qty'), name: 'quantity', type: 'number', inputmode: 'numeric', step: '1', min: String(BOUNDS.quantity.min), max: String(BOUNDS.quantity.max), required: true, value: '1' });
    // What the order comes to, before it is placed.
    const total = h('p', { class: 'order-total', 'aria-live': 'polite' });
    const drawTotal = () => {
      const pet = pets.find((p) => String(p.id) === petSelect.value);
      const n = Number(/** @type {HTMLInputElement} */ (qty).value);
      total.textContent = !pet ? '' : typeof pet.price !== 'number' ? `${pet.name} has no price.`
        : `${formatPrice(pet.price)} each` + (Number.isInteger(n) && n > 0 ? ` · total ${formatPrice(pet.price * n)}` : '');
    };
    petSelect.addEventListener('change', drawTotal);
    qty.addEventListener('input', drawTotal);
    // A scanner types the code and Enter: Enter here picks the pet found and moves on to the
    // quantity (it never places the order by itself).
    const toQuantity = () => {
      if (!petSelect.value) return;
      /** @type {HTMLInputElement} */ (qty).focus();
      /** @type {HTMLInputElement} */ (qty).select();
    };
    filter.addEventListener('keydown', (e) => {
      const ke = /** @type {KeyboardEvent} */ (e);
      if (ke.key !== 'Enter' || ke.isComposing) return;
      e.preventDefault();
      if (loaded) toQuantity();
      else enterWaiting = true;
    });
    fill();
    drawTotal();
    let key = api.idempotencyKey();
    let sent = '';
    /** @type {import('../messages.js').ErrorContext} */
    const context = { action: 'order' };
    const { close } = openDialog({
      title: 'Place an order',
      body: [field('Find a pet', filter, 'A name, or scan a barcode or SKU'), h('div', { class: 'field' }, h('label', { for: petSelect.id }, 'Pet'), petSelect, hint), field('Quantity', qty), total],
      submitLabel: 'Place order',
      context,
      onSubmit: async (form) => {
        const v = formValues(form);
        const body = { petId: Number(v.petId), quantity: Number(v.quantity) };
        context.name = pets.find((p) => p.id === body.petId)?.name;
        const text = JSON.stringify(body);
        if (sent && text !== sent) key = api.idempotencyKey();
        sent = text;
        try {
          const order = await api.post('/store/orders', body, { 'Idempotency-Key': key });
          const price = order?.total ?? null;
          notify(`Order #${order?.id ?? ''} placed: ${plural(body.quantity, 'unit')} of ${context.name ?? 'the pet'}${typeof price === 'number' ? `, ${formatPrice(price)}` : ''}.`, 'ok');
        } catch (err) {
          // A definite refusal: a changed retry is a new order. A lost answer: resend as is.
          if (!(err instanceof api.ApiError) || err.status !== 0) { sent = ''; key = api.idempotencyKey(); }
          throw err;
        }
      },
    });
    try {
      pets = await api.listAll('/pets', { sort: 'name' });
      stock = await stockFor(pets.map((p) => p.id));
    } catch (err) {
      close();
      notifyError(err);
      return;
    }
    loaded = true;
    fill();
    petSelect.setAttribute('aria-busy', 'false');
    drawTotal();
    if (enterWaiting) toQuantity();
  }

  /** @param {Order} order @param {Pet | undefined} pet */
  function complete(order, pet) {
    if (pending.has(order.id)) return;
    const name = pet?.name ?? `pet #${order.petId}`;
    const send = async (closing = false) => {
      pending.delete(order.id);
      try {
        await api.request('PATCH', `/store/orders/${order.id}`, { body: { complete: true }, keepalive: closing });
        recent.set(order.id, { at: Date.now(), order: { ...order, complete: true } });
        notify(`Order #${order.id} (${name}) is complete.`, 'ok', { group: `order-${order.id}` });
      } catch (err) {
        notifyError(err, { action: 'order', name, change: `order #${order.id} (${name}) marked complete` });
      }
      redraw();
    };
    pending.set(order.id, { timer: window.setTimeout(send, UNDO_MS), order, send });
    notify(`Order #${order.id} (${name}) will be marked complete.`, 'info', {
      group: `order-${order.id}`,
      ms: UNDO_MS,
      action: {
        label: 'Undo',
        run: () => {
          const p = pending.get(order.id);
          if (p) window.clearTimeout(p.timer);
          pending.delete(order.id);
          notify(`Order #${order.id} stays open.`, 'ok', { group: `order-${order.id}` });
          redraw();
        },
      },
    });
    redraw();
  }

  /** @param {Order} order @param {Pet | undefined} pet */
  function cancel(order, pet) {
    const name = pet?.name ?? 'pet #' + order.petId;
    confirmAction({
      title: `Cancel order #${order.id}?`,
      message: `${plural(order.quantity, 'unit')} of ${name} will go back into stock.`,
      confirmLabel: 'Cancel order',
      cancelLabel: 'Keep order',
      context: { action: 'order', name },
      onConfirm: async () => {
        await api.del(`/store/orders/${order.id}`);
        notify(`Order #${order.id} cancelled; stock returned.`, 'ok');
      },
    });
  }

  /** @param {Order} o @param {boolean} open @param {boolean} placed  show when it was placed (interface 1.1) */
  function row(o, open, placed) {
    const pet = petsShown.get(o.petId);
    const name = pet?.name ?? o.petName ?? soldAs.get(o.id) ?? `Pet #${o.petId} (deleted)`;
    const waiting = pending.has(o.id);
    const doneHere = open && recent.has(o.id);
    return h('tr', { 'data-order-id': String(o.id), class: doneHere ? 'done-here' : waiting ? 'completing' : null },
      h('td', { class: 'id' }, `#${o.id}`, o.saleId ? h('a', { class: 'sale-link', href: `#/sales?sale=${o.saleId}` }, ' sale', srOnly(` of order ${o.id}`)) : null),
      h('th', { scope: 'row', class: 'name' }, name),
      h('td', {}, pet ? statusBadge(pet.status) : '—'),
      h('td', { class: 'num' }, String(o.quantity)),
      h('td', { class: 'num' }, formatPrice(o.total)),
      open && !placed ? null : h('td', { class: 'when' }, localTime(open ? o.placedAt : (o.completedAt ?? o.shipDate))),
      !open
        ? null
        : doneHere
          ? h('td', { class: 'actions-cell' }, h('span', { class: 'badge badge-available' }, 'Completed'))
          : canSell
            ? actionsCell(
                h('button', { type: 'button', class: 'btn btn-primary', 'data-focus-key': `order-${o.id}-done`, disabled: waiting, onclick: () => complete(o, pet) },
                  waiting ? 'Completing…' : 'Mark complete', srOnly(` (order ${o.id})`)),
                h('button', { type: 'button', class: 'btn btn-danger-quiet', 'data-focus-key': `order-${o.id}-cancel`, disabled: waiting, onclick: () => cancel(o, pet) }, 'Cancel order', srOnly(` ${o.id}`)),
              )
            : h('td', {}),
    );
  }

  /** @param {CancelledOrder} o */
  function cancelledRow(o) {
    const pet = petsShown.get(o.petId);
    return h('tr', { 'data-cancelled-id': String(o.id) },
      h('td', { class: 'id' }, `#${o.id}`),
      h('th', { scope: 'row', class: 'name' }, pet?.name ?? o.petName ?? `Pet #${o.petId} (deleted)`),
      h('td', { class: 'num' }, String(o.quantity)),
      h('td', { class: 'num' }, formatPrice(o.total)),
      h('td', { class: 'when' }, localTime(o.placedAt)),
      h('td', { class: 'when' }, localTime(o.cancelledAt)),
    );
  }

  function draw() {
    // Rows completed here keep their place among the open ones for a while.
    const now = Date.now();
    for (const [id, r] of recent) if (now - r.at > KEEP_PLACE_MS) recent.delete(id);
    /** @type {Order[]} */
    const openRows = [...openPage.items];
    const inList = new Set(openRows.map((o) => o.id));
    lastOpenIds.forEach((id, i) => {
      const r = recent.get(id);
      if (r && !inList.has(id)) openRows.splice(Math.min(i, openRows.length), 0, r.order);
    });
    lastOpenIds = openRows.map((o) => o.id);
    const placed = openRows.some((o) => o.placedAt !== undefined);
    const cols = ['Order', 'Pet', 'Pet status', { label: 'Qty', class: 'num' }, { label: 'Total', class: 'num' }];
    replace(openBox,
      table('Open orders, newest first', [...cols, ...(placed ? ['Placed'] : []), 'Actions'], openRows.map((o) => row(o, true, placed)), 'No open orders.'),
      pager({ offset: state.openOffset, limit: state.limit, total: openPage.total, label: 'open orders', onChange: (n) => { state.openOffset = n; lastOpenIds = []; ctx.refresh(); } }),
    );
    replace(doneBox,
      table('Completed orders, newest first', [...cols, 'Completed'], donePage.items.map((o) => row(o, false, true)), 'No completed orders yet.'),
      pager({ offset: state.doneOffset, limit: state.limit, total: donePage.total, label: 'completed orders', onChange: (n) => { state.doneOffset = n; ctx.refresh(); } }),
    );
    replace(cancelledBox,
      table('Cancelled orders, newest first', ['Order', 'Pet', { label: 'Qty', class: 'num' }, { label: 'Total', class: 'num' }, 'Placed', 'Cancelled'],
        cancelledPage.items.map(cancelledRow), 'No cancelled orders.'),
      pager({ offset: state.cancelledOffset, limit: state.limit, total: cancelledPage.total, label: 'cancelled orders', onChange: (n) => { state.cancelledOffset = n; ctx.refresh(); } }),
    );
  }
  redraw = () => { if (openBox.isConnected) draw(); };

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results: openBox,
    /** A pet's change is drawn from the event itself; orders need the lists again. */
    affects(/** @type {import('../types.js').StoreEvent} */ ev) {
      if (ev.type.startsWith('pet.')) {
        const p = ev.data;
        if (p && typeof p.id === 'number' && petsShown.has(p.id)) {
          if (ev.type === 'pet.deleted') petsShown.delete(p.id);
          else petsShown.set(p.id, p);
          draw();
        }
        return false;
      }
      return true;
    },
    async load() {
      const [, open, done, cancelled] = await Promise.all([
        loadProfile().then(() => today.load()),
        api.list('/store/orders', { complete: false, limit: state.limit, offset: state.openOffset }),
        api.list('/store/orders', { complete: true, limit: state.limit, offset: state.doneOffset }),
        api.list('/store/cancelled-orders', { limit: state.limit, offset: state.cancelledOffset }),
      ]);
      if ((open.items.length === 0 && state.openOffset > 0) || (done.items.length === 0 && state.doneOffset > 0)
        || (cancelled.items.length === 0 && state.cancelledOffset > 0)) {
        if (open.items.length === 0) state.openOffset = 0;
        if (done.items.length === 0) state.doneOffset = 0;
        if (cancelled.items.length === 0) state.cancelledOffset = 0;
        ctx.refresh(); // runs again once this run ends
        return;
      }
      // Pets already known are kept (a pet event updates them); only new ones are fetched.
      const wanted = [...open.items, ...done.items, ...cancelled.items, ...[...recent.values()].map((r) => r.order)].map((o) => o.petId);
      const missing = wanted.filter((id) => !petsShown.has(id));
      if (missing.length) for (const [id, p] of await petsById(missing)) petsShown.set(id, p);
      // A pet deleted since: the sale its order was a line of keeps the name it was sold under.
      const gone = [...open.items, ...done.items].filter((o) => o.saleId && !o.petName && !petsShown.has(o.petId) && !soldAs.has(o.id));
      await Promise.all([...new Set(gone.map((o) => o.saleId))].map(async (saleId) => {
        const sale = /** @type {{ lines: Array<{ orderId: number, name: string }> } | null} */ (await api.get(`/store/sales/${saleId}`).catch(() => null));
        for (const l of sale?.lines ?? []) soldAs.set(l.orderId, l.name);
      }));
      openPage = open;
      donePage = done;
      cancelledPage = /** @type {{ items: CancelledOrder[], total: number }} */ (cancelled);
      draw();
    },
  };
  return view;
}
