//! Sales: the back office's list of the baskets sold at the counter (the till rings them up),
//! newest first, paged, one day at a time if asked. Opening a sale shows its lines, discount,
//! tax, payments, change, refunds, its till and the shift it counted toward; "Receipt" prints
//! the server's 80 mm receipt through the browser's print dialog; "Refund…" (staff and up)
//! gives back chosen units of chosen lines, showing what goes back before it is confirmed.
//! `#/sales?sale=ID` opens that sale (the Orders page links an order to its sale so).

import * as api from '../api.js';
import { h, field, uid, replace } from '../dom.js';
import { openDialog, formValues } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { localTime, plural } from '../format.js';
import { table, pager, actionsCell, pageHeader, srOnly } from '../widgets.js';
import { formatPrice, loadProfile } from '../money.js';
import { refundShare, refundedByPet } from '../refund.js';

/**
 * @typedef {{ petId: number, name: string, sku: string | null, barcode: string | null, quantity: number, unitPrice: number, discount: number, taxRate: number, tax: number, total: number, orderId: number, shortBy?: number }} SaleLine
 * @typedef {{ method: 'cash' | 'card' | 'other', amount: number }} Payment
 * @typedef {{ id: number, number: number, placedAt: string, soldAt: string, keyName: string | null, staffId: number | null, till: string | null, lines: SaleLine[], subtotal: number, discount: number, tax: number, total: number, payments: Payment[], change: number, customer?: { name: string | null, phone?: string | null, email?: string | null }, note: string | null, refunded: number }} Sale
 * @typedef {{ petId: number, quantity: number, amount: number, tax: number }} RefundLine
 * @typedef {{ id: number, saleId: number, createdAt: string, lines: RefundLine[], amount: number, method: string, reason: string, restock: boolean, till: string | null, keyName: string | null, staffId: number | null }} Refund
 * @typedef {{ id: number, till: string, status: 'open' | 'closed', openedAt: string, closedAt: string | null }} Shift
 */

export const title = 'Sales';
export const watches = ['sale.', 'store.'];

const state = { offset: 0, limit: 15, day: '' };

const METHOD = /** @type {Record<string, string>} */ ({ cash: 'Cash', card: 'Card', other: 'Other' });

/** "Cash 50.00 + Card 12.00". @param {Payment[]} payments */
const paid = (payments) => payments.map((p) => `${METHOD[p.method] ?? p.method} ${formatPrice(p.amount)}`).join(' + ');

/** A tax rate in basis points as a percentage: 2000 → "20 %". @param {number} bp */
const percent = (bp) => `${(bp / 100).toLocaleString(undefined, { maximumFractionDigits: 2 })} %`;

/** The sale id asked for in the address (`#/sales?sale=12`), if any. */
function saleInHash() {
  const m = /[?&]sale=(\d+)/.exec(location.hash);
  return m ? Number(m[1]) : null;
}

/**
 * The shift a sale counted toward: its till's shift open when the sale reached the store.
 * @param {Sale} sale
 * @returns {Promise<Shift | null>}
 */
async function shiftOf(sale) {
  if (!sale.till) return null;
  /** @type {Shift[]} */
  const shifts = await api.listAll('/store/shifts', { till: sale.till }, 2000);
  const at = Date.parse(sale.placedAt);
  return shifts.find((s) => Date.parse(s.openedAt) <= at && (!s.closedAt || at <= Date.parse(s.closedAt))) ?? null;
}

/**
 * Print the sale's receipt: the server's HTML (80 mm print style) in a hidden frame, through
 * the browser's print dialog. The frame stays (hidden) until the next receipt.
 * @param {Sale} sale
 */
