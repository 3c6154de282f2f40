// The till when the store cannot be reached, in real headless Chromium against the real
// petstore binary: the server's process is killed in the middle of a shift, five sales are
// rung up (the page reloaded once between them), the server is started again on the same
// store file and port, and every sale arrives exactly once with the time it was made; and a
// sale whose answer is cut after the store committed it is counted once.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import path from 'node:path';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { screenshotFolder } from './lib/screenshots.js';
import { client } from './lib/client.js';
import { startShop, stopShop } from './lib/shop.js';
import { stockShop, tillPage, clerk } from './lib/till.js';
import { violations } from './lib/axe.js';

const shots = screenshotFolder();

/**
 * A proxy in front of the store that forwards everything, except that (with `cutFirstSale`)
 * the first answer to `POST /store/sales` is read from the store and then thrown away: the
 * connection is cut, as a dropped Wi-Fi would after the store committed the sale. While
 * `down` is set it cuts every connection at once, as an unplugged network cable would.
 * @param {string} upstream
 * @param {{ cutFirstSale: boolean }} o
 */
async function cuttingProxy(upstream, o) {
  const target = new URL(upstream);
  let cut = o.cutFirstSale ? 0 : 1;
  const state = { down: false };
  /** @type {Array<{ key: string, idempotencyKey: string }>} the sales that reached the store */
  const posts = [];
  const server = http.createServer((req, res) => {
    if (state.down) {
      req.socket.destroy();
      return;
    }
    if (req.method === 'POST' && req.url === '/store/sales') posts.push({ key: String(req.headers['x-api-key']), idempotencyKey: String(req.headers['idempotency-key']) });
    const out = http.request({ host: target.hostname, port: target.port, method: req.method, path: req.url, headers: { ...req.headers, host: target.host } }, (up) => {
      if (req.method === 'POST' && req.url === '/store/sales' && cut === 0) {
        cut += 1;
        up.resume();
        up.on('end', () => req.socket.destroy());
        return;
      }
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise((r) => server.listen(0, '127.0.0.1', () => r(undefined)));
  const addr = /** @type {import('node:net').AddressInfo} */ (server.address());
  return { base: `http://127.0.0.1:${addr.port}`, state, posts, cuts: () => cut, close: () => new Promise((r) => { server.closeAllConnections(); server.close(() => r(undefined)); }) };
}

describe('the till offline', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {ReturnType<typeof client>} */
  let admin;
  let categoryId = 0;

  before(async () => {
    ({ server, browser, admin } = await startShop());
    categoryId = (await admin.post('/categories', { name: 'Everything' })).id;
  });

  after(() => stopShop(server, browser));

  it('keeps five sales made while the store is down, across a reload, and sends each once with its soldAt', async () => {
    const pets = await stockShop(admin, categoryId, [
      { name: 'Rabbit food', price: 899, stock: 40 },
      { name: 'Water bottle', price: 450, stock: 40 },
    ], '300000001');
    const till = 'Till offline';
    const key = (await admin.post('/admin/keys', { name: till, role: 'pos', plan: 'business' })).secret;
    const shift = await admin.post('/store/shifts', { till, openingCash: 5000 });
    const { context, page, errors } = await tillPage(browser, { key, name: till, viewport: { width: 820, height: 1180 } });
    await page.goto(server.base + '/');
    await page.locator('.till[data-catalogue="fresh"]').waitFor();
    // The till says when it can start offline: its shell is kept on the device.
    await page.locator('.till[data-shell="ready"]').waitFor();

    await server.kill();
    const c = clerk(page);
    /** @type {Array<[string, string]>} */
    const windows = [];
    /**
     * One sale: a scan or two and exact cash; the time it was rung up in, as the test saw it.
     * @param {string[]} codes @param {boolean} [last]  leave its "kept" panel on the screen
     */
    const sell = async (codes, last = false) => {
      const from = new Date().toISOString();
      for (const code of codes) await c.scan(code);
      await c.click(page.getByRole('button', { name: /^Pay / }));
      await c.click(page.getByRole('button', { name: /^Exact / }));
      await page.getByText('Sale kept on this device').waitFor();
      windows.push([from, new Date().toISOString()]);
      if (!last) await c.click(page.getByRole('button', { name: 'New sale' }));
    };
    const food = pets['Rabbit food'].barcode;
    const bottle = pets['Water bottle'].barcode;
    await sell([food]);
    await sell([bottle, bottle]);
    await sell([food, bottle]);
    await page.getByText('3 sales waiting to send').waitFor();

    // A reload while the store is down: the shell starts from the device, the sales stay.
    await page.reload();
    await page.locator('.till[data-catalogue="kept"]').waitFor();
    await page.getByText('3 sales waiting to send').waitFor();
    await sell([food, food, food]);
    await sell([bottle], true);
    await page.getByText('5 sales waiting to send').waitFor();
    await page.getByText('Till offline: shift open').waitFor();
    await page.screenshot({ path: path.join(shots, 'till-offline-waiting.png') });
    assert.deepEqual(await violations(page), [], 'axe on the till offline');

    await server.resume();
    await page.waitForFunction(() => /** @type {HTMLElement | null} */ (document.querySelector('.till-waiting'))?.dataset.waiting === '0', undefined, { timeout: 60_000 });
    const sales = (await admin.get(`/store/sales?till=${encodeURIComponent(till)}`)).reverse();
    assert.equal(sales.length, 5, 'each sale arrived once');
    const totals = [899, 900, 1349, 2697, 450];
    sales.forEach((/** @type {any} */ s, /** @type {number} */ i) => {
      assert.equal(s.total, totals[i], `sale ${i + 1} in the order it was rung up`);
      // The store may keep whole seconds: the window starts at the second the sale began.
      const t = Date.parse(s.soldAt);
      assert.ok(t >= Math.floor(Date.parse(windows[i][0]) / 1000) * 1000 && t <= Date.parse(windows[i][1]), `sale ${i + 1} carries the time it was made: ${s.soldAt} in ${windows[i]}`);
    });
    const numbers = sales.map((/** @type {any} */ s) => s.number);
    assert.deepEqual(numbers, [...numbers].sort((a, b) => a - b));
    assert.equal((await admin.get(`/store/inventory/${pets['Rabbit food'].id}`)).quantity, 40 - 5);

    const z = await admin.post(`/store/shifts/${shift.id}/close`, { countedCash: 5000 + 6295 });
    assert.equal(z.sales.count, 5);
    assert.equal(z.sales.byMethod.cash, 6295);
    assert.equal(z.difference, 0);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('starts offline after a reload even when the store goes away the moment its shell worker is active', async () => {
    const pets = await stockShop(admin, categoryId, [{ name: 'Hay bale', price: 700, stock: 5 }], '300000004');
    const till = 'Till at once';
    const key = (await admin.post('/admin/keys', { name: till, role: 'pos', plan: 'business' })).secret;
    const { context, page, errors } = await tillPage(browser, { key, name: till, viewport: { width: 1280, height: 800 } });
    await page.goto(server.base + '/');
    await page.locator('.till[data-catalogue="fresh"]').waitFor();
    // The worst moment: the first instant the browser has an active worker for the page.
    await page.evaluate(async () => { await navigator.serviceWorker.ready; });
    await server.kill();
    try {
      /** @type {string[]} */
      const failed = [];
      page.on('requestfailed', (r) => {
        const u = new URL(r.url());
        if (u.pathname === '/' || u.pathname.startsWith('/ui/')) failed.push(u.pathname);
      });
      await page.reload();
      await page.locator('.till[data-catalogue="kept"]').waitFor();
      assert.deepEqual(failed, [], 'every file of the page came from the device');
      const c = clerk(page);
      await c.scan(pets['Hay bale'].barcode);
      await c.click(page.getByRole('button', { name: /^Pay / }));
      await c.click(page.getByRole('button', { name: /^Exact / }));
      await page.getByText('Sale kept on this device').waitFor();
      await page.getByText('1 sale waiting to send').waitFor();
      assert.deepEqual(errors, []);
    } finally {
      await server.resume();
    }
    await page.waitForFunction(() => /** @type {HTMLElement | null} */ (document.querySelector('.till-waiting'))?.dataset.waiting === '0', undefined, { timeout: 60_000 });
    assert.deepEqual((await admin.get(`/store/sales?till=${encodeURIComponent(till)}`)).map((/** @type {any} */ s) => s.total), [700]);
    await context.close();
  });

  it('counts once a sale whose answer was cut after the store committed it', async () => {
    const pets = await stockShop(admin, categoryId, [{ name: 'Fish net', price: 650, stock: 10 }], '300000002');
    const key = (await admin.post('/admin/keys', { name: 'Till cut', role: 'pos', plan: 'business' })).secret;
    const proxy = await cuttingProxy(server.base, { cutFirstSale: true });
    try {
      const { context, page, errors } = await tillPage(browser, { key, name: 'Till cut', viewport: { width: 1280, height: 800 } });
      await page.goto(proxy.base + '/#/till');
      await page.locator('.till[data-catalogue="fresh"]').waitFor();
      const c = clerk(page);
      await c.scan(pets['Fish net'].barcode);
      await c.click(page.getByRole('button', { name: /^Pay / }));
      await c.click(page.getByRole('button', { name: /^Exact / }));
      await page.locator('.till-done-title').waitFor();
      await page.locator('.till[data-catalogue]').waitFor();
      await page.waitForFunction(() => /** @type {HTMLElement | null} */ (document.querySelector('.till-waiting'))?.dataset.waiting === '0');
      assert.equal(proxy.cuts(), 1, 'the first answer was cut');
      const sales = await admin.get('/store/sales?till=Till%20cut');
      assert.equal(sales.length, 1, 'the sale was made once');
      assert.equal((await admin.get(`/store/inventory/${pets['Fish net'].id}`)).quantity, 9);
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await proxy.close();
    }
  });

  it('sends a sale kept before a sign-out under the key it was rung up under, once, whoever signs in next', async () => {
    const pets = await stockShop(admin, categoryId, [{ name: 'Tortoise lamp', price: 1800, stock: 4 }], '300000005');
    const early = (await admin.post('/admin/keys', { name: 'Till early', role: 'pos', plan: 'business' })).secret;
    const late = (await admin.post('/admin/keys', { name: 'Till late', role: 'pos', plan: 'business' })).secret;
    const proxy = await cuttingProxy(server.base, { cutFirstSale: true });
    try {
      const { context, page, errors } = await tillPage(browser, { key: early, paired: false, viewport: { width: 1280, height: 800 } });
      await page.goto(proxy.base + '/#/till');
      await page.locator('.till[data-catalogue="fresh"]').waitFor();
      proxy.state.down = true;
      const c = clerk(page);
      await c.scan(pets['Tortoise lamp'].barcode);
      await c.click(page.getByRole('button', { name: /^Pay / }));
      await c.click(page.getByRole('button', { name: /^Exact / }));
      await page.getByText('Sale kept on this device').waitFor();
      await page.getByText('1 sale waiting to send').waitFor();
      // The clerk signs out while the sale waits; the store answers again; another key signs in.
      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByLabel('Key', { exact: true }).waitFor();
      proxy.state.down = false;
      await page.getByLabel('Key', { exact: true }).fill(late);
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.locator('.till[data-catalogue="fresh"]').waitFor();
      await page.waitForFunction(() => /** @type {HTMLElement | null} */ (document.querySelector('.till-waiting'))?.dataset.waiting === '0', undefined, { timeout: 60_000 });
      assert.equal(await page.locator('.till-refused-box').count(), 0, 'nothing refused or held');
      const sales = (await admin.get('/store/sales?limit=50')).filter((/** @type {any} */ s) => s.lines.some((/** @type {any} */ l) => l.petId === pets['Tortoise lamp'].id));
      assert.equal(sales.length, 1, 'the sale was made once');
      assert.equal(sales[0].keyName, 'Till early', 'under the key it was rung up under');
      assert.equal(proxy.cuts(), 1, 'its first answer was cut, so it was sent again');
      assert.ok(proxy.posts.length >= 2, `sent ${proxy.posts.length} times`);
      assert.deepEqual(new Set(proxy.posts.map((p) => p.key)), new Set([early]), 'every try carried its own key');
      assert.equal(new Set(proxy.posts.map((p) => p.idempotencyKey)).size, 1, 'and its one Idempotency-Key');
      assert.equal((await admin.get(`/store/inventory/${pets['Tortoise lamp'].id}`)).quantity, 3);
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await proxy.close();
    }
  });

  it('holds a kept sale whose key was revoked meanwhile, shows it to the next sign-in, and never sends it under that one', async () => {
    const pets = await stockShop(admin, categoryId, [{ name: 'Heat mat', price: 2500, stock: 4 }], '300000006');
    const gone = await admin.post('/admin/keys', { name: 'Till revoked', role: 'pos', plan: 'business' });
    const next = (await admin.post('/admin/keys', { name: 'Till next', role: 'pos', plan: 'business' })).secret;
    const proxy = await cuttingProxy(server.base, { cutFirstSale: false });
    try {
      const { context, page, errors } = await tillPage(browser, { key: gone.secret, paired: false, viewport: { width: 1280, height: 800 } });
      await page.goto(proxy.base + '/#/till');
      await page.locator('.till[data-catalogue="fresh"]').waitFor();
      proxy.state.down = true;
      const c = clerk(page);
      await c.scan(pets['Heat mat'].barcode);
      await c.click(page.getByRole('button', { name: /^Pay / }));
      await c.click(page.getByRole('button', { name: /^Exact / }));
      await page.getByText('1 sale waiting to send').waitFor();
      const revoked = await fetch(`${server.base}/admin/keys/${gone.id}`, { method: 'DELETE', headers: { 'X-API-Key': ADMIN_KEY } });
      assert.equal(revoked.status, 204);
      proxy.state.down = false;
      // The revoked key signs the screen out; the next one signs in and is told about the sale.
      await page.getByLabel('Key', { exact: true }).fill(next);
      await page.getByRole('button', { name: 'Sign in' }).click();
      const held = page.locator('.till-refused-box');
      await held.getByText(/1 sale kept on this device cannot be sent/).waitFor();
      assert.equal(await page.locator('.till-waiting').getAttribute('data-waiting'), '0');
      assert.ok(proxy.posts.every((p) => p.key === gone.secret), 'never sent under the next key');
      const sales = (await admin.get('/store/sales?limit=50')).filter((/** @type {any} */ s) => s.lines.some((/** @type {any} */ l) => l.petId === pets['Heat mat'].id));
      assert.equal(sales.length, 0);
      await held.getByRole('button', { name: 'Dealt with' }).click();
      await held.waitFor({ state: 'detached' });
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await proxy.close();
    }
  });

  it('shows a waiting sale the store refuses when it answers again, and keeps it across a reload', async () => {
    const pets = await stockShop(admin, categoryId, [
      { name: 'Chew toy', price: 300, stock: 10 },
      { name: 'Discontinued lamp', price: 2200, stock: 3 },
    ], '300000003');
    const key = (await admin.post('/admin/keys', { name: 'Till refused', role: 'pos', plan: 'business' })).secret;
    const proxy = await cuttingProxy(server.base, { cutFirstSale: false });
    try {
      const { context, page, errors } = await tillPage(browser, { key, name: 'Till refused', viewport: { width: 1280, height: 800 } });
      await page.goto(proxy.base + '/#/till');
      await page.locator('.till[data-catalogue="fresh"]').waitFor();
      proxy.state.down = true;
      const c = clerk(page);
      for (const name of ['Discontinued lamp', 'Chew toy']) {
        await c.scan(pets[name].barcode);
        await c.click(page.getByRole('button', { name: /^Pay / }));
        await c.click(page.getByRole('button', { name: /^Exact / }));
        await page.getByText('Sale kept on this device').waitFor();
        await c.click(page.getByRole('button', { name: 'New sale' }));
      }
      await page.getByText('2 sales waiting to send').waitFor();
      // Meanwhile, at the counter PC, the lamp is taken out of the catalogue.
      const gone = await fetch(`${server.base}/pets/${pets['Discontinued lamp'].id}`, { method: 'DELETE', headers: { 'X-API-Key': ADMIN_KEY } });
      assert.equal(gone.status, 204);
      proxy.state.down = false;
      const refused = page.locator('.till-refused-box');
      await refused.waitFor();
      await page.waitForFunction(() => /** @type {HTMLElement | null} */ (document.querySelector('.till-waiting'))?.dataset.waiting === '0');
      assert.match(await refused.innerText(), /refused 1 sale/);
      // The sale after it was not held up.
      const sales = await admin.get('/store/sales?till=Till%20refused');
      assert.deepEqual(sales.map((/** @type {any} */ s) => s.total), [300]);
      await page.reload();
      await page.locator('.till-refused-box').waitFor();
      await page.getByRole('button', { name: 'Dealt with' }).click();
      await page.locator('.till-refused-box').waitFor({ state: 'detached' });
      assert.deepEqual(errors, []);
      await context.close();
    } finally {
      await proxy.close();
    }
  });
});
