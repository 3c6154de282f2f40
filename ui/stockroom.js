//! The stockroom's parts that other pages use: the supplier and purchase order records as
//! JSDoc types, the suppliers' names (fetched once, forgotten when one changes), the Add/Edit
//! pet fields for supplier, cost and reorder quantity, and "Print labels" (the server's SVG
//! sheet opened in the browser's print dialog).

import * as api from './api.js';
import { h, field, uid, select } from './dom.js';
import { openDialog } from './dialog.js';
import { formatPrice, parsePrice, priceInput, currentProfile } from './money.js';

/**
 * @typedef {object} Supplier
 * @property {number} id
 * @property {string} name
 * @property {string | null} [contact]
 * @property {string | null} [phone]
 * @property {string | null} [email]
 * @property {string | null} [note]
 */

/**
 * @typedef {object} PurchaseOrderLine
 * @property {number} petId
 * @property {number} ordered
 * @property {number} received
 * @property {number} cost
 */

/**
 * @typedef {'draft' | 'sent' | 'partial' | 'received' | 'cancelled'} PurchaseOrderStatus
 * @typedef {object} PurchaseOrder
 * @property {number} id
 * @property {number} number
 * @property {number} supplierId
 * @property {PurchaseOrderStatus} status
 * @property {PurchaseOrderLine[]} lines
 * @property {number} total
 * @property {string | null} [note]
 * @property {string} createdAt
 * @property {string | null} [sentAt]
 * @property {string | null} [closedAt]
 */

/**
 * A pet's stockroom fields (interface 1.2), absent on older servers' answers.
 * @typedef {import('./types.js').Pet & { supplierId?: number | null, cost?: number | null, reorderQuantity?: number | null }} StockroomPet
 */

/** @type {Promise<Map<number, string>> | null} */
let supplierCache = null;

/**
 * Supplier names by id, fetched once and kept until a supplier is added, changed or deleted.
 * @returns {Promise<Map<number, string>>}
 */
export function supplierNames() {
  if (!supplierCache) {
    const p = api.listAll('/store/suppliers', {}, 1000).then((all) => new Map(all.map((/** @type {Supplier} */ s) => [s.id, s.name])));
    supplierCache = p;
    p.catch(() => { if (supplierCache === p) supplierCache = null; });
  }
  return supplierCache;
}

/** Forget the cached supplier names (one changed). */
export function invalidateSuppliers() {
  supplierCache = null;
}

/**
 * The Add/Edit pet dialog's stockroom fields: who supplies the pet, what one costs the shop
 * and how many to order when it runs low. `read(values)` turns the submitted form into the
 * body's fields (on an edit, an emptied field is sent as null, which clears it), or throws a
 * plain sentence for a cost that is not an amount.
 * @param {StockroomPet | null} pet
 */
export async function petStockFields(pet) {
  /** @type {Map<number, string>} */
  let names = new Map();
  try {
    names = await supplierNames();
  } catch {
    // Without the list the pet still saves; the supplier is left as it is.
  }
  const currency = currentProfile().currency;
  const supplier = select(
    { id: uid('pet-supplier'), name: 'supplierId' },
    [['', 'None'], ...[...names].map(([id, n]) => /** @type {[string, string]} */ ([String(id), n]))],
    pet?.supplierId ? String(pet.supplierId) : '',
  );
  const cost = h('input', { id: uid('pet-cost'), name: 'cost', type: 'text', inputmode: 'decimal', autocomplete: 'off', value: priceInput(pet?.cost ?? undefined), placeholder: formatPrice(0) });
  const reorder = h('input', { id: uid('pet-reorder-qty'), name: 'reorderQuantity', type: 'number', inputmode: 'numeric', min: '1', max: '1000000', step: '1', value: pet?.reorderQuantity ? String(pet.reorderQuantity) : '' });
  const fields = [
    field('Supplier', supplier, names.size ? 'Who you buy it from (Suppliers page).' : 'Add suppliers on the Suppliers page to choose one here.'),
    field(`Cost (${currency})`, cost, 'What one costs the shop. Optional.'),
    field('Reorder quantity', reorder, 'How many to order when it runs low. Empty: enough to reach twice its reorder point.'),
  ];
  /** @param {Record<string, string>} v @returns {Record<string, number | null>} */
  const read = (v) => {
    const cents = parsePrice(v.cost ?? '');
    if (Number.isNaN(cents)) throw new Error(`The cost "${v.cost}" is not an amount in ${currency}.`);
    const qty = v.reorderQuantity ? Number(v.reorderQuantity) : null;
    /** @type {Record<string, number | null>} */
    const out = { supplierId: v.supplierId ? Number(v.supplierId) : null, cost: cents, reorderQuantity: qty };
    if (!pet) for (const k of Object.keys(out)) if (out[k] === null) delete out[k];
    return out;
  };
  return { fields, read };
}

