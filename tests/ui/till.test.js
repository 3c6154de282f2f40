// The Till in real headless Chromium against the real petstore binary, at a tablet's 820×1180
// and the counter PC's 1280×800: a basket scanned by keyboard-wedge typing and paid in cash
// with change, the receipt printed, a split payment, an animal that needs its buyer, a shift
// opened and closed with a difference, the shown total against the store's for taxed,
// tax-included and discounted baskets, and what each costs the clerk in clicks and keys.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { screenshotFolder } from './lib/screenshots.js';
import { client } from './lib/client.js';
import { startShop, stopShop } from './lib/shop.js';
import { stockShop, tillPage, clerk } from './lib/till.js';
import { violations } from './lib/axe.js';

const shots = screenshotFolder();

const SIZES = [
  { name: 'tablet', width: 820, height: 1180, prefix: '20000001' },
  { name: 'counter', width: 1280, height: 800, prefix: '20000002' },
];

/** "$12.34" from minor units, as the UI shows dollars. @param {number} minor */
const usd = (minor) => `$${(minor / 100).toFixed(2)}`;

describe('the till', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {ReturnType<typeof client>} */
  let admin;
  let categoryId = 0;
  /** @type {Record<string, string>} */
  const tillKeys = {};

  before(async () => {
    ({ server, browser, admin } = await startShop());
    categoryId = (await admin.post('/categories', { name: 'Everything' })).id;
    for (const s of SIZES) {
      tillKeys[s.name] = (await admin.post('/admin/keys', { name: `Till ${s.name}`, role: 'pos', plan: 'business' })).secret;
    }
  });

  after(() => stopShop(server, browser));

  for (const size of SIZES) {
    const viewport = { width: size.width, height: size.height };

    it(`sells three scanned items for cash from a 50 with change and prints the receipt (${size.width}×${size.height})`, async () => {
      const pets = await stockShop(admin, categoryId, [
        { name: `Dog food ${size.name}`, price: 1299, stock: 10 },
        { name: `Fish tank ${size.name}`, price: 2450, stock: 4 },
        { name: `Guppy ${size.name}`, price: 199, stock: 30 },
      ], size.prefix + '1');
      const { context, page, errors } = await tillPage(browser, { key: tillKeys[size.name], name: `Till ${size.name}`, viewport });
      await page.goto(server.base + '/');
      await page.locator('.till-bar h1').waitFor();
      assert.equal(await page.evaluate(() => location.hash), '#/till', 'a paired till opens on the Till');
      await page.waitForFunction(() => document.activeElement?.id === 'till-scan');
      const c = clerk(page);
      // Keyboard-wedge scans: the focus is already in the scan box.
      await page.keyboard.type(pets[`Dog food ${size.name}`].barcode + '\n', { delay: 5 });
      await c.scan(pets[`Fish tank ${size.name}`].barcode);
      await c.scan(pets[`Guppy ${size.name}`].barcode);
      await page.locator('.till-line').nth(2).waitFor();
      const expected = 1299 + 2450 + 199;
      assert.equal(await page.locator('[data-total]').getAttribute('data-total'), String(expected));
      if (size.name === 'counter') await page.screenshot({ path: path.join(shots, 'till-basket.png') });
      assert.deepEqual(await violations(page), [], 'axe on the basket');

      await c.click(page.getByRole('button', { name: /^Pay / }));
      await page.locator('.till-quick').waitFor();
      if (size.name === 'counter') await page.screenshot({ path: path.join(shots, 'till-paying.png') });
      assert.deepEqual(await violations(page), [], 'axe on paying');
      await c.click(page.locator('.till-quick').getByRole('button', { name: '$50.00', exact: true }));
      await page.locator('.till-done-title').waitFor();
      const change = 5000 - expected;
      assert.equal(await page.locator('[data-change]').getAttribute('data-change'), String(change));
      assert.equal(await page.locator('[data-change]').textContent(), usd(change));

      await c.click(page.getByRole('button', { name: 'Print receipt' }));
      await page.waitForFunction(() => (/** @type {any} */ (window).__printed ?? []).length === 1);
      const printed = /** @type {string} */ (await page.evaluate(() => /** @type {any} */ (window).__printed[0]));
      for (const name of Object.keys(pets)) assert.ok(printed.includes(name), `the receipt names ${name}`);
      assert.ok(printed.includes(usd(expected).slice(1)), 'the receipt shows the total');
      assert.ok(printed.includes(usd(change).slice(1)), 'the receipt shows the change');
      assert.match(printed, /80mm|80 mm/, 'the receipt is set for 80 mm paper');
      if (size.name === 'counter') {
        await page.screenshot({ path: path.join(shots, 'till-sale-done.png') });
        // The printout itself, at 80 mm (302 CSS px).
        const paper = await context.newPage();
        await paper.setViewportSize({ width: 302, height: 700 });
        await paper.setContent(printed);
        await paper.screenshot({ path: path.join(shots, 'till-receipt.png'), fullPage: true });
        await paper.close();
      }
      await c.click(page.getByRole('button', { name: 'New sale' }));
      assert.ok(c.actions <= 6, `change from a 50 took ${c.actions} actions`);
      await page.waitForFunction(() => document.activeElement?.id === 'till-scan');

      const { items } = { items: await admin.get('/store/sales?limit=1') };
      const sale = items[0];
      assert.equal(sale.total, expected);
      assert.equal(sale.till, `Till ${size.name}`);
      assert.deepEqual(sale.payments, [{ method: 'cash', amount: 5000 }]);
      assert.equal(sale.change, change);
      assert.deepEqual(sale.lines.map((/** @type {any} */ l) => [l.name, l.quantity]), Object.keys(pets).map((n) => [n, 1]));
      assert.equal((await admin.get(`/store/inventory/${pets[`Fish tank ${size.name}`].id}`)).quantity, 3);
      assert.deepEqual(errors, []);
      await context.close();
    });

    it(`sells a three-item basket for exact cash in at most four actions, one item scanned twice (${size.width}×${size.height})`, async () => {
      const pets = await stockShop(admin, categoryId, [
        { name: `Cat litter ${size.name}`, price: 899, stock: 10 },
        { name: `Catnip ${size.name}`, price: 350, stock: 10 },
      ], size.prefix + '2');
      const { context, page, errors } = await tillPage(browser, { key: tillKeys[size.name], name: `Till ${size.name}`, viewport });
      await page.goto(server.base + '/#/till');
      await page.waitForFunction(() => document.activeElement?.id === 'till-scan');
      const c = clerk(page);
      await c.scan(pets[`Cat litter ${size.name}`].barcode);
      await c.scan(pets[`Catnip ${size.name}`].barcode);
      await c.scan(pets[`Catnip ${size.name}`].barcode);
      await page.waitForFunction(() => /** @type {HTMLInputElement | undefined} */ (document.querySelectorAll('.till-qty')[1])?.value === '2');
      await c.click(page.getByRole('button', { name: /^Pay / }));
      await c.click(page.getByRole('button', { name: /^Exact / }));
      await page.locator('.till-done-title').waitFor();
      assert.equal(await page.locator('.till-nochange').textContent(), 'No change to give.');
      await c.click(page.getByRole('button', { name: 'New sale' }));
      assert.ok(c.actions <= 4, `exact cash took ${c.actions} actions`);
      const sale = (await admin.get('/store/sales?limit=1'))[0];
      assert.equal(sale.total, 899 + 700);
      assert.equal(sale.change, 0);
      assert.deepEqual(errors, []);
      await context.close();
    });

    it(`splits a payment between card and cash (${size.width}×${size.height})`, async () => {
      const pets = await stockShop(admin, categoryId, [
        { name: `Bird cage ${size.name}`, price: 4599, stock: 2 },
      ], size.prefix + '3');
      const { context, page, errors } = await tillPage(browser, { key: tillKeys[size.name], name: `Till ${size.name}`, viewport });
      await page.goto(server.base + '/#/till');
      await page.waitForFunction(() => document.activeElement?.id === 'till-scan');
      const c = clerk(page);
      await c.scan(pets[`Bird cage ${size.name}`].barcode);
      await c.click(page.getByRole('button', { name: /^Pay / }));
      await c.click(page.getByRole('button', { name: 'Card', exact: true }));
      await c.click(page.getByLabel('Amount by card'));
      await c.type('30');
      await c.click(page.getByRole('button', { name: 'Take card' }));
      await page.locator('[data-due="1599"]').waitFor();
      await c.click(page.getByRole('button', { name: /^Exact / }));
      await page.locator('.till-done-title').waitFor();
      const sale = (await admin.get('/store/sales?limit=1'))[0];
      assert.deepEqual(sale.payments, [{ method: 'card', amount: 3000 }, { method: 'cash', amount: 1599 }]);
      assert.equal(sale.total, 4599);
      assert.deepEqual(errors, []);
      await context.close();
    });

    it(`asks for an animal's buyer before paying, and sells it with them (${size.width}×${size.height})`, async () => {
      const pets = await stockShop(admin, categoryId, [
        { name: `Beagle puppy ${size.name}`, price: 45000, stock: 1, animal: { sex: 'female', breed: 'Beagle' } },
        { name: `Puppy collar ${size.name}`, price: 1500, stock: 5 },
      ], size.prefix + '4');
      const { context, page, errors } = await tillPage(browser, { key: tillKeys[size.name], name: `Till ${size.name}`, viewport });
      await page.goto(server.base + '/#/till');
      await page.waitForFunction(() => document.activeElement?.id === 'till-scan');
      const c = clerk(page);
      await c.scan(pets[`Beagle puppy ${size.name}`].barcode);
      await c.scan(pets[`Puppy collar ${size.name}`].barcode);
      await c.scan(pets[`Beagle puppy ${size.name}`].barcode);
      await page.getByText('is one animal: it is already in the basket').waitFor();
      await c.click(page.getByRole('button', { name: /^Pay / }));
      await page.getByRole('group', { name: /buyer of the animal/ }).waitFor();
      await c.click(page.getByRole('button', { name: /^Exact / }));
      await page.getByText('write the buyer’s name and a phone or an email first').waitFor();
      assert.equal(await page.evaluate(() => /** @type {HTMLElement} */ (document.activeElement).dataset.buyer), 'name');
      assert.equal((await admin.get(`/store/sales?till=${encodeURIComponent(`Till ${size.name}`)}`)).filter((/** @type {any} */ s) => s.lines.some((/** @type {any} */ l) => l.petId === pets[`Beagle puppy ${size.name}`].id)).length, 0);
      await page.keyboard.type('Ada Byron');
      await page.getByLabel('Phone').fill('+44 20 7946 0000');
      await c.click(page.getByRole('button', { name: /^Exact / }));
      await page.locator('.till-done-title').waitFor();
      const sale = (await admin.get('/store/sales?limit=1'))[0];
      assert.deepEqual(sale.customer, { name: 'Ada Byron', phone: '+44 20 7946 0000' });
      assert.equal(sale.lines[0].quantity, 1);
      assert.equal(sale.total, 46500);
      assert.deepEqual(errors, []);
      await context.close();
    });

    it(`opens a shift in at most six actions and closes it short, showing the Z report (${size.width}×${size.height})`, async () => {
      const pets = await stockShop(admin, categoryId, [
        { name: `Hay bale ${size.name}`, price: 750, stock: 10 },
      ], size.prefix + '5');
      const till = `Till ${size.name}`;
      const { context, page, errors } = await tillPage(browser, { key: tillKeys[size.name], name: till, viewport });
      await page.goto(server.base + '/#/till');
      await page.waitForFunction(() => document.activeElement?.id === 'till-scan');
      const c = clerk(page);
      await c.click(page.getByRole('button', { name: 'Open shift' }));
      await c.type('100');
      await c.press('Enter');
      await page.getByRole('button', { name: 'Close shift' }).waitFor();
      assert.ok(c.actions <= 6, `opening a shift took ${c.actions} actions`);
      const open = (await admin.get(`/store/shifts?till=${encodeURIComponent(till)}&status=open`))[0];
      assert.equal(open.openingCash, 10000);

      await c.scan(pets[`Hay bale ${size.name}`].barcode);
      await c.scan(pets[`Hay bale ${size.name}`].barcode);
      await c.click(page.getByRole('button', { name: /^Pay / }));
      await c.click(page.locator('.till-quick').getByRole('button', { name: '$20.00', exact: true }));
      await page.locator('.till-done-title').waitFor();
      await c.click(page.getByRole('button', { name: 'New sale' }));

      // Expected: 100 + 15 in cash; the clerk counts 114.
      await c.click(page.getByRole('button', { name: 'Close shift' }));
      await c.type('114');
      await c.press('Enter');
      const report = page.locator('dialog.zreport-dialog');
      await report.waitFor();
      await report.getByText('The drawer is short by $1.00.').waitFor();
      assert.deepEqual(await violations(page), [], 'axe on the Z report');
      if (size.name === 'counter') await page.screenshot({ path: path.join(shots, 'till-z-report.png') });
      await report.getByRole('button', { name: 'Print Z report' }).click();
      await page.waitForFunction(() => (/** @type {any} */ (window).__printed ?? []).length === 1);
      const printed = /** @type {string} */ (await page.evaluate(() => /** @type {any} */ (window).__printed[0]));
      assert.ok(printed.includes('$115.00') && printed.includes('$114.00') && printed.includes('-$1.00'), printed);
      const closed = await admin.get(`/store/shifts/${open.id}`);
      assert.equal(closed.status, 'closed');
      assert.equal(closed.expectedCash, 11500);
      assert.equal(closed.difference, -100);
      assert.equal(closed.sales.count, 1);
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  it('takes a quantity typed into a line, keeps it when the field is left empty, and sells that many (820×1180)', async () => {
    const pets = await stockShop(admin, categoryId, [
      { name: 'Chew stick', price: 125, stock: 30 },
      { name: 'Salt lick', price: 300, stock: 5 },
    ], '200000048');
    const { context, page, errors } = await tillPage(browser, { key: tillKeys.tablet, name: 'Till tablet', viewport: { width: 820, height: 1180 } });
    await page.goto(server.base + '/#/till');
    await page.waitForFunction(() => document.activeElement?.id === 'till-scan');
    const c = clerk(page);
    await c.scan(pets['Chew stick'].barcode);
    await c.scan(pets['Salt lick'].barcode);
    const sticks = page.getByLabel('Quantity of Chew stick');
    // A tap on the quantity and the number typed, as on a tablet's keypad: 12 replaces the 1.
    await c.click(sticks);
    await c.type('12');
    await c.press('Enter');
    await page.locator('.till-line[data-pet="' + pets['Chew stick'].id + '"] [data-line-total]').filter({ hasText: usd(1500) }).waitFor();
    assert.equal(await sticks.inputValue(), '12');
    assert.equal(await page.locator('[data-total]').getAttribute('data-total'), String(1500 + 300));
    await page.waitForFunction(() => document.activeElement?.id === 'till-scan');
    // An emptied field keeps the quantity it had; a scan after it adds one more.
    const licks = page.getByLabel('Quantity of Salt lick');
    await licks.fill('');
    await licks.press('Tab');
    await page.waitForFunction(() => /** @type {HTMLInputElement | null} */ (document.querySelectorAll('.till-qty')[1])?.value === '1');
    await c.scan(pets['Salt lick'].barcode);
    await page.waitForFunction(() => /** @type {HTMLInputElement | null} */ (document.querySelectorAll('.till-qty')[1])?.value === '2');
    assert.equal(await page.locator('[data-total]').getAttribute('data-total'), String(1500 + 600));
    await c.click(page.getByRole('button', { name: /^Pay / }));
    await c.click(page.getByRole('button', { name: /^Exact / }));
    await page.locator('.till-done-title').waitFor();
    const sale = (await admin.get('/store/sales?limit=1'))[0];
    assert.deepEqual(sale.lines.map((/** @type {any} */ l) => [l.petId, l.quantity]).sort((a, b) => a[0] - b[0]),
      [[pets['Chew stick'].id, 12], [pets['Salt lick'].id, 2]].sort((a, b) => a[0] - b[0]));
    assert.equal(sale.total, 2100);
    assert.equal((await admin.get(`/store/inventory/${pets['Chew stick'].id}`)).quantity, 30 - 12);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows the total the store charges for taxed, tax-included and discounted baskets', async () => {
    const pets = await stockShop(admin, categoryId, [
      { name: 'Odd rate seed', price: 333, stock: 50, taxRate: 550 },
      { name: 'Default rate toy', price: 1999, stock: 50 },
      { name: 'Zero rate book', price: 1250, stock: 50, taxRate: 0 },
    ], '200000039');
    const page1 = await tillPage(browser, { key: ADMIN_KEY, paired: false, viewport: { width: 1280, height: 800 } });
    const { context, page, errors } = page1;
    /** @param {boolean} taxIncluded @param {number} discount */
    const basket = async (taxIncluded, discount) => {
      await admin.patch('/store/profile', { taxIncluded, defaultTaxRate: 2000 });
      await page.goto(server.base + '/#/till');
      await page.reload();
      await page.waitForFunction(() => document.activeElement?.id === 'till-scan');
      const c = clerk(page);
      for (const name of ['Odd rate seed', 'Odd rate seed', 'Odd rate seed', 'Default rate toy', 'Zero rate book']) await c.scan(pets[name].barcode);
      await page.locator('.till-line').nth(2).waitFor();
      if (discount) {
        await page.locator('.till-line').nth(1).getByRole('button', { name: 'Discount' }).click();
        await page.getByLabel('Amount off the line').fill(String(discount / 100));
        await page.getByRole('button', { name: 'Set discount' }).click();
        await page.locator('.till-discounted').waitFor();
      }
      const shown = Number(await page.locator('[data-total]').getAttribute('data-total'));
      const shownTax = await page.locator('[data-tax]').textContent();
      await c.click(page.getByRole('button', { name: /^Pay / }));
      await c.click(page.getByRole('button', { name: /^Exact / }));
      await page.locator('.till-done-title').waitFor();
      const sale = (await admin.get('/store/sales?limit=1'))[0];
      assert.equal(shown, sale.total, `taxIncluded ${taxIncluded}, discount ${discount}`);
      assert.equal(shownTax, usd(sale.tax));
      assert.equal(sale.discount, discount);
      return sale;
    };
    const excluded = await basket(false, 0);
    assert.ok(excluded.tax > 0 && excluded.total === excluded.subtotal + excluded.tax);
    const included = await basket(true, 0);
    assert.equal(included.total, included.subtotal);
    await basket(false, 377);
    const last = await basket(true, 377);
    // After a sale, staff's "Refund…" opens that sale on the Sales page.
    await page.getByRole('link', { name: 'Refund…' }).click();
    await page.getByRole('dialog').getByRole('heading', { name: `Sale No. ${last.number}` }).waitFor();
    await admin.patch('/store/profile', { taxIncluded: true, defaultTaxRate: 0 });
    assert.deepEqual(errors, []);
    await context.close();
  });
});
