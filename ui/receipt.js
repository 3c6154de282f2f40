//! Receiving by scan, the pure part: which line of a purchase order a scanned code names, and
//! the receipt's body from the counts. No imports and no DOM, so it is unit-tested in node.

/** @typedef {{ barcode?: string, sku?: string }} Coded  a pet, as far as a scan can match it */

/**
 * The line's pet a scanned code names (its barcode, else its SKU, ignoring case), or null.
 * @param {string} code
 * @param {number[]} petIds  the order's lines' pets
 * @param {Map<number, Coded>} pets
 * @returns {number | null}
 */
export function lineFor(code, petIds, pets) {
  const c = code.trim().toLowerCase();
  if (!c) return null;
  for (const id of petIds) {
    const p = pets.get(id);
    if (p && ((p.barcode && p.barcode.toLowerCase() === c) || (p.sku && p.sku.toLowerCase() === c))) return id;
  }
  return null;
}

/**
 * The receipt's body: the lines counted above zero, in the order's line order.
 * @param {number[]} petIds
 * @param {Map<number, number>} counts
 */
export function receiptBody(petIds, counts) {
  return { lines: petIds.filter((id) => (counts.get(id) ?? 0) > 0).map((id) => ({ petId: id, quantity: /** @type {number} */ (counts.get(id)) })) };
}
