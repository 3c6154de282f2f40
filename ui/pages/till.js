//! The Till: the screen a clerk sells from with a customer waiting. Scan-first (the keyboard
//! sits in the scan box; a scanner types the code and Enter), a basket with big + / −, the
//! running total as the store will charge it, paying in cash, card, other or split, and the
//! receipt. The catalogue is a copy kept on the device and every sale goes through the
//! outbox, so selling goes on while the store cannot be reached. Built on the public
//! interface only (`POST /store/sales`, `/store/shifts`): the reference a POS developer reads.

import { h, replace, uid } from '../dom.js';
import { notify, notifyError } from '../notify.js';
import { confirmAction } from '../dialog.js';
import { formatPrice, minorDigits, parsePrice, loadProfile } from '../money.js';
import { plural } from '../format.js';
import * as B from '../till/basket.js';
import { basketMoney, lineMoney, paymentState, quickAmounts } from '../till/sum.js';
import * as catalogue from '../till/catalogue.js';
import * as outbox from '../till/outbox.js';
import { printReceipt } from '../till/print.js';
import { tillName, openShiftOf, openShiftDialog, closeShiftDialog } from '../till/shift.js';
import { kvGet, kvSet } from '../till/device.js';
import { installShell } from '../till/shell.js';

/**
 * @typedef {import('../refresh.js').PageContext} PageContext
 * @typedef {import('../till/basket.js').BasketLine} BasketLine
 * @typedef {import('../till/basket.js').TillItem} TillItem
 * @typedef {{ method: 'cash' | 'card' | 'other', amount: number }} Payment
 */

export const title = 'Till';
export const watches = ['pet.', 'inventory.', 'store.profile', 'shift.'];

const METHODS = /** @type {const} */ ([['cash', 'Cash'], ['card', 'Card'], ['other', 'Other']]);

/** The till's own styles, loaded once with the page. */
function loadStyles() {
  if (document.querySelector('link[data-till-css]')) return;
  document.head.append(h('link', { rel: 'stylesheet', href: '/ui/till/till.css', 'data-till-css': true }));
}

