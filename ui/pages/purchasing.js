//! Purchasing: the purchase orders (filtered by status), "Order what is low" (a draft per
//! supplier from the server's suggestion), and one order opened below the list: its lines
//! (ordered, received, left), editing a draft's lines, Send, Cancel, its CSV, and receiving a
//! delivery by scanning (receive.js). `#/purchasing?low` starts "Order what is low" at once
//! (the header's low-stock link); `#/purchasing?order=ID` opens one order.

import * as api from '../api.js';
import { h, field, uid, select, replace, saveBlob } from '../dom.js';
import { openDialog, confirmAction } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { table, actionsCell, pageHeader, srOnly, pager } from '../widgets.js';
import { petsById } from '../lookups.js';
import { formatPrice, parsePrice, priceInput, loadProfile } from '../money.js';
import { localTime, plural } from '../format.js';
import { findByCode } from '../scan.js';
import { supplierNames, openPrintLabels } from '../stockroom.js';
import { receivePanel } from '../receive.js';

/**
 * @typedef {import('../stockroom.js').PurchaseOrder} PurchaseOrder
 * @typedef {import('../stockroom.js').PurchaseOrderLine} PurchaseOrderLine
 * @typedef {import('../types.js').Pet} Pet
 */

export const title = 'Purchasing';
export const watches = ['purchase_order.', 'supplier.'];

/** What each status is called on screen. */
export const STATUS_LABEL = /** @type {Record<string, string>} */ ({
  draft: 'Draft', sent: 'Sent', partial: 'Partly received', received: 'Received', cancelled: 'Cancelled',
});

const state = { status: '', offset: 0, limit: 25 };

/** The route's parameters: `?low`, `?order=ID`, `?supplier=ID`. */
function routeParams() {
  const q = location.hash.split('?')[1] ?? '';
  return new URLSearchParams(q);
}

/** @param {PurchaseOrder} o */
const units = (o) => o.lines.reduce((n, l) => n + l.ordered, 0);
/** @param {PurchaseOrder} o */
const received = (o) => o.lines.reduce((n, l) => n + l.received, 0);

/** The pets of the lines that received something. @param {PurchaseOrder} o @param {Map<number, Pet>} pets */
const receivedPets = (o, pets) => /** @type {Pet[]} */ (o.lines.filter((l) => l.received > 0).map((l) => pets.get(l.petId)).filter(Boolean));

/** @param {string} status */
function statusBadge(status) {
  return h('span', { class: `badge badge-po-${status}` }, STATUS_LABEL[status] ?? status);
}

/**
 * Saves one order's CSV (to send to the supplier).
 * @param {PurchaseOrder} o
 */
