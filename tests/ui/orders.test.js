// The Orders page as a clerk meets it: an order cancelled here or at a till is still found
// (under "Cancelled orders"), in real headless Chromium against the real petstore binary.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { openPage } from './lib/browser.js';
import { screenshotFolder } from './lib/screenshots.js';
import { client } from './lib/client.js';
import { startShop, stopShop } from './lib/shop.js';
import { violations } from './lib/axe.js';

const shots = screenshotFolder();

describe('the Orders page', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {ReturnType<typeof client>} */
  let admin;
  /** @type {number} */
  let fish;

  before(async () => {
    ({ server, browser, admin } = await startShop());
    fish = (await admin.post('/categories', { name: 'Fish' })).id;
  });

  after(() => stopShop(server, browser));

  /** Cancels an order as a till would. @param {number} id */
  async function cancelAtTill(id) {
    const res = await fetch(`${server.base}/store/orders/${id}`, { method: 'DELETE', headers: { 'X-API-Key': ADMIN_KEY } });
    assert.equal(res.status, 204);
  }

  /** A pet in stock, with a price. @param {string} name @param {number} quantity */
  async function petInStock(name, quantity) {
    const pet = await admin.post('/pets', { name, categoryId: fish, status: 'available', price: 450 });
    await admin.put(`/store/inventory/${pet.id}`, { quantity });
    return pet;
  }

  /** A browser signed in with the admin key, on a route. @param {string} route */
  async function signedIn(route) {
    const opened = await openPage(browser, { bypassCSP: true });
    if (process.env.UI_TIMEOUT_MS) opened.context.setDefaultTimeout(Number(process.env.UI_TIMEOUT_MS));
    await opened.context.addInitScript((key) => sessionStorage.setItem('petstore.key', key), ADMIN_KEY);
    await opened.page.goto(server.base + '/' + route);
    return opened;
  }

  it('lists cancelled orders, so a clerk can tell a cancelled order from one never placed', async () => {
    const guppy = await petInStock('Guppy', 20);
    const tetra = await petInStock('Neon tetra', 30);
    const kept = await admin.post('/store/orders', { petId: guppy.id, quantity: 2 });
    const mine = await admin.post('/store/orders', { petId: guppy.id, quantity: 3 });
    const tills = await admin.post('/store/orders', { petId: tetra.id, quantity: 4 });
    const { context, page, errors } = await signedIn('#/orders');
    const open = page.locator('#orders-open');
    const cancelled = page.locator('#orders-cancelled');
    await page.getByRole('heading', { level: 2, name: 'Cancelled orders' }).waitFor();
    await cancelled.getByText('No cancelled orders.').waitFor();

    // Cancelled here: it leaves the open list and is found under Cancelled orders.
    await open.locator(`tr[data-order-id="${mine.id}"]`).getByRole('button', { name: /^Cancel order/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel order' }).click();
    const mineRow = cancelled.locator(`tr[data-cancelled-id="${mine.id}"]`);
    await mineRow.waitFor();
    await open.locator(`tr[data-order-id="${mine.id}"]`).waitFor({ state: 'detached' });
    assert.equal(await mineRow.getByRole('rowheader').innerText(), 'Guppy');
    assert.match(await mineRow.innerText(), new RegExp(`#${mine.id}\\s+Guppy\\s+3\\s+\\$13\\.50`));

    // Cancelled at a till: the page hears of it and lists it first (newest first).
    await cancelAtTill(tills.id);
    await cancelled.locator(`tr[data-cancelled-id="${tills.id}"]`).waitFor();
    const listed = await cancelled.locator('tr[data-cancelled-id]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-cancelled-id')));
    assert.deepEqual(listed, [String(tills.id), String(mine.id)]);
    assert.match(await cancelled.locator(`tr[data-cancelled-id="${tills.id}"]`).innerText(), /Neon tetra\s+4\s+\$18\.00/);

    // The order kept is still open, and the stock came back.
    await open.locator(`tr[data-order-id="${kept.id}"]`).waitFor();
    assert.equal(await open.locator('tr[data-order-id]').count(), 1);
    assert.equal((await admin.get(`/store/inventory/${guppy.id}`)).quantity, 18);
    assert.deepEqual(await violations(page), []);
    await page.screenshot({ path: path.join(shots, 'desktop-orders-cancelled.png'), fullPage: true });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('names the pet of an order placed on its own after the pet is deleted', async () => {
    const axolotl = await petInStock('Axolotl', 3);
    const sold = await admin.post('/store/orders', { petId: axolotl.id, quantity: 2 });
    const cancelledOne = await admin.post('/store/orders', { petId: axolotl.id, quantity: 1 });
    await admin.patch(`/store/orders/${sold.id}`, { complete: true });
    await cancelAtTill(cancelledOne.id);
    const res = await fetch(`${server.base}/pets/${axolotl.id}`, { method: 'DELETE', headers: { 'X-API-Key': ADMIN_KEY } });
    assert.equal(res.status, 204);
    const { context, page, errors } = await signedIn('#/orders');
    const done = page.locator('#orders-done').locator(`tr[data-order-id="${sold.id}"]`);
    await done.waitFor();
    assert.equal(await done.getByRole('rowheader').innerText(), 'Axolotl');
    const gone = page.locator('#orders-cancelled').locator(`tr[data-cancelled-id="${cancelledOne.id}"]`);
    await gone.waitFor();
    assert.equal(await gone.getByRole('rowheader').innerText(), 'Axolotl');
    assert.equal(await page.getByText(`Pet #${axolotl.id} (deleted)`).count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
