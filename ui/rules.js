//! The stock rules every page applies the same way: when stock is low, when a pet's status and
//! stock disagree, and when a typed count deserves a second look. Pure: no DOM, unit-tested.

/**
 * @typedef {import('./types.js').InventoryItem} InventoryItem
 * @typedef {import('./types.js').Pet} Pet
 */

/**
 * Low stock, one rule everywhere: an item is low when it has a reorder point and its quantity
 * is at or below it. Without a reorder point it is never "low" (a sold puppy at 0 is not a
 * reorder), only "out" at 0.
 * @param {Pick<InventoryItem, 'quantity' | 'reorderPoint'> | undefined} item
 */
export function isLow(item) {
  return item !== undefined && typeof item.reorderPoint === 'number' && item.quantity <= item.reorderPoint;
}

/**
 * Whether a pet's status and its stock disagree in a way a clerk should fix: sold or pending
 * with units on the shelf (it cannot be sold), or available with none (tills offer it).
 * @param {Pet['status']} status
 * @param {number | undefined} qty
 * @returns {'sellable-but-blocked' | 'available-but-empty' | null}
 */
export function mismatch(status, qty) {
  if (qty === undefined) return null;
  if ((status === 'sold' || status === 'pending') && qty > 0) return 'sellable-but-blocked';
  if (status === 'available' && qty === 0) return 'available-but-empty';
  return null;
}

/**
 * A count is worth a second look when it is more than ten times the old one, or 500 more.
 * @param {number | undefined} before
 * @param {number} after
 */
export function unlikelyCount(before, after) {
  if (before === undefined) return after > 500;
  return after - before >= 500 || (before > 0 && after > before * 10);
}

