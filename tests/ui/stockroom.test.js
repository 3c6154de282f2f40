// The stockroom in the staff UI, in real headless Chromium against the real petstore binary:
// a supplier added, pets given supplier and cost, "Order what is low", Send, receiving by
// keyboard-wedge scans partly (desktop) and then the rest (tablet), stock and history checked
// through the API, and shelf labels printed for two pets. Screenshots go to
// tests/ui/screenshots/ (docs/screenshots/ with PETSTORE_SCREENSHOTS=docs); axe-core checks
// each new screen.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { openPage, goToPage } from './lib/browser.js';
import { screenshotFolder } from './lib/screenshots.js';
import { client } from './lib/client.js';
import { startShop, stopShop } from './lib/shop.js';
import { violations } from './lib/axe.js';

const shots = screenshotFolder();

const DESKTOP = { width: 1280, height: 800 };
const TABLET = { width: 820, height: 1180 };

/** An EAN-13 with its check digit, from twelve digits. @param {string} twelve */
function ean13(twelve) {
  const sum = [...twelve].reduce((acc, d, i) => acc + Number(d) * (i % 2 ? 3 : 1), 0);
  return twelve + String((10 - (sum % 10)) % 10);
}

/** A barcode scanner: the digits typed fast, then Enter. @param {import('playwright-core').Page} page @param {string} code */
async function scan(page, code) {
  await page.keyboard.type(code);
  await page.keyboard.press('Enter');
}

/**
 * The print dialog itself is the browser's: a window the page opens records that it was asked
 * to print (`__printed`) instead of opening the dialog.
 * @param {import('playwright-core').Page} page
 */
function countPrints(page) {
  return page.evaluate(() => {
    const open = window.open.bind(window);
    window.open = (...args) => {
      const w = open(...args);
      if (w) w.print = () => { /** @type {any} */ (w).__printed = true; };
      return w;
    };
  });
}

