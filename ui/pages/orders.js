//! Orders: open and completed, newest first; place an order (pick a pet, a quantity); mark
//! complete; cancel. Each row shows the pet's current status, so "sold" appears as it happens.

import * as api from '../api.js';
import { h, field, uid, replace } from '../dom.js';
import { openDialog, confirmAction, formValues } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { localTime, plural } from '../format.js';
import { petsById, stockFor } from '../lookups.js';
import { table, pager, actionsCell, statusBadge, pageHeader, srOnly } from '../widgets.js';

export const title = 'Orders';
export const watches = ['order.', 'pet.'];

const state = { openOffset: 0, doneOffset: 0, limit: 15 };

/** @param {import('../app.js').PageContext} _ctx */
export function mount(_ctx) {
  const openBox = h('div', { class: 'results', id: 'orders-open' });
  const doneBox = h('div', { class: 'results', id: 'orders-done' });
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Orders', h('button', { type: 'button', class: 'btn btn-primary', onclick: placeOrder }, '+ Place order')),
    h('section', { class: 'panel', 'aria-labelledby': 'orders-open-h' }, h('h2', { id: 'orders-open-h' }, 'Open orders'), openBox),
    h('section', { class: 'panel', 'aria-labelledby': 'orders-done-h' }, h('h2', { id: 'orders-done-h' }, 'Completed orders'), doneBox),
  );

  async function placeOrder() {
    /** @type {any[]} */
    let pets;
    /** @type {Map<number, number>} */
    let stock;
    try {
      pets = await api.listAll('/pets', { sort: 'name' });
      stock = await stockFor(pets.map((p) => p.id));
    } catch (err) {
      notifyError(err);
      return;
    }
    const orderable = (/** @type {any} */ p) => (p.status ?? 'available') === 'available' && (stock.get(p.id) ?? 0) > 0;
    const petSelect = h('select', { id: uid('pet'), name: 'petId', required: true, autofocus: true });
    const filter = h('input', { id: uid('petfilter'), type: 'search', autocomplete: 'off', placeholder: 'Type to narrow the list' });
    const fill = () => {
      const q = /** @type {HTMLInputElement} */ (filter).value.trim().toLowerCase();
      const shown = pets.filter((p) => !q || p.name.toLowerCase().includes(q));
      const sel = /** @type {HTMLSelectElement} */ (petSelect);
      const keep = sel.value;
      sel.replaceChildren(
        h('option', { value: '' }, shown.length ? 'Choose a pet…' : 'No pet matches'),
        ...shown.map((p) => {
          const qty = stock.get(p.id) ?? 0;
          const why = orderable(p) ? `${qty} in stock` : (p.status ?? 'available') !== 'available' ? p.status : 'out of stock';
          return h('option', { value: String(p.id), disabled: !orderable(p), selected: String(p.id) === keep }, `${p.name} (#${p.id}) — ${why}`);
        }),
      );
      const first = shown.filter(orderable);
      if (!sel.value && q && first.length === 1) sel.value = String(first[0].id);
    };
    filter.addEventListener('input', fill);
    fill();
    const qty = h('input', { id: uid('qty'), name: 'quantity', type: 'number', inputmode: 'numeric', step: '1', required: true, value: '1' });
    let key = api.idempotencyKey();
    let sent = '';
    openDialog({
      title: 'Place an order',
      body: [field('Find a pet', filter), field('Pet', petSelect), field('Quantity', qty)],
      submitLabel: 'Place order',
      onSubmit: async (form) => {
        const v = formValues(form);
        const body = { petId: Number(v.petId), quantity: Number(v.quantity) };
        const text = JSON.stringify(body);
        if (sent && text !== sent) key = api.idempotencyKey();
        sent = text;
        try {
          const order = await api.post('/store/orders', body, { 'Idempotency-Key': key });
          notify(`Order #${order?.id ?? ''} placed: ${plural(body.quantity, 'unit')}.`, 'ok');
        } catch (err) {
          // A definite refusal: a changed retry is a new order. A lost answer: resend as is.
          if (!(err instanceof api.ApiError) || err.status !== 0) { sent = ''; key = api.idempotencyKey(); }
          throw err;
        }
      },
    });
  }

  /** @param {any} order @param {any} pet */
  async function complete(order, pet) {
    try {
      await api.patch(`/store/orders/${order.id}`, { complete: true });
      notify(`Order #${order.id} (${pet?.name ?? 'pet #' + order.petId}) is complete.`, 'ok');
    } catch (err) {
      notifyError(err);
    }
  }

  /** @param {any} order @param {any} pet */
  function cancel(order, pet) {
    confirmAction({
      title: `Cancel order #${order.id}?`,
      message: `${plural(order.quantity, 'unit')} of ${pet?.name ?? 'pet #' + order.petId} will go back into stock.`,
      confirmLabel: 'Cancel order',
      onConfirm: async () => {
        await api.del(`/store/orders/${order.id}`);
        notify(`Order #${order.id} cancelled; stock returned.`, 'ok');
      },
    });
  }

  /** @param {any} o @param {Map<number, any>} pets @param {boolean} open */
  function row(o, pets, open) {
    const pet = pets.get(o.petId);
    const name = pet?.name ?? `Pet #${o.petId} (deleted)`;
    return h('tr', { 'data-order-id': String(o.id) },
      h('td', { class: 'id' }, `#${o.id}`),
      h('th', { scope: 'row', class: 'name' }, name),
      h('td', {}, pet ? statusBadge(pet.status) : '—'),
      h('td', { class: 'num' }, String(o.quantity)),
      h('td', { class: 'when' }, localTime(o.shipDate)),
      open
        ? actionsCell(
            h('button', { type: 'button', class: 'btn btn-primary', 'data-focus-key': `order-${o.id}-done`, onclick: () => complete(o, pet) }, 'Mark complete', srOnly(` (order ${o.id})`)),
            h('button', { type: 'button', class: 'btn btn-danger-quiet', 'data-focus-key': `order-${o.id}-cancel`, onclick: () => cancel(o, pet) }, 'Cancel', srOnly(` order ${o.id}`)),
          )
        : null,
    );
  }

  const view = {
    el,
    async refresh() {
      const [open, done] = await Promise.all([
        api.list('/store/orders', { complete: false, limit: state.limit, offset: state.openOffset }),
        api.list('/store/orders', { complete: true, limit: state.limit, offset: state.doneOffset }),
      ]);
      if ((open.items.length === 0 && state.openOffset > 0) || (done.items.length === 0 && state.doneOffset > 0)) {
        if (open.items.length === 0) state.openOffset = 0;
        if (done.items.length === 0) state.doneOffset = 0;
        view.refresh(); // runs again once this run ends
        return;
      }
      const pets = await petsById([...open.items, ...done.items].map((o) => o.petId));
      const cols = ['Order', 'Pet', 'Pet status', { label: 'Qty', class: 'num' }, 'Ship date'];
      replace(openBox,
        table('Open orders, newest first', [...cols, 'Actions'], open.items.map((o) => row(o, pets, true)), 'No open orders.'),
        pager({ offset: state.openOffset, limit: state.limit, total: open.total, label: 'open orders', onChange: (n) => { state.openOffset = n; view.refresh(); } }),
      );
      replace(doneBox,
        table('Completed orders, newest first', cols, done.items.map((o) => row(o, pets, false)), 'No completed orders yet.'),
        pager({ offset: state.doneOffset, limit: state.limit, total: done.total, label: 'completed orders', onChange: (n) => { state.doneOffset = n; view.refresh(); } }),
      );
    },
  };
  return view;
}
