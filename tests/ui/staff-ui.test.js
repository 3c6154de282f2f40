// The staff UI in real headless Chromium against the real petstore binary: one shop day, in
// order. Each step leaves the store as the next step expects; a POS-style client (plain fetch)
// plays the tills. Screenshots of each page at 1280×800 go to tests/ui/screenshots/.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { launchBrowser, openPage, goToPage, signInWithKey } from './lib/browser.js';
import { client } from './lib/client.js';
import { stopShop } from './lib/shop.js';

const shots = path.join(path.dirname(fileURLToPath(import.meta.url)), 'screenshots');
mkdirSync(shots, { recursive: true });

/** How soon a change made elsewhere must show on the open page. */
const LIVE_BUDGET_MS = 1000;

/**
 * Controls a screen reader could not name: inputs without a label, buttons without text.
 * @param {import('playwright-core').Page} page
 */
function unlabelled(page) {
  return page.evaluate(() => {
    const bad = [];
    for (const el of document.querySelectorAll('input, select, textarea')) {
      const named = /** @type {HTMLInputElement} */ (el).labels?.length || el.getAttribute('aria-label') || el.getAttribute('aria-labelledby');
      if (!named) bad.push(el.outerHTML.slice(0, 80));
    }
    for (const el of document.querySelectorAll('button, a[href]')) {
      if (!(el.textContent?.trim() || el.getAttribute('aria-label'))) bad.push(el.outerHTML.slice(0, 80));
    }
    return bad;
  });
}