async function printReceipt(sale) {
  const html = await (await api.download(`/store/sales/${sale.id}/receipt`, undefined, 'text/html')).text();
  document.querySelector('iframe.receipt-frame')?.remove();
  const frame = /** @type {HTMLIFrameElement} */ (h('iframe', { class: 'receipt-frame', title: `Receipt of sale ${sale.number}`, 'data-sale-id': String(sale.id), 'aria-hidden': 'true', tabindex: '-1' }));
  frame.srcdoc = html;
  frame.addEventListener('load', () => frame.contentWindow?.print(), { once: true });
  document.body.append(frame);
}

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  const canRefund = ctx.can('edit');
  const results = h('div', { class: 'results', id: 'sales-list' });
  const day = /** @type {HTMLInputElement} */ (h('input', { id: uid('day'), type: 'date', name: 'day', value: state.day }));
  day.addEventListener('change', () => { state.day = day.value; state.offset = 0; ctx.refresh(); });
  const allDays = h('button', { type: 'button', class: 'btn', onclick: () => { day.value = ''; state.day = ''; state.offset = 0; ctx.refresh(); } }, 'All days');
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Sales'),
    h('div', { class: 'toolbar' }, field('Day sold', day, 'Only the sales of this day (the store’s time zone)'), allDays),
    results,
  );
  let asked = saleInHash();

  /** @param {Sale} s */
  function row(s) {
    return h('tr', { 'data-sale-id': String(s.id) },
      h('td', { class: 'id' }, `No. ${s.number}`),
      h('td', { class: 'when' }, localTime(s.soldAt)),
      h('td', {}, s.till ?? '—'),
      h('td', {}, s.keyName ?? '—'),
      h('td', { class: 'num' }, String(s.lines.length)),
      h('th', { scope: 'row', class: 'num' }, formatPrice(s.total)),
      h('td', {}, paid(s.payments)),
      h('td', { class: 'num' }, s.refunded ? formatPrice(s.refunded) : '—'),
      actionsCell(h('button', { type: 'button', class: 'btn', 'data-focus-key': `sale-${s.id}`, onclick: () => void open(s.id) }, 'Open', srOnly(` sale ${s.number}`))),
    );
  }

  /** Show one sale with its refunds and shift. @param {number} id */
  async function open(id) {
    /** @type {Sale} */
    let sale;
    /** @type {Refund[]} */
    let refunds;
    /** @type {Shift | null} */
    let shift = null;
    try {
      [sale, refunds] = await Promise.all([api.get(`/store/sales/${id}`), api.get(`/store/sales/${id}/refunds`)]);
      shift = await shiftOf(sale).catch(() => null);
    } catch (err) {
      notifyError(err, { action: 'load' });
      return;
    }
    const back = refundedByPet(refunds);
    const names = new Map(sale.lines.map((l) => [l.petId, l.name]));
    const lines = table(`Lines of sale ${sale.number}`,
      ['Pet', { label: 'Qty', class: 'num' }, { label: 'Unit price', class: 'num' }, { label: 'Discount', class: 'num' }, { label: 'Tax', class: 'num' }, { label: 'Total', class: 'num' }, { label: 'Refunded', class: 'num' }],
      sale.lines.map((l) => h('tr', { 'data-pet-id': String(l.petId) },
        h('th', { scope: 'row' }, l.name, l.shortBy ? h('small', { class: 'hint' }, ` (short by ${l.shortBy})`) : null),
        h('td', { class: 'num' }, String(l.quantity)),
        h('td', { class: 'num' }, formatPrice(l.unitPrice)),
        h('td', { class: 'num' }, l.discount ? formatPrice(l.discount) : '—'),
        h('td', { class: 'num' }, `${formatPrice(l.tax)} (${percent(l.taxRate)})`),
        h('td', { class: 'num' }, formatPrice(l.total)),
        h('td', { class: 'num' }, back.get(l.petId)?.quantity ? String(back.get(l.petId)?.quantity) : '—'),
      )), 'No lines.');
    const facts = h('dl', { class: 'facts sale-facts' },
      h('dt', {}, 'Sold'), h('dd', {}, localTime(sale.soldAt)),
      h('dt', {}, 'Till'), h('dd', {}, sale.till ?? '—'),
      h('dt', {}, 'Shift'), h('dd', {}, shift ? `#${shift.id}, opened ${localTime(shift.openedAt)}${shift.status === 'closed' ? `, closed ${localTime(shift.closedAt)}` : ' (open)'}` : 'None'),
      h('dt', {}, 'Rung up by'), h('dd', {}, sale.keyName ?? '—'),
      sale.customer?.name ? [h('dt', {}, 'Customer'), h('dd', {}, [sale.customer.name, sale.customer.phone, sale.customer.email].filter(Boolean).join(', '))] : null,
      sale.note ? [h('dt', {}, 'Note'), h('dd', {}, sale.note)] : null,
    );
    const totals = h('dl', { class: 'facts sale-totals' },
      h('dt', {}, 'Subtotal'), h('dd', {}, formatPrice(sale.subtotal)),
      h('dt', {}, 'Discount'), h('dd', {}, formatPrice(sale.discount)),
      h('dt', {}, 'Tax'), h('dd', {}, formatPrice(sale.tax)),
      h('dt', {}, 'Total'), h('dd', { 'data-total': '' }, formatPrice(sale.total)),
      h('dt', {}, 'Paid'), h('dd', {}, paid(sale.payments)),
      h('dt', {}, 'Change'), h('dd', {}, formatPrice(sale.change)),
      h('dt', {}, 'Refunded'), h('dd', { 'data-refunded': '' }, formatPrice(sale.refunded)),
    );
    const refundRows = refunds.map((r) => h('tr', { 'data-refund-id': String(r.id) },
      h('td', { class: 'when' }, localTime(r.createdAt)),
      h('th', { scope: 'row' }, r.lines.map((l) => `${l.quantity} × ${names.get(l.petId) ?? `pet #${l.petId}`}`).join(', ')),
      h('td', { class: 'num' }, formatPrice(r.amount)),
      h('td', {}, METHOD[r.method] ?? r.method),
      h('td', {}, r.restock ? 'Back in stock' : 'Not restocked'),
      h('td', {}, r.reason),
      h('td', {}, r.keyName ?? '—'),
    ));
    const anyLeft = sale.lines.some((l) => l.quantity > (back.get(l.petId)?.quantity ?? 0));
    /** @type {{ close: () => void } | null} */
    let handle = null;
    const receiptBtn = h('button', { type: 'button', class: 'btn', onclick: () => printReceipt(sale).catch((err) => notifyError(err, { action: 'load' })) }, 'Receipt');
    const refundBtn = canRefund && anyLeft
      ? h('button', { type: 'button', class: 'btn btn-danger-quiet', onclick: () => { handle?.close(); refund(sale, refunds); } }, 'Refund…')
      : null;
    handle = openDialog({
      title: `Sale No. ${sale.number}`,
      size: 'wide',
      body: [
        h('div', { class: 'page-actions sale-actions' }, receiptBtn, refundBtn),
        facts,
        lines,
        totals,
        h('h3', {}, 'Refunds'),
        table(`Refunds of sale ${sale.number}`, ['When', 'Lines', { label: 'Amount', class: 'num' }, 'Paid back', 'Stock', 'Reason', 'By'], refundRows, 'No refunds.'),
      ],
    });
  }

  /**
   * Give back units of the sale's lines: how many of each (up to what is left), restock or
   * not, how the money goes back, and why; what it comes to is shown before it is sent.
   * @param {Sale} sale
   * @param {Refund[]} refunds
   */
  function refund(sale, refunds) {
    const back = refundedByPet(refunds);
    const none = { quantity: 0, amount: 0, tax: 0 };
    const refundable = sale.lines.filter((l) => l.quantity > (back.get(l.petId)?.quantity ?? 0));
    const inputs = refundable.map((l) => {
      const left = l.quantity - (back.get(l.petId)?.quantity ?? 0);
      const input = /** @type {HTMLInputElement} */ (h('input', { id: uid('rq'), class: 'short', name: `qty-${l.petId}`, type: 'number', inputmode: 'numeric', min: '0', max: String(left), step: '1', value: '0' }));
      return { line: l, left, input };
    });
    const restock = /** @type {HTMLInputElement} */ (h('input', { id: uid('restock'), type: 'checkbox', name: 'restock', checked: true }));
    const method = /** @type {HTMLSelectElement} */ (h('select', { id: uid('method'), name: 'method' },
      ['cash', 'card', 'other'].map((m) => h('option', { value: m, selected: m === (sale.payments[0]?.method ?? 'cash') }, METHOD[m]))));
    const reason = h('input', { id: uid('reason'), name: 'reason', type: 'text', required: true, maxlength: '200', autocomplete: 'off' });
    const preview = h('p', { class: 'order-total', 'aria-live': 'polite', 'data-refund-preview': '' });
    const drawPreview = () => {
      let amount = 0;
      let tax = 0;
      let units = 0;
      for (const { line, input } of inputs) {
        const q = Number(input.value || '0');
        if (q === 0) continue;
        const share = refundShare(line, back.get(line.petId) ?? none, q);
        if (!share) {
          preview.textContent = `${line.name}: at most ${line.quantity - (back.get(line.petId)?.quantity ?? 0)} may be refunded.`;
          return;
        }
        amount += share.amount;
        tax += share.tax;
        units += q;
      }
      preview.textContent = units === 0 ? 'Choose how many units come back.' : `Refund ${formatPrice(amount)} (tax ${formatPrice(tax)}) for ${plural(units, 'unit')}.`;
    };
    for (const { input } of inputs) input.addEventListener('input', drawPreview);
    drawPreview();
    let key = api.idempotencyKey();
    let sent = '';
    openDialog({
      title: `Refund from sale No. ${sale.number}`,
      size: 'wide',
      body: [
        ...inputs.map(({ line, left, input }) => field(`${line.name}: units back`, input, `${left} of ${line.quantity} may still be refunded (line total ${formatPrice(line.total)})`)),
        h('div', { class: 'field field-check' }, h('label', { class: 'check', for: restock.id }, restock, ' Put the units back in stock')),
        field('Money goes back as', method),
        field('Reason', reason, 'Said on the receipt and in the stock history'),
        preview,
      ],
      submitLabel: 'Refund',
      danger: true,
      onSubmit: async (form) => {
        const v = formValues(form);
        const lines = inputs.map(({ line, input }) => ({ petId: line.petId, quantity: Number(input.value || '0') })).filter((l) => l.quantity > 0);
        if (lines.length === 0) throw new Error('Choose at least one unit to refund.');
        const body = { lines, method: v.method, reason: v.reason, restock: restock.checked };
        const text = JSON.stringify(body);
        if (sent && text !== sent) key = api.idempotencyKey();
        sent = text;
        try {
          /** @type {Refund} */
          const done = await api.post(`/store/sales/${sale.id}/refunds`, body, { 'Idempotency-Key': key });
          notify(`Refunded ${formatPrice(done.amount)} from sale No. ${sale.number} (${METHOD[done.method] ?? done.method}).`, 'ok');
        } catch (err) {
          // A definite refusal: a changed retry is a new refund. A lost answer: resend as is.
          if (!(err instanceof api.ApiError) || err.status !== 0) { sent = ''; key = api.idempotencyKey(); }
          throw err;
        }
      },
      // Back to the sale, refreshed: its refunds and what is left.
      onClose: () => void open(sale.id),
    });
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    async load() {
      const query = { limit: state.limit, offset: state.offset, from: state.day, to: state.day };
      const [, page] = await Promise.all([loadProfile(), api.list('/store/sales', query)]);
      if (page.items.length === 0 && state.offset > 0) {
        state.offset = 0;
        ctx.refresh();
        return;
      }
      replace(results,
        table(state.day ? `Sales of ${state.day}, newest first` : 'Sales, newest first',
          ['Sale', 'Sold', 'Till', 'Rung up by', { label: 'Lines', class: 'num' }, { label: 'Total', class: 'num' }, 'Payment', { label: 'Refunded', class: 'num' }, 'Actions'],
          /** @type {Sale[]} */ (page.items).map(row), state.day ? 'No sales that day.' : 'No sales yet.'),
        pager({ offset: state.offset, limit: state.limit, total: page.total, label: 'sales', onChange: (n) => { state.offset = n; ctx.refresh(); } }),
      );
      if (asked !== null) {
        const id = asked;
        asked = null;
        void open(id);
      }
    },
  };
  return view;
}
