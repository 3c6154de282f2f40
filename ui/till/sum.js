//! The basket's money, as the store will charge it: the same per-line arithmetic as the
//! server's `src/domain/tax.rs` (amount = unitPrice × quantity − discount; tax included:
//! amount × rate / (10,000 + rate), else amount × rate / 10,000, rounded half away from zero,
//! per line), so the total the clerk reads is the total the sale answers. The server stays
//! the authority: the sale's answer replaces these figures. Also the cash helpers: change,
//! and the round amounts a customer is likely to hand over. Pure (no imports): tested in node.

/**
 * @typedef {object} LineIn
 * @property {number} unitPrice  minor units
 * @property {number} quantity
 * @property {number} discount   minor units, 0 to unitPrice × quantity
 * @property {number} taxRate    basis points (2,000 = 20 %)
 */

/**
 * @typedef {object} LineMoney
 * @property {number} gross     unitPrice × quantity
 * @property {number} discount
 * @property {number} amount    gross − discount
 * @property {number} tax
 * @property {number} total     what the customer pays for the line
 */

/**
 * numerator / denominator rounded to the nearest integer, halves away from zero, in BigInt
 * (the products reach 10¹⁶, past a double's exact integers). `denominator` is positive.
 * @param {bigint} numerator
 * @param {bigint} denominator
 */
export function divRound(numerator, denominator) {
  const quotient = numerator / denominator;
  const remainder = numerator % denominator;
  const abs = remainder < 0n ? -remainder : remainder;
  if (2n * abs >= denominator) return quotient + (numerator < 0n ? -1n : 1n);
  return quotient;
}

/**
 * The tax in `amount` (tax included) or on top of it, at `rate` basis points.
 * @param {number} amount
 * @param {number} rate
 * @param {boolean} taxIncluded
 */
export function taxOf(amount, rate, taxIncluded) {
  const denominator = taxIncluded ? 10000n + BigInt(rate) : 10000n;
  return Number(divRound(BigInt(amount) * BigInt(rate), denominator));
}

/**
 * One line's money.
 * @param {LineIn} line
 * @param {boolean} taxIncluded
 * @returns {LineMoney}
 */
export function lineMoney(line, taxIncluded) {
  const gross = line.unitPrice * line.quantity;
  const discount = Math.min(Math.max(0, line.discount), gross);
  const amount = gross - discount;
  const tax = taxOf(amount, line.taxRate, taxIncluded);
  return { gross, discount, amount, tax, total: taxIncluded ? amount : amount + tax };
}

/**
 * A basket's money: the sums of its lines, as the sale's `subtotal`, `discount`, `tax`, `total`.
 * @param {LineIn[]} lines
 * @param {boolean} taxIncluded
 */
export function basketMoney(lines, taxIncluded) {
  let subtotal = 0;
  let discount = 0;
  let tax = 0;
  let total = 0;
  for (const l of lines) {
    const m = lineMoney(l, taxIncluded);
    subtotal += m.gross;
    discount += m.discount;
    tax += m.tax;
    total += m.total;
  }
  return { subtotal, discount, tax, total };
}

/**
 * What is still to pay and the change, as the store counts them: payments must cover the
 * total, and only cash may exceed it (the excess is the change, given back in cash).
 * @param {number} total
 * @param {Array<{ method: string, amount: number }>} payments
 */
export function paymentState(total, payments) {
  const paid = payments.reduce((s, p) => s + p.amount, 0);
  const nonCash = payments.filter((p) => p.method !== 'cash').reduce((s, p) => s + p.amount, 0);
  return {
    paid,
    remaining: Math.max(0, total - paid),
    change: Math.max(0, paid - total),
    covered: paid >= total,
    // Card or other past the total is refused by the store (payment_mismatch).
    nonCashOver: nonCash > total,
  };
}

/**
 * The amounts a customer is likely to hand over for `due` (minor units): the exact amount
 * first, then the next round amounts above it (the next whole unit, then the next multiple
 * of 5, 10, 20, 50 and 100 units), each once, at most `count` in all.
 * @param {number} due
 * @param {number} unit  minor units in one major unit (100 for cents, 1 for yen)
 * @param {number} [count]
 */
export function quickAmounts(due, unit, count = 6) {
  /** @type {number[]} */
  const out = [due];
  if (due <= 0) return out;
  for (const step of [1, 5, 10, 20, 50, 100]) {
    const s = step * unit;
    const next = Math.ceil(due / s) * s;
    const up = next === due ? next + s : next;
    if (step === 1 && next === due) continue;
    if (!out.includes(up)) out.push(up);
  }
  return out.sort((a, b) => a - b).slice(0, count);
}
