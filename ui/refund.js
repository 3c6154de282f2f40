//! What a refund will give back, shown before it is confirmed: the server's exact-remainder
//! rule (`src/domain/refund.rs`), written once here as one pure function for the preview. The
//! server computes the refund itself; this only tells the clerk the figure first. Refunding
//! `q` of the `Q` units sold gives back `total × q / Q` rounded half away from zero (its tax
//! the same way), never more than is left, and the refund that empties the line gives exactly
//! what is left. Exact in BigInt (a line's total × units can pass 2^53). Pure: no DOM, no
//! imports, unit-tested in node.

/**
 * @typedef {{ total: number, tax: number, quantity: number }} SoldLine  a sale's line
 * @typedef {{ quantity: number, amount: number, tax: number }} Refunded  what earlier refunds took back of it
 * @typedef {{ amount: number, tax: number }} Share
 */

/** `n / d` rounded half away from zero, for `n ≥ 0`, `d > 0`. @param {bigint} n @param {bigint} d */
function divRound(n, d) {
  const q = n / d;
  return 2n * (n % d) >= d ? q + 1n : q;
}

/**
 * What refunding `quantity` more units of `line` gives back after `before`; null when that is
 * more than was sold and not yet refunded (or not a positive whole number).
 * @param {SoldLine} line
 * @param {Refunded} before
 * @param {number} quantity
 * @returns {Share | null}
 */
export function refundShare(line, before, quantity) {
  const left = line.quantity - before.quantity;
  if (!Number.isInteger(quantity) || quantity < 1 || quantity > left) return null;
  const amountLeft = line.total - before.amount;
  const taxLeft = line.tax - before.tax;
  if (quantity === left) return { amount: amountLeft, tax: taxLeft };
  /** @param {number} whole @param {number} leftOfIt */
  const part = (whole, leftOfIt) => {
    const share = Number(divRound(BigInt(whole) * BigInt(quantity), BigInt(line.quantity)));
    return Math.max(0, Math.min(share, leftOfIt));
  };
  return { amount: part(line.total, amountLeft), tax: part(line.tax, taxLeft) };
}

/**
 * What a sale's refunds took back of each line, by pet id.
 * @param {Array<{ lines: Array<{ petId: number, quantity: number, amount: number, tax: number }> }>} refunds
 * @returns {Map<number, Refunded>}
 */
export function refundedByPet(refunds) {
  /** @type {Map<number, Refunded>} */
  const out = new Map();
  for (const r of refunds) {
    for (const l of r.lines) {
      const was = out.get(l.petId) ?? { quantity: 0, amount: 0, tax: 0 };
      out.set(l.petId, { quantity: was.quantity + l.quantity, amount: was.amount + l.amount, tax: was.tax + l.tax });
    }
  }
  return out;
}
