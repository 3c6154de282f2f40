// The /docs reference page in real headless Chromium against the real petstore binary: it loads
// only from this server, the Authorize box takes an API key, "Try it out" calls this same server
// with it, and GET /store/orders (marked `x-try-it: false`) offers no test panel.
// Screenshots go to tests/ui/screenshots/docs-*.png.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { launchBrowser, openPage } from './lib/browser.js';

const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
mkdirSync(shots, { recursive: true });

describe('the /docs reference page', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let page;
  /** @type {string[]} */
  let errors;
  /** Every address the page asked for. */
  const requested = [];

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    ({ page, errors } = await openPage(browser));
    page.on('request', (r) => requested.push(r.url()));
    await page.goto(`${server.base}/docs`);
    await page.locator('#operations-Store-listOrders').waitFor();
  });

  after(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the interface from /openapi.json, loaded from this server only', async () => {
    assert.match(await page.locator('.info .title').innerText(), /^Pet Store/);
    const foreign = requested.filter((u) => !u.startsWith(server.base) && !u.startsWith('data:'));
    assert.deepEqual(foreign, [], 'no request leaves this server (no CDN, fonts or validator)');
    assert.ok(requested.includes(`${server.base}/openapi.json`));
    assert.deepEqual(errors, []);
    await page.screenshot({ path: path.join(shots, 'docs-top.png') });
  });

  it('offers no test panel for GET /store/orders', async () => {
    const orders = page.locator('#operations-Store-listOrders');
    await orders.locator('.opblock-summary-control').click();
    await orders.locator('.parameters-container').waitFor();
    assert.equal(await orders.locator('.try-out__btn').count(), 0, 'no "Try it out" button');
    assert.equal(await orders.locator('.execute').count(), 0, 'no "Execute" button');
    await orders.scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'docs-orders.png') });
  });

  it('calls this server with the key given in the Authorize box', async () => {
    await page.locator('.auth-wrapper .authorize').click();
    const dialog = page.locator('.modal-ux');
    await dialog.locator('input').first().fill(ADMIN_KEY);
    await dialog.locator('.auth-btn-wrapper .authorize').first().click();
    await dialog.locator('.btn-done').first().click();

    const pets = page.locator('#operations-Pets-listPets');
    await pets.locator('.opblock-summary-control').click();
    await pets.locator('.try-out__btn').click();
    const sent = page.waitForRequest((r) => r.url().startsWith(`${server.base}/pets?`));
    await pets.locator('.execute').click();
    const request = await sent;
    assert.equal(request.headers()['x-api-key'], ADMIN_KEY);
    const status = pets.locator('.live-responses-table tbody .response-col_status').first();
    assert.equal((await status.innerText()).trim(), '200');
    await pets.locator('.live-responses-table').scrollIntoViewIfNeeded();
    await page.screenshot({ path: path.join(shots, 'docs-try-it.png') });
  });
});