async function downloadCsv(o) {
  try {
    const blob = await api.download(`/store/purchase-orders/${o.id}`, undefined, 'text/csv');
    saveBlob(blob, `purchase-order-${o.number}.csv`);
  } catch (err) {
    notifyError(err);
  }
}

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  const canEdit = ctx.can('edit');
  const params = routeParams();
  const openId = Number(params.get('order') ?? '') || null;
  const supplierFilter = params.get('supplier') ?? '';

  const statusFilter = select({ id: 'po-status-filter' }, [
    ['', 'Any status'], ['draft', 'Draft'], ['sent', 'Sent'], ['partial', 'Partly received'], ['received', 'Received'], ['cancelled', 'Cancelled'],
  ], state.status);
  statusFilter.addEventListener('change', () => {
    state.status = /** @type {HTMLSelectElement} */ (statusFilter).value;
    state.offset = 0;
    ctx.refresh();
  });
  const lowButton = canEdit ? h('button', { type: 'button', class: 'btn btn-primary', id: 'po-order-low', onclick: () => void orderWhatIsLow() }, 'Order what is low') : null;
  const results = h('div', { class: 'results' });
  const detail = h('div', { class: 'po-detail', id: 'po-detail' });
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Purchasing', lowButton),
    h('p', { class: 'muted page-intro' }, 'Orders to your suppliers. “Order what is low” makes a draft for each supplier whose pets are at or below their reorder point; what is already on an open order counts as on its way.'),
    h('div', { class: 'toolbar', role: 'search', 'aria-label': 'Filter purchase orders' },
      field('Status', statusFilter),
      supplierFilter ? h('a', { class: 'btn btn-quiet', href: '#/purchasing' }, 'Show every supplier') : null),
    detail,
    results,
  );

  /** The receiving panel, kept across reloads of the page so a scan in progress is not lost. */
  /** @type {ReturnType<typeof receivePanel> | null} */
  let receiving = null;

  async function orderWhatIsLow() {
    if (lowButton) /** @type {HTMLButtonElement} */ (lowButton).disabled = true;
    try {
      const names = await supplierNames();
      if (names.size === 0) {
        notify('Add your suppliers first (Suppliers page), and give each pet its supplier.', 'error');
        return;
      }
      /** @type {string[]} */
      const made = [];
      for (const [id, name] of names) {
        const res = await api.request('POST', '/store/purchase-orders/suggest', { body: { supplierId: id } });
        if (res.status === 201 && res.data) made.push(`${name} (${plural(res.data.lines.length, 'line')})`);
      }
      const orphans = await lowWithoutSupplier();
      const tail = orphans ? ` ${plural(orphans, 'low pet has', 'low pets have')} no supplier: give ${orphans === 1 ? 'it' : 'them'} one on Pets → Edit.` : '';
      if (made.length) {
        notify(`Made ${plural(made.length, 'draft')}: ${made.join(', ')}. Check the lines, then Send.${tail}`, 'ok', { ms: 8000 });
        state.status = 'draft';
        /** @type {HTMLSelectElement} */ (statusFilter).value = 'draft';
        state.offset = 0;
      } else {
        notify(`Nothing to order: no supplier’s pets are low, or what is low is already on an open order.${tail}`, 'info', { ms: 8000 });
      }
      ctx.refresh();
    } catch (err) {
      notifyError(err);
    } finally {
      if (lowButton) /** @type {HTMLButtonElement} */ (lowButton).disabled = false;
    }
  }

  /** How many low pets have no supplier (and so cannot be suggested). */
  async function lowWithoutSupplier() {
    try {
      const low = await api.listAll('/store/inventory', { low: 'true' }, 1000);
      if (low.length === 0) return 0;
      const pets = await petsById(low.map((/** @type {{ petId: number }} */ i) => i.petId));
      return [...pets.values()].filter((p) => !(/** @type {any} */ (p).supplierId)).length;
    } catch {
      return 0;
    }
  }

  /**
   * Edit a draft's lines: quantity (0 takes the line off), cost, and pets added by code.
   * @param {PurchaseOrder} o @param {Map<number, Pet>} pets
   */
  function editLines(o, pets) {
    /** @type {Array<{ petId: number, qty: HTMLInputElement, cost: HTMLInputElement }>} */
    const rows = [];
    const tbody = h('tbody', {});
    /** @param {number} petId @param {number} qty @param {number | undefined} cost */
    const addRow = (petId, qty, cost) => {
      const name = pets.get(petId)?.name ?? `Pet #${petId}`;
      const q = /** @type {HTMLInputElement} */ (h('input', { id: uid('po-qty'), type: 'number', min: '0', max: '1000000', step: '1', value: String(qty), 'aria-label': `Quantity of ${name}`, class: 'num-input' }));
      const c = /** @type {HTMLInputElement} */ (h('input', { id: uid('po-cost'), type: 'text', inputmode: 'decimal', value: priceInput(cost), 'aria-label': `Cost of one ${name}`, class: 'num-input' }));
      q.addEventListener('focus', () => q.select());
      rows.push({ petId, qty: q, cost: c });
      tbody.append(h('tr', { 'data-pet-id': String(petId) }, h('th', { scope: 'row' }, name), h('td', {}, q), h('td', {}, c)));
    };
    for (const l of o.lines) addRow(l.petId, l.ordered, l.cost);
    const code = h('input', { id: uid('po-add-code'), type: 'text', autocomplete: 'off', placeholder: 'Scan, or type a SKU' });
    const found = h('span', { class: 'muted', role: 'status' });
    code.addEventListener('keydown', async (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      const text = /** @type {HTMLInputElement} */ (code).value.trim();
      if (!text) return;
      try {
        const pet = await findByCode(text);
        /** @type {HTMLInputElement} */ (code).value = '';
        if (!pet) { found.textContent = `No pet has ${text}.`; return; }
        const have = rows.find((r) => r.petId === pet.id);
        if (have) { have.qty.value = String(Number(have.qty.value || 0) + 1); found.textContent = `One more ${pet.name}.`; return; }
        pets.set(pet.id, pet);
        addRow(pet.id, 1, /** @type {any} */ (pet).cost);
        found.textContent = `Added ${pet.name}.`;
      } catch (err) {
        notifyError(err);
      }
    });
    openDialog({
      title: `Edit purchase order #${o.number}`,
      size: 'wide',
      body: [
        h('div', { class: 'table-wrap' }, h('table', {}, h('caption', { class: 'sr-only' }, 'Lines'),
          h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Pet'), h('th', { scope: 'col' }, 'Quantity'), h('th', { scope: 'col' }, 'Cost of one'))), tbody)),
        h('p', { class: 'hint' }, 'A quantity of 0 takes the line off the order.'),
        field('Add a pet', code, 'Scan its barcode or type its SKU, then Enter.'), found,
      ],
      submitLabel: 'Save lines',
      onSubmit: async () => {
        /** @type {Array<{ petId: number, quantity: number, cost?: number }>} */
        const lines = [];
        for (const r of rows) {
          const quantity = Number(r.qty.value || 0);
          const name = pets.get(r.petId)?.name ?? `pet #${r.petId}`;
          if (!Number.isInteger(quantity) || quantity < 0 || quantity > 1_000_000) throw new Error(`The quantity of ${name} must be a whole number from 0 to 1,000,000.`);
          if (quantity === 0) continue;
          const cost = parsePrice(r.cost.value);
          if (Number.isNaN(cost)) throw new Error(`The cost of ${name} is not an amount.`);
          lines.push(cost === null ? { petId: r.petId, quantity } : { petId: r.petId, quantity, cost });
        }
        if (lines.length === 0) throw new Error('An order needs at least one line. To drop the whole order, use Cancel order.');
        await api.put(`/store/purchase-orders/${o.id}`, o.note ? { supplierId: o.supplierId, lines, note: o.note } : { supplierId: o.supplierId, lines });
        notify(`Saved the lines of #${o.number}.`, 'ok');
        ctx.refresh();
      },
    });
  }

  /** @param {PurchaseOrder} o @param {string} supplier */
  function send(o, supplier) {
    confirmAction({
      title: `Send #${o.number} to ${supplier}?`,
      message: 'Its lines can no longer change once it is sent. Download its CSV (or print it) to pass it on to the supplier.',
      confirmLabel: 'Mark as sent',
      cancelLabel: 'Keep the draft',
      offer: true,
      onConfirm: async () => {
        await api.post(`/store/purchase-orders/${o.id}/send`, {});
        notify(`#${o.number} is sent.`, 'ok', { action: { label: 'Download CSV', run: () => void downloadCsv(o) } });
        ctx.refresh();
      },
    });
  }

  /** @param {PurchaseOrder} o */
  function cancel(o) {
    confirmAction({
      title: `Cancel purchase order #${o.number}?`,
      message: 'Nothing of it has been received; once cancelled it cannot be sent or received.',
      confirmLabel: 'Cancel order',
      cancelLabel: 'Keep order',
      onConfirm: async () => {
        await api.post(`/store/purchase-orders/${o.id}/cancel`, {});
        notify(`Cancelled #${o.number}.`, 'ok');
        ctx.refresh();
      },
    });
  }

  /**
   * The open order: lines with ordered / received / left, and what can be done with it.
   * @param {PurchaseOrder} o @param {Map<number, Pet>} pets @param {Map<number, string>} suppliers
   */
  function drawDetail(o, pets, suppliers) {
    const supplier = suppliers.get(o.supplierId) ?? `Supplier #${o.supplierId}`;
    const open = o.status === 'sent' || o.status === 'partial';
    if (!(open && canEdit)) receiving = null;
    else if (!receiving || receiving.orderId !== o.id) {
      receiving = receivePanel({ order: o, pets, onReceived: () => ctx.refresh() });
    } else receiving.update(o);
    const rows = o.lines.map((l) => {
      const pet = pets.get(l.petId);
      const left = l.ordered - l.received;
      return h('tr', { 'data-pet-id': String(l.petId) },
        h('th', { scope: 'row', class: 'name' }, pet?.name ?? `Pet #${l.petId} (deleted)`, pet?.barcode || pet?.sku ? h('span', { class: 'code muted' }, pet.barcode ?? pet.sku) : null),
        h('td', { class: 'num', 'data-cell': 'ordered' }, String(l.ordered)),
        h('td', { class: 'num', 'data-cell': 'received' }, String(l.received)),
        h('td', { class: 'num', 'data-cell': 'left' }, String(left)),
        h('td', { class: 'num' }, formatPrice(l.cost)),
        h('td', { class: 'num' }, formatPrice(l.cost * l.ordered)));
    });
    const actions = [
      h('button', { type: 'button', class: 'btn', id: 'po-csv', onclick: () => void downloadCsv(o) }, 'Download CSV'),
      // Shelf labels for what came in: the received lines' pets, as many copies as arrived (up to 50).
      received(o) > 0 ? h('button', { type: 'button', class: 'btn', id: 'po-labels', onclick: () => openPrintLabels(receivedPets(o, pets), Math.min(50, Math.max(...o.lines.map((l) => l.received)))) }, 'Print labels') : null,
      canEdit && o.status === 'draft' ? h('button', { type: 'button', class: 'btn', id: 'po-edit', onclick: () => editLines(o, pets) }, 'Edit lines') : null,
      canEdit && o.status === 'draft' ? h('button', { type: 'button', class: 'btn btn-primary', id: 'po-send', onclick: () => send(o, supplier) }, 'Send') : null,
      canEdit && (o.status === 'draft' || (o.status === 'sent' && received(o) === 0)) ? h('button', { type: 'button', class: 'btn btn-danger-quiet', id: 'po-cancel', onclick: () => cancel(o) }, 'Cancel order') : null,
      h('a', { class: 'btn btn-quiet', href: '#/purchasing' }, 'Close'),
    ];
    const parts = [
      h('div', { class: 'page-head' },
        h('h2', { id: 'po-title', tabindex: '-1' }, `Purchase order #${o.number} · ${supplier} `, statusBadge(o.status)),
        h('div', { class: 'page-actions' }, actions)),
      h('p', { class: 'muted' }, [
        `Made ${localTime(o.createdAt)}`, o.sentAt ? ` · sent ${localTime(o.sentAt)}` : '', o.closedAt ? ` · closed ${localTime(o.closedAt)}` : '',
        ` · ${received(o)} of ${units(o)} units received · total ${formatPrice(o.total)}`,
      ].join('')),
      o.note ? h('p', {}, o.note) : null,
      table(`Lines of purchase order #${o.number}`, ['Pet', { label: 'Ordered', class: 'num' }, { label: 'Received', class: 'num' }, { label: 'Left', class: 'num' }, { label: 'Cost', class: 'num' }, { label: 'Line total', class: 'num' }], rows, 'No lines.'),
    ].filter((part) => part !== null);
    // The card is redrawn around the receiving panel, which stays where it is: moving it
    // would take the keyboard out of the box a clerk is typing a case's count in.
    const card = /** @type {HTMLElement} */ (detail.querySelector(':scope > .po-card') ?? h('section', { class: 'card po-card', 'aria-labelledby': 'po-title' }));
    card.dataset.status = o.status;
    const panel = receiving ? receiving.el : null;
    for (const child of [...card.children]) if (child !== panel) child.remove();
    card.prepend(...parts);
    if (panel && panel.parentElement !== card) card.append(panel);
    if (card.parentElement !== detail) replace(detail, card);
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    focus: () => {
      if (receiving) receiving.focus();
      else /** @type {HTMLElement | null} */ (el.querySelector(openId ? '#po-title' : 'h1'))?.focus();
    },
    async load() {
      const [suppliers, page] = await Promise.all([
        supplierNames(),
        api.list('/store/purchase-orders', { status: state.status, supplierId: supplierFilter, limit: state.limit, offset: state.offset }),
        loadProfile(),
      ]);
      const orders = /** @type {PurchaseOrder[]} */ (page.items);
      /** @type {PurchaseOrder | null} */
      const opened = openId ? (orders.find((o) => o.id === openId) ?? await api.get(`/store/purchase-orders/${openId}`)) : null;
      const pets = await petsById([...orders, ...(opened ? [opened] : [])].flatMap((o) => o.lines.map((l) => l.petId)));
      if (opened) drawDetail(opened, pets, suppliers);
      else { replace(detail); receiving = null; }
      const rows = orders.map((o) => {
        const supplier = suppliers.get(o.supplierId) ?? `Supplier #${o.supplierId}`;
        const names = o.lines.slice(0, 3).map((l) => pets.get(l.petId)?.name ?? `#${l.petId}`).join(', ') + (o.lines.length > 3 ? ` and ${o.lines.length - 3} more` : '');
        return h('tr', { 'data-po-id': String(o.id), class: o.id === openId ? 'selected' : null },
          h('th', { scope: 'row' }, `#${o.number}`),
          h('td', {}, supplier),
          h('td', {}, statusBadge(o.status)),
          h('td', { class: 'wide-only' }, names),
          h('td', { class: 'num' }, `${received(o)} / ${units(o)}`),
          h('td', { class: 'num' }, formatPrice(o.total)),
          h('td', { class: 'muted wide-only' }, localTime(o.createdAt)),
          actionsCell(h('a', { class: 'btn', href: `#/purchasing?order=${o.id}`, 'data-focus-key': `po-${o.id}-open` },
            (o.status === 'sent' || o.status === 'partial') && canEdit ? 'Receive' : 'Open', srOnly(` purchase order ${o.number}`))));
      });
      replace(results,
        table('Purchase orders', ['Number', 'Supplier', 'Status', { label: 'Pets', class: 'wide-only' }, { label: 'Received / ordered', class: 'num' }, { label: 'Total', class: 'num' }, { label: 'Made', class: 'wide-only' }, 'Actions'], rows,
          state.status ? 'No purchase orders with this status.' : canEdit ? 'No purchase orders yet. “Order what is low” makes the first ones.' : 'No purchase orders yet.'),
        pager({ offset: state.offset, limit: state.limit, total: page.total, label: 'purchase orders', onChange: (off) => { state.offset = off; ctx.refresh(); } }));
    },
  };

  if (params.has('low') && canEdit) {
    history.replaceState(null, '', '#/purchasing');
    setTimeout(() => void orderWhatIsLow(), 0);
  }
  return view;
}
