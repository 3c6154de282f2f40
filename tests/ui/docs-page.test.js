// The /docs reference page in real headless Chromium against the real petstore binary: it loads
// only from this server, the Authorize box takes an API key, "Try it out" calls this same server
// with it, and GET /store/orders (marked `x-try-it: false`) offers no test panel.
// Screenshots go to tests/ui/screenshots/docs-*.png.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { stopShop } from './lib/shop.js';
import { launchBrowser, openPage } from './lib/browser.js';

const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
mkdirSync(shots, { recursive: true });
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations (its default rules), by rule and first nodes. @param {import('playwright-core').Page} page */
async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  return /** @type {string[]} */ (await page.evaluate(async () => {
    const res = await /** @type {any} */ (window).axe.run(document, { resultTypes: ['violations'] });
    return res.violations.map((/** @type {any} */ v) => `${v.id} (${v.nodes.length}): ${v.nodes.slice(0, 2).map((/** @type {any} */ n) => n.target.join(' ')).join(' | ')}`);
  }));
}

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

  after(() => stopShop(server, browser));

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
  it('passes axe at 1280×800 and on a tablet, operations and the Authorize box open, and links back to the staff screens', async () => {
    // A page of its own that may inject axe-core (the page's policy allows only its own scripts).
    const checked = await openPage(browser, { bypassCSP: true });
    const p = checked.page;
    await p.goto(`${server.base}/docs`);
    await p.locator('#operations-Store-listOrders').waitFor();
    for (const size of [{ width: 1280, height: 800 }, { width: 820, height: 1180 }]) {
      await p.setViewportSize(size);
      assert.deepEqual(await violations(p), [], `the page at ${size.width}×${size.height}`);
    }
    await p.setViewportSize({ width: 1280, height: 800 });
    const pets = p.locator('#operations-Pets-listPets');
    await pets.locator('.opblock-summary-control').click();
    await pets.locator('.parameters-container').waitFor();
    await p.locator('#operations-Pets-createPet .opblock-summary-control').click();
    await p.locator('#operations-Pets-createPet .parameters-container, #operations-Pets-createPet .opblock-description-wrapper').first().waitFor();
    assert.deepEqual(await violations(p), [], 'with operations open');
    await p.locator('.auth-wrapper .authorize').click();
    await p.locator('.modal-ux').waitFor();
    assert.deepEqual(await violations(p), [], 'with the Authorize box open');
    await p.keyboard.press('Escape');
    await p.locator('.modal-ux .btn-done, .modal-ux .close-modal').first().click().catch(() => {});
    const back = p.getByRole('link', { name: '← Back to the staff screens' });
    assert.equal(await back.getAttribute('href'), '/');
    assert.deepEqual(checked.errors, []);
    await checked.context.close();
  });
});
