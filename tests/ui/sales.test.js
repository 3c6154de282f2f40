// The Sales page in real headless Chromium against the real petstore binary: sales rung up
// through the API by a till (one offline, days ago), listed newest first and by day, opened
// (lines, totals, payments, change, till and shift), its receipt printed (the frame holds the
// server's receipt HTML, with the lines and the total), one line refunded with the amount shown
// before confirming, and the refund and the stock checked through the API. A readonly key sees
// no Refund; an order that is a sale's line links to it. axe-core checks each screen; the list,
// a sale with a refund, the refund dialog and the receipt are photographed (with
// PETSTORE_SCREENSHOTS=docs into docs/screenshots/, as screens.test.js does).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { openPage, signInWithKey } from './lib/browser.js';
import { screenshotFolder } from './lib/screenshots.js';
import { client } from './lib/client.js';
import { startShop, stopShop } from './lib/shop.js';
import { violations } from './lib/axe.js';

const shots = screenshotFolder();

/** A UTC day, YYYY-MM-DD. @param {Date} d */
const utcDay = (d) => d.toISOString().slice(0, 10);

describe('the Sales page', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {ReturnType<typeof client>} */
  let admin;
  /** @type {any} */
  let basket;
  /** @type {any} */
  let offline;
  /** @type {Record<string, number>} */
  const pet = {};
  let readonlyKey = '';

  before(async () => {
    ({ server, browser, admin } = await startShop());
    await admin.patch('/store/profile', { name: 'Harbour Pets', timezone: 'UTC', defaultTaxRate: 2000 });
    const cat = (await admin.post('/categories', { name: 'Aquarium' })).id;
    for (const [name, price, qty] of /** @type {Array<[string, number, number]>} */ ([['Fish food', 450, 20], ['Tank 60 l', 3999, 3], ['Guppy', 250, 30]])) {
      pet[name] = (await admin.post('/pets', { name, categoryId: cat, status: 'available', price })).id;
      await admin.put(`/store/inventory/${pet[name]}`, { quantity: qty });
    }
    const till = await admin.post('/admin/keys', { name: 'Till 1', role: 'pos', plan: 'business' });
    readonlyKey = (await admin.post('/admin/keys', { name: 'Wall screen', role: 'readonly', plan: 'business' })).secret;
    const pos = client(server.base, till.secret);
    await pos.post('/store/shifts', { till: 'Front', openingCash: 10000 });
    // Two days ago, sent late by a till that was offline.
    offline = await pos.post('/store/sales', {
      lines: [{ petId: pet['Guppy'], quantity: 3 }], payments: [{ method: 'card', amount: 750 }],
      till: 'Front', soldAt: new Date(Date.now() - 2 * 86_400_000).toISOString(),
    });
    basket = await pos.post('/store/sales', {
      lines: [{ petId: pet['Fish food'], quantity: 2 }, { petId: pet['Tank 60 l'], quantity: 1 }, { petId: pet['Guppy'], quantity: 2 }],
      payments: [{ method: 'cash', amount: 6000 }], till: 'Front',
    });
    await pos.post('/store/sales', { lines: [{ petId: pet['Guppy'], quantity: 1 }], payments: [{ method: 'card', amount: 250 }], till: 'Front' });
  });

  after(() => stopShop(server, browser));

  /**
   * @param {string} key
   * @param {boolean} [axe]  bypass the page's CSP so axe-core can be injected
   */
  async function signIn(key, axe = false) {
    const opened = await openPage(browser, { bypassCSP: axe });
    const { page } = opened;
    await page.goto(server.base + '/');
    await signInWithKey(page, key);
    await page.locator('nav.nav').waitFor();
    return opened;
  }

  it('lists sales newest first and by day, opens one, prints its receipt and refunds one line', async () => {
    const { context, page, errors } = await signIn(ADMIN_KEY, true);
    /** @type {Record<string, string[]>} */
    const found = {};
    const shot = async (/** @type {string} */ name) => {
      await page.mouse.move(0, 0);
      found[name] = await violations(page);
      await page.screenshot({ path: path.join(shots, `${name}.png`) });
    };
    const settle = () => page.locator('main .page[aria-busy="false"]').waitFor();
    await page.getByRole('link', { name: 'Sales', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Sales' }).waitFor();
    await settle();
    const rows = page.locator('#sales-list tbody tr');
    await rows.nth(2).waitFor();
    assert.deepEqual(await rows.locator('td.id').allInnerTexts(), ['No. 3', 'No. 2', 'No. 1'], 'newest first');
    assert.match(await rows.nth(1).innerText(), /Front/);
    assert.match(await rows.nth(1).innerText(), /\$53\.99/);
    await shot('sales-page');

    // The offline sale's day shows it alone.
    await page.getByLabel('Day sold').fill(utcDay(new Date(offline.soldAt)));
    await page.getByLabel('Day sold').dispatchEvent('change');
    await page.locator('#sales-list tbody tr', { hasText: 'No. 3' }).waitFor({ state: 'detached' });
    assert.deepEqual(await rows.locator('td.id').allInnerTexts(), ['No. 1']);
    await page.getByRole('button', { name: 'All days' }).click();
    await page.locator('#sales-list tbody tr', { hasText: 'No. 3' }).waitFor();

    // Open the basket: its lines, totals, payment, change, till and shift.
    await page.getByRole('button', { name: `Open sale ${basket.number}`, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('heading', { name: `Sale No. ${basket.number}` }).waitFor();
    const text = await dialog.innerText();
    for (const want of ['Fish food', 'Tank 60 l', 'Guppy', '$53.99', '$6.01', 'Cash $60.00', 'Front', 'opened', 'No refunds.']) {
      assert.ok(text.includes(want), `the sale shows ${want}:\n${text}`);
    }

    // The receipt: the server's HTML in the print frame, with the lines and the totals.
    await dialog.getByRole('button', { name: 'Receipt' }).click();
    const frame = page.frameLocator('iframe.receipt-frame');
    await frame.locator('body').waitFor({ state: 'attached' });
    const printed = await frame.locator('body').innerText();
    for (const want of ['Harbour Pets', 'Fish food', 'Tank 60 l', 'Guppy', '53.99', '60.00', '6.01']) {
      assert.ok(printed.includes(want), `the receipt prints ${want}:\n${printed}`);
    }
    assert.ok(await page.locator(`iframe.receipt-frame[data-sale-id="${basket.id}"]`).count() === 1);

    // Refund one guppy of the two, back into stock, in cash; the amount shows first.
    const stockBefore = (await admin.get(`/store/inventory/${pet['Guppy']}`)).quantity;
    await dialog.getByRole('button', { name: 'Refund…' }).click();
    const refundDialog = page.getByRole('dialog');
    await refundDialog.getByRole('heading', { name: `Refund from sale No. ${basket.number}` }).waitFor();
    await refundDialog.getByLabel('Guppy: units back').fill('1');
    await refundDialog.getByLabel('Reason').fill('Died in the bag');
    const preview = await refundDialog.locator('[data-refund-preview]').innerText();
    await shot('sale-refund-dialog');
    await refundDialog.getByRole('button', { name: 'Refund', exact: true }).click();
    await page.getByRole('dialog').getByRole('heading', { name: `Sale No. ${basket.number}` }).waitFor();
    await page.getByRole('dialog').locator('tr[data-refund-id]').waitFor();

    const refunds = await admin.get(`/store/sales/${basket.id}/refunds`);
    assert.equal(refunds.length, 1);
    assert.deepEqual(refunds[0].lines.map((/** @type {any} */ l) => [l.petId, l.quantity]), [[pet['Guppy'], 1]]);
    assert.equal(refunds[0].method, 'cash');
    assert.equal(refunds[0].restock, true);
    assert.equal(refunds[0].amount, 250, 'half of the guppies line (500)');
    assert.ok(preview.includes(`$${(refunds[0].amount / 100).toFixed(2)}`) && preview.includes(`$${(refunds[0].lines[0].tax / 100).toFixed(2)}`),
      `the preview said what the server gave back: ${preview}`);
    assert.equal((await admin.get(`/store/inventory/${pet['Guppy']}`)).quantity, stockBefore + 1, 'the guppy is back in stock');
    assert.equal((await admin.get(`/store/sales/${basket.id}`)).refunded, 250);
    const after = await page.getByRole('dialog').innerText();
    assert.ok(after.includes('Died in the bag') && after.includes('Back in stock'), after);
    await shot('sale-with-refund');

    // The receipt as printed on 80 mm paper, now with its refund.
    const html = await (await fetch(`${server.base}/store/sales/${basket.id}/receipt`, { headers: { 'X-API-Key': ADMIN_KEY } })).text();
    const receiptPage = await context.newPage();
    await receiptPage.setViewportSize({ width: 320, height: 800 });
    await receiptPage.setContent(html);
    assert.match(await receiptPage.locator('body').innerText(), /Died in the bag|Refund/i);
    await receiptPage.screenshot({ path: path.join(shots, 'sale-receipt.png'), fullPage: true });
    await receiptPage.close();

    await context.close();
    for (const [name, list] of Object.entries(found)) assert.deepEqual(list, [], `axe violations on ${name}`);
    assert.deepEqual(errors, []);
  });

  it('shows a readonly key the sale and prints its receipt under the real security policy, but offers no Refund', async () => {
    const { context, page, errors } = await signIn(readonlyKey);
    await page.getByRole('link', { name: 'Sales', exact: true }).click();
    await page.getByRole('button', { name: `Open sale ${basket.number}`, exact: true }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Receipt' }).click();
    const printed = await page.frameLocator('iframe.receipt-frame').locator('body').innerText();
    assert.ok(printed.includes('Tank 60 l'), printed);
    assert.equal(await dialog.getByRole('button', { name: 'Refund…' }).count(), 0);
    await context.close();
    assert.deepEqual(errors, []);
  });

  it('links an order that is a line of a sale to that sale', async () => {
    const { context, page, errors } = await signIn(ADMIN_KEY);
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    const line = basket.lines[1];
    const row = page.locator(`#orders-done tr[data-order-id="${line.orderId}"]`);
    await row.getByRole('link', { name: `sale of order ${line.orderId}` }).click();
    await page.getByRole('dialog').getByRole('heading', { name: `Sale No. ${basket.number}` }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 1 }).first().innerText(), 'Sales');
    await context.close();
    assert.deepEqual(errors, []);
  });
});