/** @param {PageContext} ctx */
export function mount(ctx) {
  loadStyles();
  /** @type {import('../till/catalogue.js').Catalogue | null} */
  let cat = null;
  /** @type {BasketLine[]} */
  let basket = [];
  /** @type {'basket' | 'paying' | 'done'} */
  let stage = 'basket';
  /** @type {Payment[]} */
  let payments = [];
  /** @type {'cash' | 'card' | 'other'} */
  let method = 'cash';
  /** @type {{ sale: any } | { waiting: true, total: number, change: number } | null} */
  let done = null;
  /** @type {any} */
  let shift = null;
  let selling = false;
  const buyer = { name: '', phone: '', email: '' };

  const scan = /** @type {HTMLInputElement} */ (h('input', {
    id: 'till-scan', type: 'text', autocomplete: 'off', spellcheck: 'false', enterkeyhint: 'go',
    placeholder: 'Scan a code, or type a name', class: 'till-scan-input', 'data-search': true, 'data-focus-key': 'till-scan',
  }));
  const scanSay = h('p', { class: 'till-scan-say', role: 'status', 'aria-live': 'polite' });
  const matches = h('div', { class: 'till-matches' });
  const lines = h('div', { class: 'till-lines' });
  const side = h('aside', { class: 'till-side', 'aria-label': 'Total and paying' });
  const shiftBox = h('div', { class: 'till-shift' });
  const waitBox = h('div', { class: 'till-waiting', role: 'status' });
  const refusedBox = h('div', { class: 'till-refused' });

  const el = h('section', { class: 'page till' },
    h('div', { class: 'till-bar' }, h('h1', { tabindex: '-1' }, 'Till'), shiftBox, waitBox),
    refusedBox,
    h('div', { class: 'till-body' },
      h('div', { class: 'till-left' },
        h('div', { class: 'till-scan' }, h('label', { for: 'till-scan' }, 'Scan or search'), scan, scanSay, matches),
        h('h2', { class: 'sr-only' }, 'Basket'),
        lines),
      side));

  const profile = () => cat?.profile ?? { name: '', currency: 'USD', taxIncluded: true, defaultTaxRate: 0 };
  const money = () => basketMoney(B.moneyLines(basket, profile().defaultTaxRate), profile().taxIncluded);
  const unit = () => 10 ** minorDigits();
  const focusScan = () => { if (!document.querySelector('dialog[open]')) scan.focus(); };

  // ---- scanning and searching ----
  /** @param {TillItem} item */
  function add(item) {
    if (typeof item.price !== 'number') {
      scanSay.textContent = `${item.name} has no price yet, so it cannot be sold. A staff member sets its price on the Pets page.`;
      return;
    }
    if (item.holdUntil && item.holdUntil >= new Date().toISOString().slice(0, 10)) {
      scanSay.textContent = `${item.name} is on hold until ${item.holdUntil}.`;
      return;
    }
    if (stage === 'done') newSale();
    if (stage === 'paying' && payments.length === 0) stage = 'basket';
    if (stage === 'paying') {
      scanSay.textContent = 'A payment is already taken: finish this sale, or take the payment back first.';
      return;
    }
    const before = basket.find((l) => l.item.id === item.id)?.quantity ?? 0;
    basket = B.addItem(basket, item);
    const after = basket.find((l) => l.item.id === item.id)?.quantity ?? 0;
    scanSay.textContent = after === before ? `${item.name} is one animal: it is already in the basket.`
      : after > 1 ? `${item.name}: ${after} in the basket.` : `Added ${item.name}.`;
    replace(matches);
    draw();
  }

  function onScan() {
    const text = scan.value.trim();
    if (!text) return;
    scan.value = '';
    const { exact, matches: found } = B.lookup(cat?.items ?? [], text);
    if (exact) return add(exact);
    if (found.length === 1) return add(found[0]);
    if (found.length === 0) {
      scanSay.textContent = cat ? `Nothing has the code or name “${text}”.` : 'The catalogue is not on this device yet: connect to the store once.';
      replace(matches);
      return;
    }
    scanSay.textContent = `${found.length} match “${text}”: choose one.`;
    replace(matches, h('ul', { class: 'till-match-list', 'aria-label': 'Matches' }, found.map((it) =>
      h('li', {}, h('button', { type: 'button', class: 'btn till-match', onclick: () => { add(it); focusScan(); } },
        h('span', {}, it.name), h('span', { class: 'muted' }, formatPrice(it.price)))))));
  }
  scan.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.isComposing) return;
    e.preventDefault();
    onScan();
  });

  // ---- the basket ----
  function drawLines() {
    if (basket.length === 0) {
      replace(lines, h('p', { class: 'till-empty muted' }, stage === 'done' ? 'Scan the next item to start a new sale.' : 'The basket is empty. Scan an item to start.'));
      return;
    }
    const p = profile();
    replace(lines, h('ul', { class: 'till-basket', 'aria-label': 'Basket' }, basket.map((l) => {
      const m = lineMoney({ unitPrice: l.item.price ?? 0, quantity: l.quantity, discount: l.discount, taxRate: l.item.taxRate ?? p.defaultTaxRate }, p.taxIncluded);
      const qtyId = uid('qty');
      const qty = /** @type {HTMLInputElement} */ (h('input', { id: qtyId, type: 'number', min: '1', max: String(B.QUANTITY_MAX), inputmode: 'numeric', value: String(l.quantity), class: 'till-qty', disabled: stage !== 'basket' || l.item.animal }));
      // A tap selects the quantity, so the number typed replaces it; a field left empty (or not
      // a whole number) keeps the quantity it had, and 0 takes the line off.
      const typed = () => { basket = B.setQuantity(basket, l.item.id, qty.value.trim() === '' ? NaN : Number(qty.value)); draw(); };
      qty.addEventListener('focus', () => qty.select());
      qty.addEventListener('change', typed);
      qty.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); typed(); focusScan(); } });
      const locked = stage !== 'basket';
      return h('li', { class: 'till-line', 'data-pet': String(l.item.id) },
        h('div', { class: 'till-line-name' }, h('strong', {}, l.item.name), h('span', { class: 'muted small' }, `${formatPrice(l.item.price)} each`, l.item.animal ? ' · animal: needs its buyer' : '')),
        h('div', { class: 'till-line-qty' },
          h('button', { type: 'button', class: 'btn till-step', 'aria-label': `One fewer ${l.item.name}`, disabled: locked || l.quantity <= 1, onclick: () => { basket = B.setQuantity(basket, l.item.id, l.quantity - 1); draw(); } }, '−'),
          h('label', { for: qtyId, class: 'sr-only' }, `Quantity of ${l.item.name}`), qty,
          h('button', { type: 'button', class: 'btn till-step', 'aria-label': `One more ${l.item.name}`, disabled: locked || l.item.animal, onclick: () => { basket = B.setQuantity(basket, l.item.id, l.quantity + 1); draw(); } }, '+')),
        h('div', { class: 'till-line-total' }, h('strong', { 'data-line-total': true }, formatPrice(m.total)),
          l.discount > 0 ? h('span', { class: 'small till-discounted' }, `−${formatPrice(l.discount)} discount`) : null),
        h('div', { class: 'till-line-actions' },
          ctx.can('edit') ? h('button', { type: 'button', class: 'btn btn-small', disabled: locked, onclick: () => askDiscount(l) }, 'Discount') : null,
          h('button', { type: 'button', class: 'btn btn-small btn-danger-quiet', disabled: locked, 'aria-label': `Remove ${l.item.name}`, onclick: () => { basket = B.removeLine(basket, l.item.id); draw(); focusScan(); } }, 'Remove')));
    })));
  }

  /** A line's discount, typed as an amount (staff and up). @param {BasketLine} l */
  function askDiscount(l) {
    const id = uid('disc');
    const input = /** @type {HTMLInputElement} */ (h('input', { id, type: 'text', inputmode: 'decimal', autocomplete: 'off', value: l.discount ? String(l.discount / unit()) : '' }));
    confirmAction({
      title: `Discount on ${l.item.name}`,
      message: `Up to ${formatPrice((l.item.price ?? 0) * l.quantity)} off this line. 0 takes the discount away.`,
      extra: [h('div', { class: 'field' }, h('label', { for: id }, 'Amount off the line'), input)],
      confirmLabel: 'Set discount',
      cancelLabel: 'Keep the price',
      offer: true,
      onConfirm: async () => {
        const v = parsePrice(input.value);
        if (v !== null && Number.isNaN(v)) throw new Error('Type the discount as an amount, like 2 or 2.50.');
        basket = B.setDiscount(basket, l.item.id, v ?? 0);
        draw();
      },
    });
    setTimeout(() => input.focus(), 0);
  }

  // ---- the side: totals, paying, the sale done ----
  function totalsBlock() {
    const m = money();
    const p = profile();
    return h('dl', { class: 'till-totals' },
      m.discount > 0 ? [h('dt', {}, 'Before discounts'), h('dd', {}, formatPrice(m.subtotal)), h('dt', {}, 'Discounts'), h('dd', {}, `−${formatPrice(m.discount)}`)] : null,
      h('dt', {}, p.taxIncluded ? 'Tax included' : 'Tax'), h('dd', { 'data-tax': true }, formatPrice(m.tax)),
      h('dt', { class: 'till-total-label' }, 'Total'), h('dd', { class: 'till-total', 'data-total': String(m.total) }, formatPrice(m.total)));
  }

  function drawSide() {
    if (stage === 'done' && done) return drawDone();
    if (stage === 'paying') return drawPaying();
    const empty = basket.length === 0;
    replace(side,
      totalsBlock(),
      h('button', { type: 'button', class: 'btn btn-primary till-pay', disabled: empty, onclick: startPaying }, empty ? 'Pay' : `Pay ${formatPrice(money().total)}`),
      h('button', { type: 'button', class: 'btn btn-danger-quiet btn-wide', disabled: empty, onclick: voidBasket }, 'Void the basket'));
  }

  function startPaying() {
    stage = 'paying';
    payments = [];
    method = 'cash';
    draw();
    /** @type {HTMLElement | null} */ (side.querySelector('.till-quick button, .till-take'))?.focus();
  }

  function voidBasket() {
    confirmAction({
      title: 'Void this basket?',
      message: `${plural(basket.length, 'line')} for ${formatPrice(money().total)} are taken off. Nothing has been paid or sold yet.`,
      confirmLabel: 'Void the basket',
      cancelLabel: 'Keep the basket',
      onConfirm: async () => { basket = []; stage = 'basket'; payments = []; scanSay.textContent = 'Basket voided.'; draw(); setTimeout(focusScan, 0); },
    });
  }

  function drawPaying() {
    const total = money().total;
    const st = paymentState(total, payments);
    const amountId = uid('amount');
    const amount = /** @type {HTMLInputElement} */ (h('input', { id: amountId, type: 'text', inputmode: 'decimal', autocomplete: 'off', class: 'till-amount', value: (st.remaining / unit()).toFixed(minorDigits()) }));
    amount.addEventListener('focus', () => amount.select());
    amount.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); take(amount.value); } });
    /** @param {string} k */
    const key = (k) => {
      if (k === 'clear') amount.value = '';
      else if (k === 'back') amount.value = amount.value.slice(0, -1);
      else amount.value = (amount.dataset.typed ? amount.value : '') + k;
      amount.dataset.typed = k === 'clear' ? '' : '1';
    };
    const keypad = h('div', { class: 'till-keypad', role: 'group', 'aria-label': 'Amount keypad' },
      ['7', '8', '9', '4', '5', '6', '1', '2', '3', '00', '0', '.'].map((k) => h('button', { type: 'button', class: 'btn till-key', onclick: () => key(k) }, k)),
      h('button', { type: 'button', class: 'btn till-key', 'aria-label': 'Delete the last digit', onclick: () => key('back') }, '⌫'),
      h('button', { type: 'button', class: 'btn till-key', onclick: () => key('clear') }, 'Clear'));
    const quick = method === 'cash' && st.remaining > 0
      ? h('div', { class: 'till-quick', role: 'group', 'aria-label': 'Cash given' },
        quickAmounts(st.remaining, unit()).map((a, i) => h('button', { type: 'button', class: i === 0 ? 'btn btn-primary till-quick-btn' : 'btn till-quick-btn', onclick: () => addPayment('cash', a) }, i === 0 ? `Exact ${formatPrice(a)}` : formatPrice(a))))
      : null;
    const needBuyer = B.needsBuyer(basket);
    replace(side,
      totalsBlock(),
      payments.length ? h('ul', { class: 'till-payments', 'aria-label': 'Payments taken' }, payments.map((p, i) => h('li', {},
        h('span', {}, `${METHODS.find(([m]) => m === p.method)?.[1]} ${formatPrice(p.amount)}`),
        h('button', { type: 'button', class: 'btn btn-small', disabled: selling, onclick: () => { payments = payments.filter((_, j) => j !== i); draw(); } }, 'Take back')))) : null,
      h('p', { class: 'till-due' }, 'To pay ', h('strong', { 'data-due': String(st.remaining) }, formatPrice(st.remaining))),
      needBuyer ? buyerForm() : null,
      h('div', { class: 'till-methods', role: 'group', 'aria-label': 'Payment method' }, METHODS.map(([m, label]) =>
        h('button', { type: 'button', class: m === method ? 'btn till-method on' : 'btn till-method', 'aria-pressed': String(m === method), onclick: () => { method = m; draw(); } }, label))),
      quick,
      h('div', { class: 'field till-amount-field' }, h('label', { for: amountId }, method === 'cash' ? 'Cash given' : `Amount by ${method}`), amount),
      keypad,
      h('button', { type: 'button', class: 'btn btn-primary till-take', disabled: selling, onclick: () => take(amount.value) }, `Take ${METHODS.find(([m]) => m === method)?.[1].toLowerCase()}`),
      h('button', { type: 'button', class: 'btn btn-wide', disabled: selling, onclick: () => { stage = 'basket'; payments = []; draw(); focusScan(); } }, 'Back to the basket'));
  }

  function buyerForm() {
    /** @param {'name' | 'phone' | 'email'} k @param {string} label @param {string} type */
    const f = (k, label, type) => {
      const id = uid(`buyer-${k}`);
      const input = /** @type {HTMLInputElement} */ (h('input', { id, type, value: buyer[k], autocomplete: 'off', 'data-buyer': k }));
      input.addEventListener('input', () => { buyer[k] = input.value; });
      return h('div', { class: 'field' }, h('label', { for: id }, label), input);
    };
    return h('fieldset', { class: 'till-buyer' }, h('legend', {}, 'The buyer of the animal (the law asks for it)'),
      f('name', 'Buyer’s name', 'text'), f('phone', 'Phone', 'tel'), f('email', 'Or email', 'email'));
  }

  /** @param {string} text */
  function take(text) {
    const v = parsePrice(text);
    if (v === null || Number.isNaN(v) || v <= 0) {
      notify('Type the amount taken, like 20 or 20.00.', 'error');
      return;
    }
    addPayment(method, v);
  }

  /** @param {'cash' | 'card' | 'other'} m @param {number} amount */
  function addPayment(m, amount) {
    const total = money().total;
    const next = [...payments, { method: m, amount }];
    if (paymentState(total, next).nonCashOver) {
      notify(`Only cash can be more than what is due: take at most ${formatPrice(paymentState(total, payments).remaining)} by ${m}.`, 'error');
      return;
    }
    payments = next;
    if (paymentState(total, payments).covered) void complete();
    else { method = 'cash'; draw(); }
  }

  async function complete() {
    if (selling) return;
    if (B.needsBuyer(basket) && (!buyer.name.trim() || (!buyer.phone.trim() && !buyer.email.trim()))) {
      payments = payments.slice(0, -1);
      draw();
      notify('An animal is in the basket: write the buyer’s name and a phone or an email first.', 'error');
      /** @type {HTMLElement | null} */ (side.querySelector('[data-buyer="name"]'))?.focus();
      return;
    }
    selling = true;
    draw();
    const till = tillName();
    const customer = B.needsBuyer(basket) || buyer.name.trim()
      ? Object.fromEntries(Object.entries({ name: buyer.name.trim(), phone: buyer.phone.trim(), email: buyer.email.trim() }).filter(([, v]) => v))
      : undefined;
    const body = {
      lines: B.saleLines(basket),
      payments: merged(payments),
      ...(customer ? { customer } : {}),
      ...(till ? { till } : {}),
      soldAt: new Date().toISOString(),
    };
    const m = money();
    const st = paymentState(m.total, payments);
    try {
      const res = await outbox.sell(body);
      done = 'sale' in res ? { sale: res.sale } : { waiting: true, total: m.total, change: st.change };
      scanSay.textContent = '';
      stage = 'done';
      basket = [];
      payments = [];
      buyer.name = ''; buyer.phone = ''; buyer.email = '';
    } catch (err) {
      payments = [];
      notifyError(err);
    } finally {
      selling = false;
      draw();
      focusScan();
    }
  }

  function drawDone() {
    if (!done) return;
    const sale = 'sale' in done ? done.sale : null;
    const change = sale ? sale.change : /** @type {any} */ (done).change;
    const total = sale ? sale.total : /** @type {any} */ (done).total;
    replace(side,
      h('div', { class: 'till-done', role: 'status' },
        h('p', { class: 'till-done-title' }, sale ? `Sale ${sale.number} done` : 'Sale kept on this device'),
        h('p', {}, `Total ${formatPrice(total)}`),
        change > 0 ? h('p', { class: 'till-change' }, 'Change ', h('strong', { 'data-change': String(change) }, formatPrice(change))) : h('p', { class: 'till-nochange' }, 'No change to give.'),
        sale ? null : h('p', { class: 'small' }, 'The store cannot be reached: this sale is sent by itself, with the time it was made, as soon as it answers. Its receipt can be printed from the Sales page then.')),
      sale ? h('button', { type: 'button', class: 'btn till-print', onclick: () => printReceipt(sale.id).catch(notifyError) }, 'Print receipt') : null,
      h('button', { type: 'button', class: 'btn btn-primary till-new', onclick: () => { newSale(); focusScan(); } }, 'New sale'),
      sale && ctx.can('edit') ? h('a', { class: 'btn btn-wide', href: `#/sales?sale=${sale.id}` }, 'Refund…') : null);
  }

  function newSale() {
    stage = 'basket';
    done = null;
    basket = [];
    payments = [];
    draw();
  }

  // ---- the shift and the waiting sales ----
  function drawShift() {
    const till = tillName();
    if (shift) {
      replace(shiftBox, h('span', {}, `${shift.till}: shift open`),
        h('button', { type: 'button', class: 'btn btn-small', onclick: () => closeShiftDialog(shift, () => { shift = null; void kvSet('shift', null).catch(() => {}); drawShift(); }) }, 'Close shift'));
    } else {
      replace(shiftBox, h('span', { class: 'muted' }, till ? `${till}: no shift open` : 'No shift open'),
        h('button', { type: 'button', class: 'btn btn-small', onclick: () => openShiftDialog((s) => { shift = s; void kvSet('shift', s).catch(() => {}); drawShift(); notify(`Shift open on ${s.till} with ${formatPrice(s.openingCash)} in the drawer.`, 'ok'); }) }, 'Open shift'));
    }
  }

  /** @param {import('../till/device.js').OutboxEntry[]} entries */
  function drawOutbox(entries) {
    const waiting = entries.filter((e) => e.state === 'waiting').length;
    const refused = entries.filter((e) => e.state === 'refused');
    const held = entries.filter((e) => e.state === 'held');
    waitBox.dataset.waiting = String(waiting);
    replace(waitBox, waiting ? h('span', { class: 'till-waiting-badge' }, `${plural(waiting, 'sale')} waiting to send`) : null);
    /** @param {import('../till/device.js').OutboxEntry[]} list */
    const listed = (list) => h('ul', {}, list.map((e) => h('li', {},
      `${new Date(e.body.soldAt).toLocaleString()}: ${e.body.lines.length} ${e.body.lines.length === 1 ? 'line' : 'lines'} — ${e.error ?? ''} `,
      h('button', { type: 'button', class: 'btn btn-small', onclick: () => { if (e.seq !== undefined) void outbox.dismiss(e.seq); } }, 'Dealt with'))));
    replace(refusedBox, refused.length || held.length ? h('div', { class: 'till-refused-box', role: 'alert' },
      refused.length ? [h('p', {}, h('strong', {}, `The store refused ${plural(refused.length, 'sale')} made while it could not be reached. Nothing was sold for ${refused.length === 1 ? 'it' : 'them'}; tell a manager:`)), listed(refused)] : null,
      // Sent again under another key, a sale the store did make would be made twice.
      held.length ? [h('p', {}, h('strong', {}, `${plural(held.length, 'sale')} kept on this device cannot be sent: the sign-in ${held.length === 1 ? 'it was' : 'they were'} rung up under has ended or its key was revoked. A manager checks on the Sales page whether each was made, rings up again any that was not, then chooses Dealt with:`)), listed(held)] : null) : null);
  }

  function draw() {
    drawLines();
    drawSide();
  }

  const stopWatching = outbox.watchOutbox(drawOutbox);
  const stopSending = outbox.keepSending();
  const onHash = () => { stopWatching(); stopSending(); window.removeEventListener('hashchange', onHash); };
  window.addEventListener('hashchange', onHash);

  draw();
  drawShift();
  // `data-shell` says whether this device can start the till while the store is away.
  void installShell().then((state) => { el.dataset.shell = state; });

  return {
    el,
    focus: focusScan,
    async load() {
      try {
        [cat] = await Promise.all([catalogue.refresh(), loadProfile()]);
        el.dataset.catalogue = 'fresh';
      } catch (err) {
        if (!outbox.isUnreachable(err)) throw err;
        cat = (await catalogue.kept()) ?? cat;
        el.dataset.catalogue = cat ? 'kept' : 'none';
      }
      const till = tillName();
      if (till) {
        try {
          shift = await openShiftOf(till);
          void kvSet('shift', shift).catch(() => {});
        } catch (err) {
          // Offline: the shift as the store last said, so the clerk sees it is still open.
          if (outbox.isUnreachable(err)) shift = (await kvGet('shift').catch(() => null)) ?? shift;
          else notifyError(err);
        }
      }
      drawShift();
      if (stage === 'basket') draw();
      void outbox.flush().catch(() => {});
    },
  };
}

/**
 * Payments of one method made into one (a card taken in two goes is one card payment), as
 * the store takes at most five.
 * @param {Payment[]} payments
 * @returns {Payment[]}
 */
function merged(payments) {
  /** @type {Payment[]} */
  const out = [];
  for (const p of payments) {
    const same = out.find((o) => o.method === p.method);
    if (same) same.amount += p.amount;
    else out.push({ ...p });
  }
  return out;
}
