//! What a stocktake's count box holds when Enter is pressed: a count, or a count with the next
//! pet's code after it (the clerk typed the count, then scanned the next pet without pressing
//! Enter, so the scanner's digits followed the count's). A count is at most seven digits (the
//! store's bound is 1,000,000), a code at least eight, so a box of eight digits or more holds a
//! scan. Pure: no DOM, unit-tested in node.

/** GTIN lengths a shop's scanner reads (EAN-8, UPC-A, EAN-13, GTIN-14), longest first. */
const GTIN_LENGTHS = [14, 13, 12, 8];

/**
 * Whether `code` ends in the right GS1 check digit.
 * @param {string} code  digits only
 */
export function gtinValid(code) {
  if (!/^\d{8,14}$/.test(code)) return false;
  const digits = [...code].map(Number);
  const check = /** @type {number} */ (digits.pop());
  // From the right, the digits before the check digit weigh 3, 1, 3, …
  const sum = digits.reverse().reduce((acc, d, i) => acc + d * (i % 2 === 0 ? 3 : 1), 0);
  return (10 - (sum % 10)) % 10 === check;
}

/**
 * @typedef {{ kind: 'count', count: string }
 *   | { kind: 'next', count: string, code: string }
 *   | { kind: 'unknown', count: string, code: string }} CountBox
 */

/**
 * Reads a count box's text. `known` says whether a code names a pet of the store.
 * - `count`: a plain count (or anything else the count rules will judge);
 * - `next`: the count typed, then a scan of a known pet's barcode or SKU (`count` may be empty);
 * - `unknown`: the count typed, then a scan of a code no pet has: the code is the longest tail
 *   with a right check digit (a scanner's code); with none, the whole text, the count unknown.
 * @param {string} text
 * @param {(code: string) => boolean} known
 * @returns {CountBox}
 */
export function readCountBox(text, known) {
  const t = text.trim();
  // A SKU label scanned after the count: the digits typed, then the SKU.
  const sku = /^(\d*)(.*[^\d].*)$/.exec(t);
  if (sku) {
    for (let i = sku[1].length; i >= 0; i -= 1) if (known(t.slice(i))) return { kind: 'next', count: t.slice(0, i), code: t.slice(i) };
    return { kind: 'count', count: t };
  }
  if (!/^\d{8,}$/.test(t)) return { kind: 'count', count: t };
  for (const n of GTIN_LENGTHS) {
    if (t.length < n) continue;
    const code = t.slice(t.length - n);
    if (known(code)) return { kind: 'next', count: t.slice(0, t.length - n), code };
  }
  // EAN-13 first: the code on most of a shop's goods.
  for (const n of [13, 12, 14, 8]) {
    if (t.length < n) continue;
    const code = t.slice(t.length - n);
    if (gtinValid(code)) return { kind: 'unknown', count: t.slice(0, t.length - n), code };
  }
  return { kind: 'unknown', count: '', code: t };
}
