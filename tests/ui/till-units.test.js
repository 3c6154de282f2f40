// Unit tests of the till's pure modules, in node: the basket's money mirrors the store's
// arithmetic (src/domain/tax.rs) to the minor unit, the cash helpers, and the basket's rules.
// The modules are loaded from their source as data: URLs (lib/modules.js).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './lib/modules.js';

const { divRound, taxOf, lineMoney, basketMoney, paymentState, quickAmounts } = await load('till/sum.js');
const B = await load('till/basket.js');

describe('the basket’s money, as the store counts it', () => {
  it('rounds halves away from zero, as the store does', () => {
    assert.equal(divRound(5n, 2n), 3n);
    assert.equal(divRound(-5n, 2n), -3n);
    assert.equal(divRound(4n, 3n), 1n);
    assert.equal(divRound(-4n, 3n), -1n);
    assert.equal(divRound(0n, 7n), 0n);
  });

  it('takes the tax out of an included price and adds it to an excluded one', () => {
    // 1,000 at 20 % included: 1000 × 2000 / 12000 = 166.67 → 167.
    assert.equal(taxOf(1000, 2000, true), 167);
    // 1,000 at 20 % on top: 200.
    assert.equal(taxOf(1000, 2000, false), 200);
    // 25 at 10 % on top: 2.5 → 3 (half away from zero).
    assert.equal(taxOf(25, 1000, false), 3);
    assert.equal(taxOf(999, 0, true), 0);
  });

  it('prices a line: amount less discount, its tax, and its total by the store’s rule', () => {
    assert.deepEqual(lineMoney({ unitPrice: 1299, quantity: 3, discount: 100, taxRate: 2000 }, true),
      { gross: 3897, discount: 100, amount: 3797, tax: 633, total: 3797 });
    assert.deepEqual(lineMoney({ unitPrice: 1299, quantity: 3, discount: 100, taxRate: 2000 }, false),
      { gross: 3897, discount: 100, amount: 3797, tax: 759, total: 4556 });
  });

  it('sums a basket per line, never on the sum (each line rounded on its own)', () => {
    // Two lines of 5 at 10 % on top: 0.5 → 1 each, so 2 in all (not round(1.0) of the sum).
    const lines = [{ unitPrice: 5, quantity: 1, discount: 0, taxRate: 1000 }, { unitPrice: 5, quantity: 1, discount: 0, taxRate: 1000 }];
    assert.deepEqual(basketMoney(lines, false), { subtotal: 10, discount: 0, tax: 2, total: 12 });
  });

  it('stays exact at the largest amounts the store’s bounds allow', () => {
    // 10⁸ × 10⁴ at 100 % on top: the product 10¹⁶ is past a double's exact integers.
    const m = lineMoney({ unitPrice: 100_000_000, quantity: 10_000, discount: 1, taxRate: 10_000 }, false);
    assert.equal(m.amount, 999_999_999_999);
    assert.equal(m.tax, 999_999_999_999);
    assert.equal(m.total, 1_999_999_999_998);
    assert.equal(lineMoney({ unitPrice: 100_000_000, quantity: 10_000, discount: 0, taxRate: 9_999 }, true).tax, 499_974_998_750);
  });
});

describe('paying', () => {
  it('counts what is left to pay and the change, and refuses card past the total', () => {
    assert.deepEqual(paymentState(3948, [{ method: 'cash', amount: 5000 }]), { paid: 5000, remaining: 0, change: 1052, covered: true, nonCashOver: false });
    assert.deepEqual(paymentState(4599, [{ method: 'card', amount: 3000 }]), { paid: 3000, remaining: 1599, change: 0, covered: false, nonCashOver: false });
    assert.equal(paymentState(100, [{ method: 'card', amount: 101 }]).nonCashOver, true);
  });

  it('offers the exact amount, then the next round amounts a customer hands over', () => {
    assert.deepEqual(quickAmounts(3948, 100), [3948, 4000, 5000, 10000]);
    assert.deepEqual(quickAmounts(2350, 100), [2350, 2400, 2500, 3000, 4000, 5000]);
    assert.deepEqual(quickAmounts(2500, 100), [2500, 3000, 4000, 5000, 10000]);
    assert.deepEqual(quickAmounts(450, 1), [450, 455, 460, 500]);
  });
});

describe('the basket', () => {
  const food = { id: 1, name: 'Dog food', price: 1299, barcode: '4006381333931', sku: 'DF-1' };
  const puppy = { id: 2, name: 'Beagle puppy', price: 50000, animal: true };

  it('raises a line’s quantity when its item is scanned again', () => {
    const b = B.addItem(B.addItem([], food), food);
    assert.deepEqual(b.map((/** @type {any} */ l) => [l.item.id, l.quantity]), [[1, 2]]);
  });

  it('sells an individual animal once, however often it is scanned', () => {
    const b = B.addItem(B.addItem([], puppy), puppy);
    assert.equal(b[0].quantity, 1);
    assert.equal(B.setQuantity(b, 2, 3)[0].quantity, 1);
    assert.equal(B.needsBuyer(b), true);
  });

  it('keeps a discount within the line and removes a line at quantity 0', () => {
    let b = B.addItem([], food);
    b = B.setDiscount(b, 1, 5000);
    assert.equal(b[0].discount, 1299);
    b = B.setQuantity(b, 1, 0);
    assert.deepEqual(b, []);
  });

  it('finds an item by barcode, by SKU in any case, or by a part of its name', () => {
    const items = [food, puppy];
    assert.equal(B.lookup(items, '4006381333931').exact?.id, 1);
    assert.equal(B.lookup(items, 'df-1').exact?.id, 1);
    assert.deepEqual(B.lookup(items, 'beag').matches.map((/** @type {any} */ i) => i.id), [2]);
    assert.deepEqual(B.lookup(items, 'zebra').matches, []);
  });

  it('writes the sale’s lines as the store takes them, a discount only where there is one', () => {
    const b = B.setDiscount(B.addItem(B.addItem([], food), puppy), 2, 2500);
    assert.deepEqual(B.saleLines(b), [{ petId: 1, quantity: 1 }, { petId: 2, quantity: 1, discount: 2500 }]);
  });
});
