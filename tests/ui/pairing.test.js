// Backups and pairing in the browser: an admin takes and downloads a backup on the Backups
// page; an admin pairs a till on the Keys page, and the till, in a browser context of its own,
// opens the QR code's address, is signed in and sells as a `pos` key; over HTTPS the panel and
// the Keys page show the fingerprint the server printed, which the pairing address carries.
// Screenshots: backups.png, pair-a-till.png and pair-a-till-https.png (docs/screenshots/ with
// PETSTORE_SCREENSHOTS=docs).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { launchBrowser, openPage, goToPage, signInWithKey } from './lib/browser.js';
import { screenshotFolder } from './lib/screenshots.js';
import { client } from './lib/client.js';
import { violations } from './lib/axe.js';

const shots = screenshotFolder();

/** Signs in with the admin key and waits for the Pets page. @param {import('playwright-core').Page} page @param {string} base */
async function signInAsAdmin(page, base) {
  await page.goto(base + '/');
  await signInWithKey(page, ADMIN_KEY);
  await page.getByRole('heading', { level: 1, name: 'Pets' }).waitFor();
}

/** Opens "Pair a till" on the Keys page for a `pos` till; the panel's URL. @param {import('playwright-core').Page} page @param {string} name */
async function pairTill(page, name) {
  await goToPage(page, 'Keys');
  await page.locator('main .page[aria-busy="false"]').waitFor();
  await page.getByRole('button', { name: 'Pair a till' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Name', { exact: true }).fill(name);
  assert.equal(await dialog.getByLabel('Role', { exact: true }).inputValue(), 'pos');
  await dialog.getByRole('button', { name: 'Show the QR code' }).click();
  const panel = page.locator('.pair-panel');
  await panel.waitFor();
  // The QR code is drawn (fetched with the admin key, shown as an image).
  await page.waitForFunction(() => {
    const img = /** @type {HTMLImageElement | null} */ (document.querySelector('.pair-qr'));
    return img !== null && img.complete && img.naturalWidth > 0;
  });
  const url = /** @type {string} */ (await panel.getAttribute('data-pairing-url'));
  const code = /** @type {string} */ (await panel.getAttribute('data-code'));
  assert.match(await page.locator('.pair-code-chars').innerText(), new RegExp(`^${code.slice(0, 4)} ${code.slice(4)}$`));
  assert.match(await page.locator('.pair-countdown').innerText(), /^Expires in (10:00|9:[0-5]\d)/);
  assert.equal(await page.locator('.pair-url').innerText(), url);
  return { url, code, panel };
}

describe('backups and pairing a till, in the browser', () => {
  /** @type {import('playwright-core').Browser} */
  let browser;

  before(async () => {
    browser = await launchBrowser();
  });

  after(async () => {
    await browser?.close();
  });

  it('takes a backup now, lists it with its time and size, and downloads it', async () => {
    const server = await startServer();
    try {
      const { context, page, errors } = await openPage(browser, { bypassCSP: true });
      await signInAsAdmin(page, server.base);
      await goToPage(page, 'Backups');
      await page.getByRole('heading', { level: 1, name: 'Backups' }).waitFor();
      await page.locator('main .page[aria-busy="false"]').waitFor();
      const rows = page.locator('main tbody tr[data-backup]');
      const before = await rows.count();
      await page.getByRole('button', { name: 'Back up now' }).click();
      await page.locator('.toast', { hasText: 'Backed up' }).waitFor();
      await page.waitForFunction((n) => document.querySelectorAll('main tbody tr[data-backup]').length === n + 1, before);
      const listed = await client(server.base, ADMIN_KEY).get('/admin/backups');
      const newest = listed[0];
      const row = page.locator(`tr[data-backup="${newest.name}"]`);
      assert.match(await row.locator('td.num').innerText(), /^\d+(\.\d)? (KB|MB)$/);
      assert.equal(await row.locator('time').getAttribute('datetime'), newest.createdAt);
      await page.mouse.move(0, 0);
      assert.deepEqual(await violations(page), []);
      await page.screenshot({ path: path.join(shots, 'backups.png') });

      const downloading = page.waitForEvent('download');
      await row.getByRole('button', { name: `Download ${newest.name}` }).click();
      const file = await downloading;
      assert.equal(file.suggestedFilename(), newest.name);
      const saved = readFileSync(/** @type {string} */ (await file.path()));
      assert.equal(saved.length, newest.size);
      assert.equal(saved.subarray(0, 16).toString('latin1'), 'SQLite format 3\u0000');
      await context.close();
      assert.deepEqual(errors, []);
    } finally {
      await server.stop();
    }
  });

  it('pairs a till on the Keys page, and the till opens the address in its own browser and sells as a pos key', async () => {
    const server = await startServer();
    try {
      const admin = client(server.base, ADMIN_KEY);
      const cat = await admin.post('/categories', { name: 'Tropical fish' });
      const pet = await admin.post('/pets', { name: 'Neon tetra', categoryId: cat.id, status: 'available' });
      await admin.put(`/store/inventory/${pet.id}`, { quantity: 12 });

      const desk = await openPage(browser, { bypassCSP: true });
      await signInAsAdmin(desk.page, server.base);
      const { url, code } = await pairTill(desk.page, 'Till 7');
      assert.equal(url, `${server.base}/pair?code=${code}`);
      // The server listens on this PC only: the panel says no till can use the address.
      await desk.page.locator('.pair-local', { hasText: 'No till can use this address' }).waitFor();
      assert.deepEqual(await violations(desk.page), []);
      await desk.page.mouse.move(0, 0);
      await desk.page.screenshot({ path: path.join(shots, 'pair-a-till.png') });

      // The till: another browser context (its own storage), which opens the QR code's address.
      const till = await openPage(browser, { viewport: { width: 820, height: 1180 } });
      await till.page.goto(url);
      // A till opens on the Till, where it sells.
      await till.page.getByRole('heading', { level: 1, name: 'Till' }).waitFor();
      const stored = await till.page.evaluate(() => JSON.stringify(Object.values(localStorage)));
      assert.match(stored, /psk_/, 'the till keeps its own key on the device');
      await till.page.getByRole('link', { name: 'Orders', exact: true }).click();
      await till.page.locator('main .page[aria-busy="false"]').waitFor();
      await till.page.getByRole('button', { name: '+ Place order' }).click();
      const dialog = till.page.getByRole('dialog');
      await dialog.getByLabel('Find a pet').fill('neon');
      await dialog.locator('select[name="petId"][aria-busy="false"]').waitFor();
      await dialog.getByLabel('Quantity').fill('2');
      await dialog.getByRole('button', { name: 'Place order' }).click();
      await till.page.locator('.toast', { hasText: 'placed' }).waitFor();

      const keys = await admin.get('/admin/keys');
      const paired = keys.find((/** @type {any} */ k) => k.name === 'Till 7');
      assert.equal(paired?.role, 'pos');
      assert.equal((await admin.get(`/store/inventory/${pet.id}`)).quantity, 10);
      const orders = await admin.get('/store/orders');
      assert.equal(orders.length, 1);
      assert.equal(orders[0].quantity, 2);
      // The code was used up.
      const again = await fetch(`${server.base}/pair`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ code }) });
      assert.equal(again.status, 404);
      await desk.context.close();
      await till.context.close();
      assert.deepEqual(desk.errors, []);
      assert.deepEqual(till.errors, []);
    } finally {
      await server.stop();
    }
  });

  it('a key typed on a paired till, once revoked, leaves the till on its own pairing key and says so, while it runs and at its next start', async () => {
    const server = await startServer();
    try {
      const admin = client(server.base, ADMIN_KEY);
      /** @param {string} id */
      const revoke = async (id) => {
        const res = await fetch(`${server.base}/admin/keys/${id}`, { method: 'DELETE', headers: { 'X-API-Key': ADMIN_KEY } });
        assert.equal(res.status, 204, `revoking key ${id}`);
      };
      /**
       * A tablet where someone typed a key, then paired in the same tab: the typed key stays
       * in use (this tab's session) over the device's own key (kept on the device).
       * @param {string} name the till's name
       */
      const typedThenPaired = async (name) => {
        const typed = await admin.post('/admin/keys', { name: `Typed on ${name}`, role: 'staff', plan: 'business' });
        const pairing = await admin.post('/admin/pairings', { name, role: 'pos', plan: 'business' });
        const till = await openPage(browser, { viewport: { width: 820, height: 1180 } });
        await till.page.goto(server.base + '/');
        await signInWithKey(till.page, typed.secret);
        await till.page.getByRole('heading', { level: 1, name: 'Pets' }).waitFor();
        await till.page.goto(`${server.base}/pair?code=${pairing.code}`);
        await till.page.getByRole('heading', { level: 1, name: 'Pets' }).waitFor();
        const stored = await till.page.evaluate(() => ({ device: localStorage.getItem('petstore.device-key'), typed: sessionStorage.getItem('petstore.key') }));
        assert.equal(stored.typed, typed.secret, 'the typed key is the one in use');
        assert.ok(stored.device && stored.device !== typed.secret, 'the till keeps its own key beside it');
        return { till, typed, deviceKey: /** @type {string} */ (stored.device) };
      };
      /** What the till shows and keeps once the typed key is refused. @param {import('playwright-core').Page} page @param {string} deviceKey */
      const backOnItsOwnKey = async (page, deviceKey) => {
        // Past the page's own title before the app starts ('Petstore') and the Pets page the
        // typed key opened, to whatever the till shows once that key is refused.
        await page.waitForFunction(() => !['', 'Petstore', 'Pets — Petstore'].includes(document.title));
        const seen = await page.evaluate(() => ({ title: document.title, device: localStorage.getItem('petstore.device-key'), typed: sessionStorage.getItem('petstore.key') }));
        assert.equal(seen.device, deviceKey, 'the till still has its pairing key');
        assert.equal(seen.typed, null, 'the revoked typed key is forgotten');
        assert.equal(seen.title, 'Till — Petstore', 'the till sells again on its own key, not a key form');
        await page.getByRole('button', { name: 'Unpair this device…' }).waitFor();
        await page.locator('.toast', { hasText: 'The key typed on this till was revoked or is no longer valid. This till stays paired.' }).waitFor();
        // The pairing key is the one the till uses, and the server still takes it.
        assert.equal((await fetch(server.base + '/pets', { headers: { 'X-API-Key': deviceKey } })).status, 200);
      };

      // While the till runs: the typed key's event stream ends with the revocation.
      const live = await typedThenPaired('Till 3');
      await revoke(live.typed.id);
      await backOnItsOwnKey(live.till.page, live.deviceKey);
      assert.deepEqual(live.till.errors, []);
      await live.till.context.close();

      // At the next start: the typed key was revoked while the page was closed.
      const later = await typedThenPaired('Till 4');
      await later.till.page.goto('about:blank');
      await revoke(later.typed.id);
      await later.till.page.goto(server.base + '/');
      await backOnItsOwnKey(later.till.page, later.deviceKey);
      assert.deepEqual(later.till.errors, []);
      await later.till.context.close();
    } finally {
      await server.stop();
    }
  });

  it('over HTTPS shows the fingerprint the server printed, and the pairing address carries it', async () => {
    const server = await startServer(['--tls']);
    try {
      assert.match(server.base, /^https:\/\//);
      const fingerprintLine = /Its SHA-256 fingerprint: ([0-9A-F:]{95})/;
      for (let i = 0; i < 100 && !fingerprintLine.test(server.log()); i++) await new Promise((r) => setTimeout(r, 50));
      const printed = fingerprintLine.exec(server.log())?.[1];
      assert.ok(printed, `the start banner prints the fingerprint:\n${server.log()}`);

      // The store's own certificate is not one a browser knows: like a person who checked the
      // fingerprint and chose to continue.
      const desk = await openPage(browser, { ignoreHTTPSErrors: true, bypassCSP: true });
      await signInAsAdmin(desk.page, server.base);
      const { url, code } = await pairTill(desk.page, 'Till 8');
      assert.equal(url, `${server.base}/pair?code=${code}&fp=${printed}`);
      const shown = (await desk.page.locator('.pair-fp .fingerprint').innerText()).replace(/\s+/g, ':');
      assert.equal(shown, printed);
      assert.deepEqual(await violations(desk.page), []);
      await desk.page.mouse.move(0, 0);
      await desk.page.screenshot({ path: path.join(shots, 'pair-a-till-https.png') });
      await desk.page.keyboard.press('Escape');
      const note = desk.page.locator('.cert-note');
      await note.waitFor();
      assert.equal(await note.getAttribute('data-fingerprint'), printed);

      const till = await openPage(browser, { ignoreHTTPSErrors: true });
      await till.page.goto(url);
      // A till opens on the Till, where it sells.
      await till.page.getByRole('heading', { level: 1, name: 'Till' }).waitFor();
      await desk.context.close();
      await till.context.close();
      assert.deepEqual(desk.errors, []);
      assert.deepEqual(till.errors, []);
    } finally {
      await server.stop();
    }
  });
});
