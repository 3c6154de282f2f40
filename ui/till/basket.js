//! The basket on the till: its lines (a pet as the till knows it, the units, the discount),
//! changed only through these functions, each answering a new basket. Pure (it imports only the
//! contract's facts).

import { BOUNDS } from '../facts.js';

/**
 * The part of a pet the till keeps and sells from (its catalogue copy).
 * @typedef {object} TillItem
 * @property {number} id
 * @property {string} name
 * @property {string} [sku]
 * @property {string} [barcode]
 * @property {number} [price]     minor units; none: not for sale
 * @property {number} [taxRate]   basis points; none: the store's default
 * @property {string} [status]
 * @property {boolean} [animal]   an individual animal: the sale needs its buyer
 * @property {string} [holdUntil] on hold until the end of this date
 */

/**
 * @typedef {object} BasketLine
 * @property {TillItem} item
 * @property {number} quantity
 * @property {number} discount  minor units
 */

/** The most units of one line (as the store takes them). */
export const QUANTITY_MAX = BOUNDS.quantity.max;

/**
 * The basket with one more of `item`: its line's quantity goes up, or a new line at the end.
 * @param {BasketLine[]} basket
 * @param {TillItem} item
 * @returns {BasketLine[]}
 */
export function addItem(basket, item) {
  const at = basket.findIndex((l) => l.item.id === item.id);
  if (at < 0) return [...basket, { item, quantity: 1, discount: 0 }];
  // An individual animal is one: scanning it again does not sell two.
  if (item.animal) return basket;
  return setQuantity(basket, item.id, basket[at].quantity + 1);
}

/**
 * The basket with a line's quantity set (1 to QUANTITY_MAX; 0 or less removes the line). A
 * discount larger than the new line is cut to it.
 * @param {BasketLine[]} basket
 * @param {number} id
 * @param {number} quantity
 * @returns {BasketLine[]}
 */
export function setQuantity(basket, id, quantity) {
  if (!Number.isInteger(quantity)) return basket;
  if (quantity <= 0) return removeLine(basket, id);
  const q = Math.min(quantity, QUANTITY_MAX);
  return basket.map((l) => {
    if (l.item.id !== id) return l;
    const quantity = l.item.animal ? 1 : q;
    return { ...l, quantity, discount: Math.min(l.discount, (l.item.price ?? 0) * quantity) };
  });
}

/**
 * @param {BasketLine[]} basket
 * @param {number} id
 * @returns {BasketLine[]}
 */
export function removeLine(basket, id) {
  return basket.filter((l) => l.item.id !== id);
}

/**
 * The basket with a line's discount set, kept between 0 and the line's price × quantity.
 * @param {BasketLine[]} basket
 * @param {number} id
 * @param {number} discount
 * @returns {BasketLine[]}
 */
export function setDiscount(basket, id, discount) {
  return basket.map((l) => (l.item.id !== id ? l
    : { ...l, discount: Math.max(0, Math.min(Math.round(discount), (l.item.price ?? 0) * l.quantity)) }));
}

/**
 * The lines as the arithmetic takes them, with the store's default rate where the pet has none.
 * @param {BasketLine[]} basket
 * @param {number} defaultTaxRate
 */
export function moneyLines(basket, defaultTaxRate) {
  return basket.map((l) => ({
    unitPrice: l.item.price ?? 0,
    quantity: l.quantity,
    discount: l.discount,
    taxRate: l.item.taxRate ?? defaultTaxRate,
  }));
}

/**
 * The sale's `lines` as `POST /store/sales` takes them.
 * @param {BasketLine[]} basket
 */
export function saleLines(basket) {
  return basket.map((l) => (l.discount > 0
    ? { petId: l.item.id, quantity: l.quantity, discount: l.discount }
    : { petId: l.item.id, quantity: l.quantity }));
}

/** Whether the basket holds an individual animal (the sale needs its buyer). @param {BasketLine[]} basket */
export function needsBuyer(basket) {
  return basket.some((l) => l.item.animal);
}

/**
 * The items a scanned or typed code names: an exact barcode or SKU first (case-insensitive
 * for a SKU), else those whose name contains the text, at most `max`.
 * @param {TillItem[]} items
 * @param {string} text
 * @param {number} [max]
 * @returns {{ exact: TillItem | null, matches: TillItem[] }}
 */
export function lookup(items, text, max = 8) {
  const t = text.trim();
  if (!t) return { exact: null, matches: [] };
  const lower = t.toLowerCase();
  const exact = items.find((i) => i.barcode === t) ?? items.find((i) => i.sku?.toLowerCase() === lower) ?? null;
  if (exact) return { exact, matches: [exact] };
  const matches = items.filter((i) => i.name.toLowerCase().includes(lower) || i.sku?.toLowerCase().includes(lower)).slice(0, max);
  return { exact: null, matches };
}