describe('the stockroom: suppliers, purchasing, receiving by scan and shelf labels', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {ReturnType<typeof client>} */
  let admin;
  const GUPPY = ean13('200000000077');
  /** @type {{ guppy: number, tetra: number, plenty: number }} */
  const pet = { guppy: 0, tetra: 0, plenty: 0 };

  before(async () => {
    ({ server, browser, admin } = await startShop());
    const fish = (await admin.post('/categories', { name: 'Fish' })).id;
    pet.guppy = (await admin.post('/pets', { name: 'Guppy', categoryId: fish, barcode: GUPPY, price: 350, status: 'available' })).id;
    pet.tetra = (await admin.post('/pets', { name: 'Neon tetra', categoryId: fish, sku: 'TETRA-NEON', price: 250, status: 'available' })).id;
    pet.plenty = (await admin.post('/pets', { name: 'Platy', categoryId: fish, sku: 'PLATY', price: 300, status: 'available' })).id;
    for (const [id, quantity, reorderPoint] of [[pet.guppy, 2, 5], [pet.tetra, 1, 3], [pet.plenty, 40, 5]]) {
      await admin.put(`/store/inventory/${id}`, { quantity });
      await admin.patch(`/store/inventory/${id}`, { reorderPoint });
    }
  });

  after(() => stopShop(server, browser));

  /**
   * @param {string} route @param {{ width: number, height: number }} viewport
   * @param {boolean} [csp]  keep the server's Content-Security-Policy (then no axe-core, which is injected inline)
   */
  async function signedIn(route, viewport, csp = false) {
    const opened = await openPage(browser, { bypassCSP: !csp, viewport, hasTouch: viewport === TABLET });
    if (process.env.UI_TIMEOUT_MS) opened.context.setDefaultTimeout(Number(process.env.UI_TIMEOUT_MS));
    await opened.context.addInitScript((key) => sessionStorage.setItem('petstore.key', key), ADMIN_KEY);
    await opened.page.goto(server.base + '/' + route);
    return opened;
  }

  /** @param {number} id */
  const stock = async (id) => (await admin.get(`/store/inventory/${id}`)).quantity;

  it('adds a supplier, gives pets supplier and cost, and refuses to delete a supplier in use in words', async () => {
    const { context, page, errors } = await signedIn('#/suppliers', DESKTOP);
    await page.getByRole('heading', { level: 1, name: 'Suppliers', exact: true }).waitFor();
    await page.getByText('No suppliers yet').waitFor();
    await page.getByRole('button', { name: '+ Add supplier' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a supplier' });
    await dialog.getByLabel('Name', { exact: true }).fill('Aqua Wholesale');
    await dialog.getByLabel('Phone (optional)').fill('+1 555 0100');
    await dialog.getByLabel('Email (optional)').fill('orders@aqua.example');
    assert.deepEqual(await violations(page), []);
    await dialog.getByRole('button', { name: 'Add supplier' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('tr', { hasText: 'Aqua Wholesale' }).getByText('+1 555 0100 · orders@aqua.example').waitFor();
    const [acme] = await admin.get('/store/suppliers');
    assert.equal(acme.name, 'Aqua Wholesale');
    await page.screenshot({ path: path.join(shots, 'stockroom-suppliers.png') });

    // Supplier, cost and reorder quantity on the pet, through Edit.
    await page.getByRole('link', { name: 'Pets', exact: true }).click();
    for (const [name, cost, reorder] of [['Guppy', '1.20', ''], ['Neon tetra', '0.80', '24']]) {
      const row = page.locator('tr', { has: page.getByRole('rowheader', { name: new RegExp(`^${name}`) }) });
      const edit = page.getByRole('dialog', { name: `Edit ${name}` });
      // The last save's event redraws the list once; a menu opened just before closes with it.
      for (let tries = 0; !(await edit.isVisible()); tries += 1) {
        try {
          await row.getByRole('button', { name: `More for ${name}` }).click({ timeout: 5000 });
          await row.getByRole('button', { name: `Edit ${name}` }).click({ timeout: 3000 });
        } catch (err) {
          if (tries >= 5) throw err;
          await page.keyboard.press('Escape');
        }
      }
      await edit.getByLabel('Supplier', { exact: true }).selectOption({ label: 'Aqua Wholesale' });
      await edit.getByLabel('Cost (USD)').fill(cost);
      if (reorder) await edit.getByLabel('Reorder quantity').fill(reorder);
      if (name === 'Guppy') assert.deepEqual(await violations(page), []);
      await edit.getByRole('button', { name: 'Save' }).click();
      await edit.waitFor({ state: 'detached' });
    }
    const guppy = await admin.get(`/pets/${pet.guppy}`);
    const tetra = await admin.get(`/pets/${pet.tetra}`);
    assert.equal(guppy.supplierId, acme.id);
    assert.equal(guppy.cost, 120);
    assert.ok(guppy.reorderQuantity == null, 'no reorder quantity');
    assert.equal(tetra.supplierId, acme.id);
    assert.equal(tetra.cost, 80);
    assert.equal(tetra.reorderQuantity, 24);

    // Deleting a supplier that pets name: the refusal says why, and the supplier stays.
    await goToPage(page, 'Suppliers');
    await page.getByRole('button', { name: 'Delete Aqua Wholesale' }).click();
    const confirm = page.getByRole('dialog', { name: 'Delete Aqua Wholesale?' });
    await confirm.getByRole('button', { name: 'Delete', exact: true }).click();
    await confirm.getByRole('alert').filter({ hasText: 'Aqua Wholesale is still named by pets or purchase orders' }).waitFor();
    await confirm.getByRole('button', { name: 'Keep it' }).click();
    assert.equal((await admin.get('/store/suppliers')).length, 1);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('orders what is low from the header link, once, then sends the draft', async () => {
    const { context, page, errors } = await signedIn('#/pets', DESKTOP);
    await page.getByRole('link', { name: 'Order what is low' }).click();
    await page.getByText('Made 1 draft: Aqua Wholesale (2 lines)').waitFor();
    const drafts = await admin.get('/store/purchase-orders?status=draft');
    assert.equal(drafts.length, 1);
    // Guppy: 2 × 5 − 2 = 8; Neon tetra: its reorder quantity; Platy is not low.
    assert.deepEqual(drafts[0].lines.map((/** @type {any} */ l) => [l.petId, l.ordered, l.cost]), [[pet.guppy, 8, 120], [pet.tetra, 24, 80]]);
    // Asking again while the draft is open orders nothing more.
    await page.getByRole('button', { name: 'Order what is low' }).click();
    await page.getByText('Nothing to order').waitFor();
    assert.equal((await admin.get('/store/purchase-orders')).length, 1);

    // Open the draft, change a line, send it.
    await page.getByRole('link', { name: `Open purchase order ${drafts[0].number}` }).click();
    const card = page.locator('#po-detail');
    await card.getByRole('heading', { name: new RegExp(`Purchase order #${drafts[0].number}`) }).waitFor();
    await card.getByRole('button', { name: 'Edit lines' }).click();
    const edit = page.getByRole('dialog', { name: `Edit purchase order #${drafts[0].number}` });
    await edit.getByLabel('Quantity of Guppy').fill('10');
    await edit.getByRole('button', { name: 'Save lines' }).click();
    await edit.waitFor({ state: 'detached' });
    await card.locator(`tr[data-pet-id="${pet.guppy}"] [data-cell="ordered"]`).filter({ hasText: '10' }).waitFor();
    await card.getByRole('button', { name: 'Send' }).click();
    await page.getByRole('dialog', { name: /^Send #/ }).getByRole('button', { name: 'Mark as sent' }).click();
    await card.locator('.badge', { hasText: 'Sent' }).waitFor();
    const sent = await admin.get(`/store/purchase-orders/${drafts[0].id}`);
    assert.equal(sent.status, 'sent');
    assert.deepEqual(sent.lines.map((/** @type {any} */ l) => l.ordered), [10, 24]);
    // The CSV to pass on to the supplier.
    const [download] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download CSV' }).click()]);
    assert.equal(download.suggestedFilename(), `purchase-order-${sent.number}.csv`);
    const csv = readFileSync(/** @type {string} */ (await download.path()), 'utf8');
    assert.match(csv, /^petId,sku,barcode,name,ordered,received,cost,lineTotal/);
    assert.match(csv, new RegExp(`${pet.guppy},,${GUPPY},Guppy,10,0,120,1200`));
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('receives part of a delivery by scanning, with a case count, and refuses an over-receipt in words', async () => {
    const [order] = await admin.get('/store/purchase-orders?status=sent');
    const { context, page, errors } = await signedIn(`#/purchasing?order=${order.id}`, DESKTOP);
    const box = page.getByLabel('Scan', { exact: true });
    await box.waitFor();
    // The keyboard starts in the scan box: the scanner needs no click.
    await page.waitForFunction(() => document.activeElement?.id === 'receive-scan');
    for (let i = 0; i < 3; i += 1) await scan(page, GUPPY);
    await page.getByText('Guppy: 3 of 10 left to receive.').waitFor();
    // A case of 10 tetras: the count first, then one scan.
    await page.getByLabel('Units per scan').fill('10');
    await page.keyboard.press('Enter');
    await scan(page, 'TETRA-NEON');
    await scan(page, '4006381333931');
    await page.getByText('4006381333931 is not on this order').waitFor();
    assert.equal(await page.locator('#receive-count-' + pet.tetra).inputValue(), '10');
    assert.deepEqual(await violations(page), []);
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByText(/Received 13 units into stock/).waitFor();
    const partial = await admin.get(`/store/purchase-orders/${order.id}`);
    assert.equal(partial.status, 'partial');
    assert.deepEqual(partial.lines.map((/** @type {any} */ l) => l.received), [3, 10]);
    assert.equal(await stock(pet.guppy), 5);
    assert.equal(await stock(pet.tetra), 11);
    const history = await admin.get(`/store/inventory/${pet.guppy}/adjustments`);
    assert.equal(history[0].source, 'received');
    assert.equal(history[0].delta, 3);
    assert.equal(history[0].purchaseOrderId, order.id);
    await page.locator('#po-detail .badge', { hasText: 'Partly received' }).waitFor();
    await page.locator(`#po-detail tr[data-pet-id="${pet.guppy}"] [data-cell="left"]`).first().filter({ hasText: '7' }).waitFor();

    // More than is left: the server's refusal in words, nothing received, the count kept.
    await page.locator('#receive-count-' + pet.guppy).fill('9');
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByRole('alert').filter({ hasText: 'Only 7 Guppy are left to receive on this order, not 9' }).waitFor();
    assert.equal(await stock(pet.guppy), 5);
    await page.locator('#receive-count-' + pet.guppy).fill('0');
    await page.keyboard.press('Enter');
    await scan(page, GUPPY);
    await page.getByText('Guppy: 1 of 7 left to receive.').waitFor();
    await page.locator('#receive').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'stockroom-receiving-by-scan.png') });
    await page.goto(server.base + '/#/purchasing');
    await page.locator(`tr[data-po-id="${order.id}"]`).getByText('Partly received').waitFor();
    await page.screenshot({ path: path.join(shots, 'stockroom-purchasing-partial.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('receives the rest on a tablet, which closes the order', async () => {
    const [order] = await admin.get('/store/purchase-orders?status=partial');
    const { context, page, errors } = await signedIn('#/purchasing', TABLET);
    await page.locator(`tr[data-po-id="${order.id}"]`).getByRole('link', { name: `Receive purchase order ${order.number}` }).tap();
    await page.waitForFunction(() => document.activeElement?.id === 'receive-scan');
    for (let i = 0; i < 7; i += 1) await scan(page, GUPPY);
    await page.getByLabel('Units per scan').fill('14');
    await page.keyboard.press('Enter');
    await scan(page, 'tetra-neon');
    const wide = await page.evaluate(() => [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1 && !e.closest('.table-wrap, nav.nav'))
      .map((e) => `${e.tagName.toLowerCase()}#${e.id}.${e.className}`).slice(0, 5));
    assert.deepEqual(wide, [], 'no sideways scrolling');
    const widths = await page.evaluate(() => [document.documentElement.scrollWidth, window.innerWidth, ...[...document.querySelectorAll('body *')].filter((e) => e.getBoundingClientRect().right > window.innerWidth + 1).map((e) => `${e.tagName}.${e.className}#${e.id}:${Math.round(e.getBoundingClientRect().right)}`).slice(0, 12)]);
    assert.ok(Number(widths[0]) <= Number(widths[1]), `no sideways scrolling: ${widths.join(' ')}`);
    assert.deepEqual(await violations(page), []);
    await page.getByRole('button', { name: 'Receive', exact: true }).tap();
    await page.getByText(/Received 21 units: purchase order #\d+ is complete/).waitFor();
    const done = await admin.get(`/store/purchase-orders/${order.id}`);
    assert.equal(done.status, 'received');
    assert.deepEqual(done.lines.map((/** @type {any} */ l) => l.received), [10, 24]);
    assert.equal(await stock(pet.guppy), 12);
    assert.equal(await stock(pet.tetra), 25);
    // A received order offers no more receiving.
    await page.locator('#po-detail .badge', { hasText: 'Received' }).waitFor();
    assert.equal(await page.locator('#receive-scan').count(), 0);
    // Labels for what came in: its pets ticked, as many copies as the largest line brought (up to 50).
    await page.locator('#po-detail').getByRole('button', { name: 'Print labels' }).tap();
    const labels = page.getByRole('dialog', { name: 'Print shelf labels' });
    assert.equal(await labels.getByLabel('Copies of each').inputValue(), '24');
    assert.equal(await labels.getByRole('checkbox', { checked: true }).count(), 2);
    await labels.getByRole('button', { name: 'Cancel' }).tap();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('prints shelf labels for two pets, twice each, from the Pets page', async () => {
    // The server's own Content-Security-Policy holds: the sheet is drawn into the window under it.
    const { context, page, errors } = await signedIn('#/pets', DESKTOP, true);
    await page.getByRole('rowheader', { name: /^Guppy/ }).waitFor();
    await countPrints(page);
    await page.getByRole('button', { name: 'Print labels' }).click();
    const dialog = page.getByRole('dialog', { name: 'Print shelf labels' });
    await dialog.getByLabel(/^Platy/).uncheck();
    await dialog.getByLabel('Copies of each').fill('2');
    const [popup] = await Promise.all([page.waitForEvent('popup'), dialog.getByRole('button', { name: 'Print labels' }).click()]);
    await popup.waitForFunction(() => /** @type {any} */ (window).__printed === true);
    const texts = await popup.evaluate(() => [...document.querySelectorAll('#labels svg text')].map((t) => t.textContent ?? ''));
    assert.equal(texts.filter((t) => t === 'Guppy').length, 2, texts.join(' | '));
    assert.equal(texts.filter((t) => t === 'Neon tetra').length, 2, texts.join(' | '));
    assert.equal(texts.filter((t) => t === 'Platy').length, 0);
    assert.equal(texts.filter((t) => t === GUPPY).length, 2, texts.join(' | '));
    assert.equal(texts.filter((t) => t === 'TETRA-NEON').length, 2, texts.join(' | '));
    assert.ok(texts.includes('3.50 USD'), texts.join(' | '));
    await popup.screenshot({ path: path.join(shots, 'stockroom-labels.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('keeps a count being typed on Receive when another device receives meanwhile', async () => {
    const supplier = (await admin.post('/store/suppliers', { name: 'Case Foods' })).id;
    const food = (await admin.post('/categories', { name: 'Food' })).id;
    const flakes = (await admin.post('/pets', { name: 'Flakes', categoryId: food, sku: 'FLAKES-1', price: 500 })).id;
    const pellets = (await admin.post('/pets', { name: 'Pellets', categoryId: food, sku: 'PELLETS-1', price: 600 })).id;
    const order = await admin.post('/store/purchase-orders', { supplierId: supplier, lines: [{ petId: flakes, quantity: 5 }, { petId: pellets, quantity: 12 }] });
    await admin.post(`/store/purchase-orders/${order.id}/send`, {});
    const { context, page, errors } = await signedIn(`#/purchasing?order=${order.id}`, DESKTOP);
    await page.waitForFunction(() => document.activeElement?.id === 'receive-scan');
    const left = (/** @type {number} */ id, /** @type {string} */ n) => page.locator(`#receive tr[data-pet-id="${id}"] [data-cell="left"]`).filter({ hasText: new RegExp(`^${n}$`) }).waitFor();
    /** Another device receives one unit of Flakes: the page redraws from the event. @param {string} nowLeft */
    const elsewhere = async (nowLeft) => {
      await admin.post(`/store/purchase-orders/${order.id}/receive`, { lines: [{ petId: flakes, quantity: 1 }] });
      await left(flakes, nowLeft);
    };

    // A case of 12 typed in "Units per scan", the redraw coming between its two digits.
    await page.getByLabel('Units per scan').click();
    await page.keyboard.type('1');
    await elsewhere('4');
    await page.keyboard.type('2');
    assert.equal(await page.getByLabel('Units per scan').inputValue(), '12');
    await page.keyboard.press('Enter');
    await scan(page, 'PELLETS-1');
    await page.getByText('Pellets: 12 of 12 left to receive.').waitFor();

    // A count typed in the table: the redraw neither empties the box nor takes the keyboard.
    await page.locator('#receive-count-' + flakes).click();
    await page.keyboard.type('2');
    await elsewhere('3');
    assert.equal(await page.locator('#receive-count-' + flakes).inputValue(), '2');
    await page.keyboard.type('0');
    assert.equal(await page.locator('#receive-count-' + flakes).inputValue(), '20');
    await page.keyboard.press('Backspace');
    await page.keyboard.press('Backspace');
    await page.keyboard.type('3');
    await page.keyboard.press('Enter');
    await page.locator(`#receive tr[data-pet-id="${flakes}"] [data-cell="after"]`).filter({ hasText: /^0$/ }).waitFor();
    await page.getByRole('button', { name: 'Receive', exact: true }).click();
    await page.getByText(/Received 15 units: purchase order #\d+ is complete/).waitFor();
    const done = await admin.get(`/store/purchase-orders/${order.id}`);
    assert.deepEqual(done.lines.map((/** @type {any} */ l) => [l.petId, l.received]), [[flakes, 5], [pellets, 12]]);
    assert.equal(done.status, 'received');
    assert.equal(await stock(pellets), 12);
    assert.deepEqual(errors, []);
    await context.close();
  });
  it('prints labels for pets ticked on different pages and searches, all together', async () => {
    const bulk = (await admin.post('/categories', { name: 'Bulk' })).id;
    for (let n = 1; n <= 30; n += 1) {
      const two = String(n).padStart(2, '0');
      await admin.post('/pets', { name: `Bulk ${two}`, categoryId: bulk, sku: `BULK-${two}`, price: 100 });
    }
    const { context, page, errors } = await signedIn('#/pets', DESKTOP, true);
    await countPrints(page);
    const tick = (/** @type {string} */ name) => page.getByRole('checkbox', { name: `Select ${name} for labels`, exact: true });
    // Page 1 of the list by name holds Bulk 01 to Bulk 25; Guppy is on page 2.
    await tick('Bulk 02').check();
    await page.locator('[data-focus-key="next-pets"]').click();
    await tick('Guppy').check();
    await page.getByLabel('Search name or category').fill('tetra');
    await page.getByRole('rowheader', { name: /^Bulk/ }).first().waitFor({ state: 'detached' });
    await tick('Neon tetra').check();
    await page.getByLabel('Search name or category').fill('');
    await page.getByRole('rowheader', { name: /^Bulk 01/ }).waitFor();
    assert.equal(await tick('Bulk 02').isChecked(), true, 'still ticked after the search');
    assert.equal(await tick('Bulk 01').isChecked(), false);

    await page.getByRole('button', { name: 'Print labels (3 selected)' }).click();
    const dialog = page.getByRole('dialog', { name: 'Print shelf labels' });
    assert.deepEqual(await dialog.getByRole('checkbox', { checked: true }).evaluateAll((boxes) => boxes.map((b) => b.closest('.check')?.querySelector('label')?.firstChild?.textContent)),
      ['Bulk 02', 'Guppy', 'Neon tetra']);
    assert.equal(await dialog.getByRole('checkbox').count(), 3);
    const [popup] = await Promise.all([page.waitForEvent('popup'), dialog.getByRole('button', { name: 'Print labels' }).click()]);
    await popup.waitForFunction(() => /** @type {any} */ (window).__printed === true);
    const texts = await popup.evaluate(() => [...document.querySelectorAll('#labels svg text')].map((t) => t.textContent ?? ''));
    assert.deepEqual(texts.filter((t) => /^(Bulk \d\d|Guppy|Neon tetra|Platy)$/.test(t)), ['Bulk 02', 'Guppy', 'Neon tetra']);
    assert.deepEqual(texts.filter((t) => /^(BULK-\d\d|TETRA-NEON)$/.test(t) || t === GUPPY), ['BULK-02', GUPPY, 'TETRA-NEON']);
    await popup.close();

    // The selection stays until it is cleared.
    await page.getByRole('button', { name: 'Clear selection' }).click();
    await page.getByRole('button', { name: 'Print labels', exact: true }).waitFor();
    assert.equal(await tick('Bulk 02').isChecked(), false);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
