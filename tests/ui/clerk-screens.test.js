// The staff screens as a clerk meets them, third round: what a refused change was, and the
// name a deleted pet was sold under. Real headless Chromium against the real petstore binary.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { openPage } from './lib/browser.js';
import { client } from './lib/client.js';
import { startShop, stopShop } from './lib/shop.js';

describe('the staff screens, third round', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {ReturnType<typeof client>} */
  let admin;
  let fish = 0;

  before(async () => {
    ({ server, browser, admin } = await startShop());
    fish = (await admin.post('/categories', { name: 'Fish' })).id;
  });

  after(() => stopShop(server, browser));

  /** @param {string} route @param {{ width: number, height: number }} [viewport] */
  async function signedIn(route, viewport) {
    const opened = await openPage(browser, { bypassCSP: true, ...(viewport ? { viewport } : {}) });
    await opened.context.addInitScript((key) => sessionStorage.setItem('petstore.key', key), ADMIN_KEY);
    await opened.page.goto(server.base + '/' + route);
    return opened;
  }

  it('says which change a blocked device lost: the +1 on Guppy was not saved', async () => {
    const guppy = await admin.post('/pets', { name: 'Guppy', categoryId: fish, status: 'available' });
    await admin.put(`/store/inventory/${guppy.id}`, { quantity: 12 });
    const { context, page, errors } = await signedIn('#/pets');
    const row = page.locator(`tr[data-pet-id="${guppy.id}"]`);
    await row.waitFor();
    await page.route('**/store/inventory/*/adjustments', (route) => route.fulfill({
      status: 429,
      headers: { 'Content-Type': 'application/json', 'Retry-After': '900' },
      body: JSON.stringify({ code: 'temporarily_banned', message: 'banned', status: 429 }),
    }));
    await row.getByRole('button', { name: '+1 to Guppy' }).click();
    const toast = page.locator('.toast-error');
    await toast.filter({ hasText: 'Not saved: +1 on Guppy.' }).waitFor();
    assert.match(await toast.innerText(), /blocked for 15 minutes/);
    await page.unroute('**/store/inventory/*/adjustments');
    const stock = await admin.get(`/store/inventory/${guppy.id}`);
    assert.equal(stock.quantity, 12, 'nothing was added behind the clerk’s back');
    assert.ok(errors.every((e) => /429/.test(e)), errors.join('\n'));
    await context.close();
  });

  it('names a pet deleted after its sale as it was sold, not “Pet #N (deleted)”', async () => {
    const food = await admin.post('/pets', { name: 'Flake food 50 g', categoryId: fish, status: 'available', price: 450 });
    await admin.put(`/store/inventory/${food.id}`, { quantity: 5 });
    const till = await admin.post('/admin/keys', { name: 'Till 1', role: 'pos', plan: 'business' });
    const pos = client(server.base, till.secret);
    await pos.post('/store/shifts', { till: 'Front', openingCash: 0 });
    const sale = await pos.post('/store/sales', { lines: [{ petId: food.id, quantity: 2 }], payments: [{ method: 'card', amount: 900 }], till: 'Front' });
    const orderId = sale.lines[0].orderId;
    assert.equal((await fetch(`${server.base}/pets/${food.id}`, { method: 'DELETE', headers: { 'X-API-Key': ADMIN_KEY } })).status, 204);

    const { context, page, errors } = await signedIn('#/orders');
    const row = page.locator(`#orders-done tr[data-order-id="${orderId}"]`);
    await row.waitFor();
    await row.getByRole('rowheader', { name: 'Flake food 50 g' }).waitFor();
    assert.doesNotMatch(await row.innerText(), /deleted/);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
