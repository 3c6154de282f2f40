//! Receiving a delivery by scan: the keyboard sits in a scan box; each scan of a line's barcode
//! (or SKU) counts one more of it, or the "units per scan" typed before it (a case), and each
//! line's count can also be typed. "Receive" posts the counts with an Idempotency-Key that is
//! kept until the server answers, so a retry after a lost answer never adds the units twice.
//! The server refuses more than is left on a line (`over_receipt`); its refusal is shown and
//! the counts stay for correction. The pure part (which line a code names, the body to send)
//! is in receipt.js, unit-tested in node.

import * as api from './api.js';
import { h, field, uid, replace } from './dom.js';
import { notify } from './notify.js';
import { explain } from './messages.js';
import { plural } from './format.js';
import { lineFor, receiptBody } from './receipt.js';

/**
 * @typedef {import('./stockroom.js').PurchaseOrder} PurchaseOrder
 * @typedef {import('./types.js').Pet} Pet
 */

/**
 * @param {object} o
 * @param {PurchaseOrder} o.order
 * @param {Map<number, Pet>} o.pets
 * @param {() => void} o.onReceived
 */
export function receivePanel(o) {
  let order = o.order;
  const petIds = order.lines.map((l) => l.petId);
  /** @type {Map<number, number>} */
  const counts = new Map();
  /** The key of the receipt being sent; a new one once counts change after an answer. */
  let key = '';
  /** @param {number} id */
  const nameOf = (id) => o.pets.get(id)?.name ?? `Pet #${id}`;

  const scan = /** @type {HTMLInputElement} */ (h('input', {
    id: 'receive-scan', type: 'text', inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false',
    placeholder: 'Scan each item', enterkeyhint: 'go', class: 'scan-input', 'data-focus-key': 'receive-scan',
  }));
  const per = /** @type {HTMLInputElement} */ (h('input', {
    id: uid('receive-per'), type: 'number', inputmode: 'numeric', min: '1', max: '1000000', step: '1', value: '1', class: 'num-input',
  }));
  per.addEventListener('focus', () => per.select());
  // Enter in the case box goes back to scanning with that many per scan.
  per.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); scan.focus(); } });
  const said = h('p', { class: 'scan-status', role: 'status', id: 'receive-status' });
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true, id: 'receive-error' });
  const tbody = h('tbody', {});
  const total = h('span', { id: 'receive-total' });
  const button = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'btn btn-primary', id: 'receive-submit', onclick: () => void submit() }, 'Receive'));

  /** @param {number} id @param {number} n */
  function setCount(id, n) {
    if (n > 0) counts.set(id, n);
    else counts.delete(id);
    key = '';
    error.hidden = true;
    draw();
  }

  /**
   * Each line's row, made once and then updated in place: a redraw (an event, another
   * device receiving) never takes the keyboard out of a count box nor drops what is being
   * typed in it. A box being typed in (`typing`) keeps its text until Enter or leaving it.
   * @type {Map<number, { tr: HTMLElement, input: HTMLInputElement, cells: HTMLElement[] }>}
   */
  const lineRows = new Map();
  /** @type {Set<number>} */
  const typing = new Set();

  /** @param {number} petId */
  function lineRow(petId) {
    const made = lineRows.get(petId);
    if (made) return made;
    const input = /** @type {HTMLInputElement} */ (h('input', {
      id: `receive-count-${petId}`, type: 'number', min: '0', max: '1000000', step: '1', value: '0', class: 'num-input',
      'aria-label': `${nameOf(petId)} in this delivery`, 'data-focus-key': `receive-count-${petId}`,
    }));
    input.addEventListener('focus', () => input.select());
    input.addEventListener('input', () => typing.add(petId));
    input.addEventListener('change', () => { typing.delete(petId); setCount(petId, Math.max(0, Math.floor(Number(input.value) || 0))); });
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); input.dispatchEvent(new Event('change')); scan.focus(); } });
    const cells = [h('td', { class: 'num' }), h('td', { class: 'num' }), h('td', { class: 'num', 'data-cell': 'left' }), h('td', { class: 'num muted', 'data-cell': 'after' })];
    const tr = h('tr', { 'data-pet-id': String(petId) },
      h('th', { scope: 'row' }, nameOf(petId)), cells[0], cells[1], cells[2], h('td', { class: 'num' }, input), cells[3]);
    const row = { tr, input, cells };
    lineRows.set(petId, row);
    return row;
  }

  function draw() {
    const rows = order.lines.map((l) => {
      const left = l.ordered - l.received;
      const n = counts.get(l.petId) ?? 0;
      const { tr, input, cells: [ordered, received, leftCell, after] } = lineRow(l.petId);
      tr.className = n > left ? 'over' : n > 0 ? 'counted' : '';
      ordered.textContent = String(l.ordered);
      received.textContent = String(l.received);
      leftCell.textContent = String(left);
      after.textContent = n > left ? `${n - left} too many` : String(left - n);
      input.disabled = left === 0;
      if (!typing.has(l.petId)) input.value = String(n);
      return tr;
    });
    if (rows.length !== tbody.children.length || rows.some((tr, i) => tbody.children[i] !== tr)) replace(tbody, rows);
    const sum = [...counts.values()].reduce((a, b) => a + b, 0);
    replace(total, sum ? `${plural(sum, 'unit')} counted in this delivery.` : 'Nothing counted yet.');
    button.disabled = sum === 0;
  }

  scan.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || e.isComposing) return;
    e.preventDefault();
    const code = scan.value.trim();
    scan.value = '';
    if (!code) return;
    const id = lineFor(code, petIds, o.pets);
    if (id === null) {
      said.textContent = `${code} is not on this order. Put it aside.`;
      said.dataset.kind = 'miss';
      return;
    }
    const step = Math.max(1, Math.floor(Number(per.value) || 1));
    per.value = '1';
    setCount(id, (counts.get(id) ?? 0) + step);
    const line = order.lines.find((l) => l.petId === id);
    const left = line ? line.ordered - line.received : 0;
    const n = counts.get(id) ?? 0;
    said.textContent = `${nameOf(id)}: ${n} of ${left} left to receive${n > left ? ' — more than is left!' : ''}.`;
    said.dataset.kind = n > left ? 'over' : 'hit';
  });

  async function submit() {
    const body = receiptBody(petIds, counts);
    if (body.lines.length === 0) return;
    key ||= api.idempotencyKey();
    button.disabled = true;
    button.textContent = 'Receiving…';
    error.hidden = true;
    try {
      const after = /** @type {PurchaseOrder} */ (await api.post(`/store/purchase-orders/${order.id}/receive`, body, { 'Idempotency-Key': key }));
      const n = body.lines.reduce((a, l) => a + l.quantity, 0);
      counts.clear();
      key = '';
      order = after ?? order;
      notify(after?.status === 'received'
        ? `Received ${plural(n, 'unit')}: purchase order #${order.number} is complete.`
        : `Received ${plural(n, 'unit')} into stock. The rest of #${order.number} stays open.`, 'ok');
      draw();
      o.onReceived();
    } catch (err) {
      error.textContent = receiveError(err);
      error.hidden = false;
    } finally {
      button.textContent = 'Receive';
      button.disabled = counts.size === 0;
    }
  }

  /** @param {unknown} err */
  function receiveError(err) {
    const e = /** @type {{ code?: string, message?: string }} */ (err ?? {});
    if (e.code === 'over_receipt') {
      const m = /(\d+) of pet (\d+) may still be received; (\d+) arrived/.exec(e.message ?? '');
      if (m) return `Only ${m[1]} ${nameOf(Number(m[2]))} ${m[1] === '1' ? 'is' : 'are'} left to receive on this order, not ${m[3]}. Correct the count (the extra units are not on the order), then Receive again.`;
      return 'That is more than is left to receive on this order. Correct the counts, then Receive again.';
    }
    if (e.code === 'purchase_order_closed') return 'This order is already received or cancelled: nothing more can be received on it.';
    return explain(err);
  }

  draw();
  const el = h('section', { class: 'receive', 'aria-labelledby': 'receive-title', id: 'receive' },
    h('h3', { id: 'receive-title' }, 'Receive a delivery'),
    h('p', { class: 'hint' }, 'Scan each item as it comes out of the box: each scan counts one. For a case, type how many it holds in “Units per scan”, then scan it once. Counts can also be typed in the table.'),
    h('div', { class: 'toolbar' }, field('Scan', scan), field('Units per scan', per)),
    said,
    h('div', { class: 'table-wrap' }, h('table', {}, h('caption', { class: 'sr-only' }, 'What arrived in this delivery'),
      h('thead', {}, h('tr', {},
        h('th', { scope: 'col' }, 'Pet'), h('th', { scope: 'col', class: 'num' }, 'Ordered'), h('th', { scope: 'col', class: 'num' }, 'Received'),
        h('th', { scope: 'col', class: 'num' }, 'Left'), h('th', { scope: 'col', class: 'num' }, 'In this delivery'), h('th', { scope: 'col', class: 'num' }, 'Left after'))),
      tbody)),
    error,
    h('div', { class: 'receive-actions' }, total, button));

  return {
    el,
    orderId: order.id,
    focus: () => scan.focus(),
    /** The order as the server now has it (another device received some): counts stay. @param {PurchaseOrder} next */
    update(next) {
      order = next;
      draw();
    },
  };
}