/**
 * Open the label sheet of `ids` (each `copies` times) in a new window, and print it there.
 * The SVG comes through the API module (the key is never in a URL); the window shows it as
 * an image sized for A4, and opens the print dialog once it has drawn.
 * @param {number[]} ids
 * @param {number} copies
 */
export async function printLabels(ids, copies) {
  // Opened before the fetch, while the click still counts as the user's: pop-up blockers allow it.
  const win = window.open('', '_blank');
  try {
    const blob = await api.download('/store/labels.svg', { ids: ids.join(','), copies }, 'image/svg+xml');
    const svg = await blob.text();
    if (!win) throw new Error('The browser blocked the label window. Allow pop-ups for this page and try again.');
    const doc = win.document;
    doc.title = `Shelf labels (${ids.length} × ${copies})`;
    const style = doc.createElement('style');
    style.textContent = '@page { size: A4; margin: 0 } body { margin: 0 } svg { display: block; width: 210mm; height: auto }';
    doc.head.append(style);
    const holder = doc.createElement('div');
    holder.id = 'labels';
    // The server's own drawing (names are escaped there); parsed as SVG, never run as a page.
    const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml').documentElement;
    holder.append(doc.importNode(parsed, true));
    doc.body.append(holder);
    win.setTimeout(() => win.print(), 100);
  } catch (err) {
    win?.close();
    throw err;
  }
}

/**
 * "Print labels": choose among `pets` (all ticked), how many copies of each, then print.
 * @param {import('./types.js').Pet[]} pets
 * @param {number} [first]  the copies offered at first (1–50)
 */
export function openPrintLabels(pets, first = 1) {
  const boxes = pets.map((p) => {
    const id = uid('label-pet');
    const box = h('input', { id, type: 'checkbox', name: 'pet', value: String(p.id), checked: true, disabled: !p.sku && !p.barcode });
    return h('div', { class: 'check' }, box, h('label', { for: id }, p.name, p.sku || p.barcode ? h('span', { class: 'muted' }, ` ${p.barcode ?? p.sku}`) : h('span', { class: 'muted' }, ' (no barcode or SKU: no label)')));
  });
  const copies = h('input', { id: uid('label-copies'), name: 'copies', type: 'number', inputmode: 'numeric', min: '1', max: '50', step: '1', value: String(first), required: true });
  openDialog({
    title: 'Print shelf labels',
    body: [
      h('fieldset', { class: 'check-list' }, h('legend', {}, 'Pets'), pets.length ? boxes : h('p', {}, 'No pets on this page.')),
      field('Copies of each', copies, 'From 1 to 50.'),
    ],
    submitLabel: 'Print labels',
    onSubmit: async (form) => {
      const ids = [...form.querySelectorAll('input[name="pet"]:checked')].map((b) => Number(/** @type {HTMLInputElement} */ (b).value));
      if (ids.length === 0) throw new Error('Tick at least one pet with a barcode or SKU.');
      const n = Number(/** @type {HTMLInputElement} */ (copies).value);
      if (!Number.isInteger(n) || n < 1 || n > 50) throw new Error('Copies of each: a whole number from 1 to 50.');
      await printLabels(ids, n);
    },
  });
}