describe('the staff UI', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {import('playwright-core').Page} */
  let page;
  /** @type {string[]} */
  let errors;
  /** @type {ReturnType<typeof client>} */
  let admin;
  /** @type {ReturnType<typeof client>} */
  let pos;
  /** The pet the day revolves around. */
  const pet = { id: 0, name: 'Biscuit' };
  let orderId = 0;

  const shot = async (/** @type {string} */ name) => {
    // Confirmations from earlier steps would cover the page: a person would have seen them go.
    await page.evaluate(() => { for (const t of document.querySelectorAll('.toast')) t.remove(); });
    await page.screenshot({ path: path.join(shots, `${name}.png`) });
  };
  const go = async (/** @type {string} */ name) => {
    await goToPage(page, name);
    await page.getByRole('heading', { level: 1, name, exact: true }).waitFor();
  };
  const dialog = () => page.getByRole('dialog');
  /**
   * A test step that leaves a screenshot of the page as it was when the step failed.
   * @param {string} name
   * @param {(t: import('node:test').TestContext) => Promise<void>} fn
   */
  const step = (name, fn) =>
    it(name, async (t) => {
      try {
        await fn(t);
      } catch (err) {
        const file = 'failed-' + name.replace(/[^a-z0-9]+/gi, '-').slice(0, 60) + '.png';
        await page?.screenshot({ path: path.join(shots, file) }).catch(() => {});
        t.diagnostic(`screenshot of the failure: tests/ui/screenshots/${file}`);
        throw err;
      }
    });
  const petRow = () => page.locator(`tr[data-pet-id="${pet.id}"]`);

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    ({ page, errors } = await openPage(browser, { permissions: ['clipboard-read', 'clipboard-write'] }));
    admin = client(server.base, ADMIN_KEY);
    const till = await admin.post('/admin/keys', { name: 'Till 1', role: 'pos', plan: 'business' });
    pos = client(server.base, till.secret);
  });

  after(() => stopShop(server, browser));

  step('refuses a wrong key in plain words, then signs in with a good one', async () => {
    await page.goto(server.base + '/');
    await page.getByRole('link', { name: 'Use a key instead' }).click();
    const key = page.getByLabel('Key', { exact: true });
    await key.waitFor();
    await shot('sign-in');
    await key.fill('not-a-real-key');
    await key.press('Enter');
    await page.getByRole('alert').filter({ hasText: 'That key is not valid' }).waitFor();
    assert.equal(await key.inputValue(), 'not-a-real-key', 'the typed key stays for correcting');

    await key.fill(ADMIN_KEY);
    await key.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    await page.locator('nav.nav a[href="#/keys"]').waitFor({ state: 'attached' });
    await page.getByRole('button', { name: 'Sign out' }).waitFor();
    await page.locator('.live[data-state="live"]').waitFor();
    assert.equal(await page.locator('.live').innerText(), 'Live');
    // The keyboard moves to the search once the first list is drawn, which may come after the
    // pill says Live: wait for it there, not for the pill.
    await page.waitForFunction(() => document.activeElement?.id === 'pet-search');
  });

  step('creates a category and a pet', async () => {
    await go('Categories');
    await page.getByRole('button', { name: '+ Add category' }).click();
    await dialog().getByLabel('Name', { exact: true }).fill('Dogs');
    await dialog().getByLabel('Description (optional)').fill('Puppies and grown dogs');
    await dialog().getByLabel('Name', { exact: true }).press('Enter');
    await dialog().waitFor({ state: 'detached' });
    await page.getByRole('rowheader', { name: 'Dogs' }).waitFor();

    await go('Pets');
    await page.getByRole('button', { name: '+ Add pet' }).click();
    await dialog().getByLabel('Name', { exact: true }).fill(pet.name);
    await dialog().getByLabel('Category').selectOption({ label: 'Dogs' });
    await dialog().getByLabel('Status').selectOption('available');
    await dialog().getByLabel('Name', { exact: true }).press('Enter');
    await dialog().waitFor({ state: 'detached' });
    const row = page.locator('tr', { has: page.getByRole('rowheader', { name: pet.name }) });
    await row.waitFor();
    pet.id = Number(await row.getAttribute('data-pet-id'));
    assert.ok(pet.id > 0);
    assert.match(await row.innerText(), /Dogs/);
    assert.match(await row.locator('.stock').innerText(), /^0\b/);
  });

  step('sets the stock of the new pet', async () => {
    await petRow().getByRole('button', { name: `More for ${pet.name}` }).click();
    await petRow().getByRole('button', { name: `Set count of ${pet.name}` }).click();
    await dialog().getByLabel('Counted quantity').fill('2');
    await dialog().getByLabel('Reason (optional)').fill('First stock take');
    await dialog().getByLabel('Counted quantity').press('Enter');
    await dialog().waitFor({ state: 'detached' });
    await petRow().locator('.stock', { hasText: /^2$/ }).waitFor();
    const item = await admin.get(`/store/inventory/${pet.id}`);
    assert.equal(item.quantity, 2);
  });

  step('shows an order placed by a POS client on the open Orders page without a reload', async (t) => {
    await go('Orders');
    await page.locator('.live[data-state="live"]').waitFor();
    await page.evaluate(() => { /** @type {any} */ (window).__sameDocument = true; });

    const order = await pos.post('/store/orders', { petId: pet.id, quantity: 2 });
    orderId = order.id;
    const started = Date.now();
    const row = page.locator(`#orders-open tr[data-order-id="${orderId}"]`);
    await row.waitFor({ timeout: LIVE_BUDGET_MS });
    t.diagnostic(`the order appeared ${Date.now() - started} ms after the POS got its answer`);

    assert.equal(await page.evaluate(() => /** @type {any} */ (window).__sameDocument), true, 'no reload happened');
    assert.match(await row.innerText(), new RegExp(pet.name));
    await row.locator('.badge', { hasText: 'Pending' }).waitFor({ timeout: LIVE_BUDGET_MS });
  });

  step('marks the order complete and shows the pet become sold', async () => {
    await page.locator(`#orders-open tr[data-order-id="${orderId}"]`).getByRole('button', { name: /Mark complete/ }).click();
    const done = page.locator(`#orders-done tr[data-order-id="${orderId}"]`);
    await done.waitFor();
    await done.locator('.badge', { hasText: 'Sold' }).waitFor();
    // Completed here, it keeps its place in the open list, marked done, with no buttons left.
    const kept = page.locator(`#orders-open tr[data-order-id="${orderId}"]`);
    await kept.locator('.badge', { hasText: 'Completed' }).waitFor();
    assert.equal(await kept.getByRole('button').count(), 0);
    const [saved] = await admin.get(`/pets?ids=${pet.id}`);
    assert.equal(saved.status, 'sold');
  });

  step('adjusts stock with a reason and shows it in the history', async () => {
    await go('Inventory');
    await petRow().getByRole('button', { name: `Adjust ${pet.name}` }).click();
    await dialog().getByLabel(/^Change/).fill('5');
    await dialog().getByLabel('Reason', { exact: true }).fill('Delivery from supplier');
    await dialog().getByLabel('Reason', { exact: true }).press('Enter');
    await dialog().waitFor({ state: 'detached' });
    await petRow().locator('.stock', { hasText: /^5$/ }).waitFor();

    await petRow().getByRole('button', { name: `History of ${pet.name}` }).click();
    const entry = dialog().locator('tr', { hasText: 'Delivery from supplier' });
    await entry.waitFor();
    assert.match(await entry.innerText(), /\+5/);
    assert.match(await dialog().innerText(), /Order #/, 'the order is in the history too');
    await shot('stock-history');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
  });

  step('asks again about an unlikely count, then says in plain words why the server refused it', async () => {
    await petRow().getByRole('button', { name: `Set count of ${pet.name}` }).click();
    await dialog().getByLabel('Counted quantity').fill('2000000');
    await dialog().getByLabel('Reason (optional)').fill('Miscounted?');
    await dialog().getByLabel('Counted quantity').press('Enter');
    await dialog().getByRole('alert').filter({ hasText: 'far from the 5 in stock' }).waitFor();
    const answered = page.waitForResponse((r) => r.url().endsWith(`/store/inventory/${pet.id}`) && r.request().method() === 'PUT');
    await dialog().getByLabel('Counted quantity').press('Enter');
    const res = await answered;
    assert.equal(res.status(), 422);
    const body = await res.json();
    const alert = dialog().locator('.form-error');
    await alert.filter({ hasText: 'Enter a count from 0 to 1,000,000' }).waitFor();
    assert.doesNotMatch(await alert.innerText(), new RegExp(body.message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'not the server\'s developer words');
    assert.equal(await dialog().getByLabel('Counted quantity').getAttribute('aria-invalid'), 'true');
    assert.equal(await dialog().getByLabel('Counted quantity').inputValue(), '2000000');
    assert.equal(await dialog().getByLabel('Reason (optional)').inputValue(), 'Miscounted?');
    await shot('error-message');
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await petRow().locator('.stock', { hasText: /^5$/ }).waitFor();
  });

  step('creates a key on the Keys page that works and whose usage shows', async () => {
    await go('Keys');
    await page.getByRole('button', { name: '+ Create key' }).click();
    await dialog().getByLabel('Name', { exact: true }).fill('Till 7');
    await dialog().getByLabel('Role').selectOption('pos');
    await dialog().getByLabel('Plan').selectOption('free');
    await dialog().getByLabel('Name', { exact: true }).press('Enter');
    await dialog().getByRole('heading', { name: 'Key created: Till 7' }).waitFor();
    const secret = await dialog().getByLabel('Secret key').inputValue();
    assert.ok(secret.length >= 16, 'a long secret is shown');
    await dialog().getByRole('button', { name: 'Copy key' }).click();
    await dialog().getByText('Copied.').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), secret);
    await shot('key-created');
    await dialog().getByRole('button', { name: 'Done' }).click();
    await dialog().waitFor({ state: 'detached' });

    const till7 = client(server.base, secret);
    assert.equal(await till7.status('/categories'), 200);
    assert.equal(await till7.status('/pets'), 200);
    assert.equal(await till7.status('/admin/keys'), 403, 'a POS key is no admin');

    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = page.locator('tr', { hasText: 'Till 7' });
    await row.locator('[data-col="minute"]', { hasText: /^[3-9]\d* \/ 60$|^\d{2,} \/ 60$/ }).waitFor();
    assert.notEqual((await row.locator('time').innerText()).trim(), '—', 'last used is shown');
  });

  step('shows a key banned for too many requests and lifts the ban', async () => {
    const noisy = await admin.post('/admin/keys', { name: 'Noisy tablet', role: 'readonly', plan: 'free' });
    /** @returns {Promise<string>} the error code of one request, or 'ok' */
    const hit = async () => {
      const res = await fetch(server.base + '/categories?limit=1', { headers: { 'X-API-Key': noisy.secret } });
      return res.ok ? 'ok' : (await res.json()).code;
    };
    // Free is 60 a minute; more than 30 refusals in a minute bans. Bounded: at most 200 calls.
    let code = 'ok';
    for (let i = 0; i < 200 && code !== 'temporarily_banned'; i += 1) code = await hit();
    assert.equal(code, 'temporarily_banned');

    await page.getByRole('button', { name: 'Refresh' }).click();
    const row = page.locator('tr', { hasText: 'Noisy tablet' });
    await row.locator('.badge', { hasText: 'Banned until' }).waitFor();
    await shot('keys-banned');
    await row.getByRole('button', { name: 'Lift ban on Noisy tablet' }).click();
    await row.locator('.badge', { hasText: 'Active' }).waitFor();
    assert.notEqual(await hit(), 'temporarily_banned');
  });

  step('waits out a 429 with Retry-After and then shows the page', async () => {
    let hits = 0;
    /** @type {number[]} */
    const times = [];
    await page.route((url) => url.pathname === '/categories', async (route) => {
      hits += 1;
      times.push(Date.now());
      if (hits === 1) {
        await route.fulfill({
          status: 429,
          headers: { 'Retry-After': '1', 'Content-Type': 'application/json' },
          body: JSON.stringify({ code: 'rate_limited', message: 'Too many requests.', status: 429 }),
        });
      } else {
        await route.continue();
      }
    });
    await go('Categories');
    await page.locator('.waiting', { hasText: 'slow down' }).waitFor();
    await page.getByRole('rowheader', { name: 'Dogs' }).waitFor();
    await page.unroute((url) => url.pathname === '/categories');
    assert.ok(hits >= 2);
    assert.ok(times[1] - times[0] >= 1000, `retried after ${times[1] - times[0]} ms, at least Retry-After`);
    assert.equal(await page.locator('.waiting').isHidden(), true);
  });

  step('shows when it is not live, reconnects by itself and catches up', async () => {
    await go('Categories');
    await page.locator('.live[data-state="live"]').waitFor();
    // A real drop: the server stops, and starts again on the same address and database.
    const restarted = server.restart();
    await page.locator('.live', { hasText: 'Reconnecting…' }).waitFor({ timeout: 10_000 });
    await restarted;
    await admin.post('/categories', { name: 'Reptiles' });
    await page.locator('.live[data-state="live"]').waitFor({ timeout: 40_000 });
    await page.getByRole('rowheader', { name: 'Reptiles' }).waitFor({ timeout: LIVE_BUDGET_MS * 2 });
    // And the stream works again after the reconnect.
    await admin.post('/categories', { name: 'Hamsters' });
    await page.getByRole('rowheader', { name: 'Hamsters' }).waitFor({ timeout: LIVE_BUDGET_MS });
  });

  step('signs the desktop window in by itself, with no sign-in page and no sign-out', async () => {
    const { context, page: desk, errors: deskErrors } = await openPage(browser);
    await context.addInitScript((key) => {
      /** @type {any} */ (window).__PETSTORE_SESSION__ = { key, desktop: true };
    }, ADMIN_KEY);
    await desk.goto(server.base + '/#/orders');
    await desk.getByRole('heading', { level: 1, name: 'Orders', exact: true }).waitFor();
    assert.equal(await desk.getByLabel('Key', { exact: true }).count(), 0);
    assert.equal(await desk.getByRole('button', { name: 'Sign out' }).count(), 0);
    assert.equal(await desk.evaluate(() => sessionStorage.length), 0, 'the key is not copied into storage');
    await context.close();
    assert.deepEqual(deskErrors, []);
  });

  step('takes a screenshot of each page at 1280×800', async () => {
    const cats = [];
    for (const [name, description] of [['Cats', 'Kittens and cats'], ['Rabbits', undefined], ['Fish', 'Cold and tropical']]) {
      cats.push(await admin.post('/categories', description ? { name, description } : { name }));
    }
    const names = ['Luna', 'Milo', 'Nemo', 'Thumper', 'Kiwi', 'Pepper', 'Coco'];
    for (const [i, name] of names.entries()) {
      const p = await admin.post('/pets', { name, categoryId: cats[i % cats.length].id, status: 'available' });
      await admin.put(`/store/inventory/${p.id}`, { quantity: (i * 4) % 9, reason: 'Opening count' });
    }
    await pos.post('/store/orders', { petId: (await admin.get('/pets?q=Milo'))[0].id, quantity: 1 });

    for (const name of ['Pets', 'Categories', 'Inventory', 'Orders', 'Keys']) {
      await go(name);
      await page.locator('.results table').first().waitFor();
      await page.locator('main .page[aria-busy="false"]').waitFor();
      await page.mouse.move(0, 0);
      await shot(name.toLowerCase());
      assert.deepEqual(await unlabelled(page), [], `every control on ${name} has a name for screen readers`);
    }
    await page.setViewportSize({ width: 800, height: 1280 });
    await go('Pets');
    await shot('pets-tablet-portrait');
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(errors, [], 'no script errors on any page');
  });

  step('places an order from the Orders page and cancels it, returning the stock', async () => {
    const [kiwi] = await admin.get('/pets?q=Kiwi');
    const before = (await admin.get(`/store/inventory/${kiwi.id}`)).quantity;
    await go('Orders');
    await page.getByRole('button', { name: '+ Place order' }).click();
    await dialog().getByLabel('Find a pet').fill('kiw');
    await dialog().locator('select[name="petId"][aria-busy="false"]').waitFor();
    assert.equal(await dialog().getByLabel('Pet', { exact: true }).inputValue(), String(kiwi.id), 'the one match is picked');
    await dialog().getByLabel('Quantity').fill('2');
    await shot('place-order');
    await dialog().getByLabel('Quantity').press('Enter');
    await dialog().waitFor({ state: 'detached' });
    const row = page.locator('#orders-open tr', { hasText: 'Kiwi' });
    await row.waitFor();
    assert.equal((await admin.get(`/store/inventory/${kiwi.id}`)).quantity, before - 2);

    await row.getByRole('button', { name: /^Cancel/ }).click();
    await dialog().getByRole('button', { name: 'Cancel order' }).click();
    await row.waitFor({ state: 'detached' });
    assert.equal((await admin.get(`/store/inventory/${kiwi.id}`)).quantity, before);
    assert.deepEqual(errors, [], 'no script errors');
  });

  step('edits a pet, and says in plain words why a category in use cannot be deleted', async () => {
    await go('Pets');
    await petRow().getByRole('button', { name: `More for ${pet.name}` }).click();
    await petRow().getByRole('button', { name: `Edit ${pet.name}` }).click();
    await dialog().getByLabel('Name', { exact: true }).fill('Biscuit the Second');
    await dialog().getByLabel('Status').selectOption('');
    await dialog().getByLabel('Name', { exact: true }).press('Enter');
    await dialog().waitFor({ state: 'detached' });
    await petRow().getByRole('rowheader', { name: 'Biscuit the Second' }).waitFor();
    await petRow().locator('.badge', { hasText: 'No status' }).waitFor();
    const [saved] = await admin.get(`/pets?ids=${pet.id}`);
    assert.equal(saved.name, 'Biscuit the Second');
    assert.equal(saved.status, undefined, 'the status was cleared');

    await go('Categories');
    const dogs = page.locator('tr', { has: page.getByRole('rowheader', { name: 'Dogs' }) });
    await dogs.getByRole('button', { name: 'Delete Dogs' }).click();
    const answered = page.waitForResponse((r) => r.request().method() === 'DELETE');
    await dialog().getByRole('button', { name: 'Delete' }).click();
    const res = await answered;
    assert.equal(res.status(), 409);
    const body = await res.json();
    assert.equal(body.code, 'category_in_use');
    await dialog().getByRole('alert').filter({ hasText: 'Dogs still has pets. Move them to another category first.' }).waitFor();
    await page.keyboard.press('Escape');
    await dialog().waitFor({ state: 'detached' });
    await page.getByRole('rowheader', { name: 'Dogs' }).waitFor();
  });

  step('goes back to the sign-in page when its key is revoked, and on sign-out', async () => {
    const staff = await admin.post('/admin/keys', { name: 'Counter browser', role: 'staff', plan: 'pro' });
    const { context, page: other, errors: otherErrors } = await openPage(browser);
    await other.goto(server.base + '/');
    await signInWithKey(other, staff.secret);
    await other.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    assert.equal(await other.locator('nav.nav a[href="#/keys"]').count(), 0, 'no Keys page for staff');

    await other.reload();
    await other.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();

    const keys = await admin.get('/admin/keys');
    const id = keys.find((/** @type {any} */ k) => k.name === 'Counter browser').id;
    const revoked = await fetch(`${server.base}/admin/keys/${id}`, { method: 'DELETE', headers: { 'X-API-Key': ADMIN_KEY } });
    assert.equal(revoked.status, 204);
    // The UI notices on its next request (or sooner, if the event stream is refused first).
    await other.evaluate(() => { location.hash = '#/orders'; });
    await other.getByRole('alert').filter({ hasText: 'revoked' }).waitFor();
    await other.getByLabel('Key', { exact: true }).waitFor();
    assert.equal(await other.evaluate(() => sessionStorage.length), 0, 'the revoked key is forgotten');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Key', { exact: true }).waitFor();
    assert.equal(await page.evaluate(() => sessionStorage.length), 0);
    await context.close();
    assert.deepEqual(otherErrors, []);
    assert.deepEqual(errors, []);
  });
});
