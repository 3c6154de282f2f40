// Staff who sign in by name and PIN, in real headless Chromium against the real petstore
// binary: the desktop window (as the local admin while the store has no staff, then "Who is
// at the counter?"), a tablet's sign-in with the PIN pad and its cost in clicks plus
// keystrokes, wrong PINs and the lock, and the admin's Staff page. axe-core checks the new
// screens; screenshots go to tests/ui/screenshots/ (docs/screenshots/ with
// PETSTORE_SCREENSHOTS=docs).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { openPage, goToPage, signInWithKey } from './lib/browser.js';
import { screenshotFolder } from './lib/screenshots.js';
import { client } from './lib/client.js';
import { startShop, stopShop } from './lib/shop.js';
import { violations } from './lib/axe.js';

const shots = screenshotFolder();

/** The most a clerk may spend signing in on a tablet, in clicks plus keystrokes. */
const SIGN_IN_BUDGET = 8;

/**
 * Counts what a person does: each click or tap is 1, each key pressed is 1.
 * @param {import('playwright-core').Page} page
 */
function counted(page) {
  let actions = 0;
  return {
    get actions() { return actions; },
    reset() { actions = 0; },
    /** @param {import('playwright-core').Locator} target */
    async tap(target) { actions += 1; await target.click(); },
    /** @param {string} text  typed into whatever has the focus */
    async type(text) { actions += text.length; await page.keyboard.type(text); },
    /** @param {string} key */
    async press(key) { actions += 1; await page.keyboard.press(key); },
  };
}

describe('staff who sign in by name and PIN', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {ReturnType<typeof client>} */
  let admin;

  before(async () => {
    ({ server, browser, admin } = await startShop());
    const dogs = await admin.post('/categories', { name: 'Dogs' });
    const rex = await admin.post('/pets', { name: 'Rex', categoryId: dogs.id, status: 'available' });
    await admin.put(`/store/inventory/${rex.id}`, { quantity: 4 });
  });

  after(() => stopShop(server, browser));

  /** The desktop window: the shell injects its own in-memory admin key before the page loads. */
  async function desktopWindow() {
    const opened = await openPage(browser, { bypassCSP: true });
    await opened.context.addInitScript((key) => {
      /** @type {any} */ (window).__PETSTORE_SESSION__ = { key, desktop: true };
    }, ADMIN_KEY);
    return opened;
  }

  it('opens the desktop window as the local admin while the store has no staff members', async () => {
    const { context, page, errors } = await desktopWindow();
    await page.goto(server.base + '/');
    await page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    await page.locator('nav.nav a[href="#/staff"]').waitFor({ state: 'attached' });
    assert.equal(await page.getByRole('heading', { name: 'Who is at the counter?' }).count(), 0);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('adds, changes and disables staff on the Staff page, and keeps the last manager', async () => {
    const { context, page, errors } = await desktopWindow();
    await page.goto(server.base + '/#/staff');
    await page.getByRole('heading', { level: 1, name: 'Staff', exact: true }).waitFor();
    await page.getByText('No staff members yet').waitFor();
    const dialog = page.getByRole('dialog');
    /** @param {string} name @param {string} role @param {string} pin */
    const add = async (name, role, pin) => {
      await page.getByRole('button', { name: '+ Add staff member' }).click();
      await dialog.getByLabel('Name', { exact: true }).fill(name);
      await dialog.getByLabel('Role', { exact: true }).selectOption(role);
      await dialog.getByLabel('PIN', { exact: true }).fill(pin);
      await dialog.getByRole('button', { name: 'Add staff member' }).click();
    };
    await add('Bo', 'admin', '2468');
    await dialog.waitFor({ state: 'detached' });
    await page.locator('tr[data-staff-id]').filter({ hasText: 'Bo' }).waitFor();
    // The only manager can be neither disabled nor demoted: the page offers neither.
    const bo = page.locator('tr[data-staff-id]').filter({ hasText: 'Bo' });
    await bo.getByText('Only manager').waitFor();
    assert.equal(await bo.getByRole('button', { name: /Disable/ }).count(), 0);

    await add('123', 'staff', '12');
    await dialog.getByRole('alert').filter({ hasText: '4 to 8 digits' }).waitFor();
    assert.equal(await dialog.getByLabel('PIN', { exact: true }).getAttribute('aria-invalid'), 'true');
    await dialog.getByLabel('Name', { exact: true }).fill('Ann');
    await dialog.getByLabel('PIN', { exact: true }).fill('0481');
    await dialog.getByRole('button', { name: 'Add staff member' }).click();
    await dialog.waitFor({ state: 'detached' });
    await add('ann', 'readonly', '9999');
    await dialog.getByRole('alert').filter({ hasText: 'already a staff member called ann' }).waitFor();
    await dialog.getByRole('button', { name: 'Cancel' }).click();

    await add('Dee', 'staff', '1357');
    await dialog.waitFor({ state: 'detached' });
    await add('Cy', 'staff', '5555');
    await dialog.waitFor({ state: 'detached' });
    const dee = page.locator('tr[data-staff-id]').filter({ hasText: 'Dee' });
    await dee.getByRole('button', { name: 'Change Dee' }).click();
    await dialog.getByLabel('Role', { exact: true }).selectOption('readonly');
    await dialog.getByLabel('New PIN', { exact: true }).fill('7531');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await dialog.waitFor({ state: 'detached' });
    await dee.getByText('Look only').waitFor();
    await dee.getByRole('button', { name: 'Disable Dee' }).click();
    await dialog.getByRole('button', { name: 'Disable' }).click();
    await dee.getByText('Disabled').waitFor();
    await dee.getByRole('button', { name: 'Enable Dee' }).waitFor();

    const members = await admin.get('/admin/staff');
    assert.deepEqual(members.map((/** @type {any} */ m) => [m.name, m.role, Boolean(m.disabledAt)]),
      [['Bo', 'admin', false], ['Ann', 'staff', false], ['Dee', 'readonly', true], ['Cy', 'staff', false]]);
    const deeSignIn = await fetch(server.base + '/session', { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ name: 'Dee', pin: '7531' }) });
    assert.equal(deeSignIn.status, 401, 'a disabled member cannot sign in');

    assert.deepEqual(await violations(page), []);
    await page.evaluate(() => { for (const t of document.querySelectorAll('.toast')) t.remove(); });
    await page.screenshot({ path: path.join(shots, 'desktop-staff.png') });
    await page.setViewportSize({ width: 820, height: 1180 });
    assert.deepEqual(await violations(page), []);
    await page.screenshot({ path: path.join(shots, 'tablet-staff.png') });
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('asks who is at the counter on the desktop once the store has staff, and works as that person', async () => {
    const { context, page, errors } = await desktopWindow();
    await page.goto(server.base + '/');
    await page.getByRole('heading', { level: 1, name: 'Who is at the counter?' }).waitFor();
    const people = await page.getByRole('group', { name: 'Who are you?' }).getByRole('button').allInnerTexts();
    assert.deepEqual(people, ['Bo', 'Ann', 'Cy'], 'enabled members only');
    // A way in with a key someone was given, never the PC's own key without one.
    await page.getByRole('link', { name: 'Use a key instead' }).waitFor();
    assert.deepEqual(await violations(page), []);
    await page.screenshot({ path: path.join(shots, 'desktop-counter.png') });
    await page.setViewportSize({ width: 820, height: 1180 });
    await page.screenshot({ path: path.join(shots, 'tablet-counter.png') });
    await page.setViewportSize({ width: 1280, height: 800 });

    const clerk = counted(page);
    await clerk.tap(page.getByRole('button', { name: 'Ann', exact: true }));
    for (const d of '0481') await clerk.tap(page.getByRole('button', { name: d, exact: true }));
    await clerk.tap(page.getByRole('button', { name: 'Sign in' }));
    await page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    assert.equal(clerk.actions, 6);
    await page.locator('.who').filter({ hasText: 'Ann' }).waitFor();
    assert.equal(await page.locator('nav.nav a[href="#/staff"]').count(), 0, 'a staff member is not a manager');
    assert.equal(await page.locator('nav.nav a[href="#/keys"]').count(), 0);

    // What Ann changes is hers in the stock history.
    const key = await page.evaluate(() => JSON.parse(sessionStorage.getItem('petstore.member') ?? '{}').key);
    const ann = client(server.base, key);
    const [pet] = await admin.get('/pets?limit=1');
    await ann.post(`/store/inventory/${pet.id}/adjustments`, { delta: 1, reason: 'found one' });
    const [entry] = await admin.get(`/store/inventory/${pet.id}/adjustments`);
    assert.equal(entry.keyName, 'Ann');
    assert.equal(typeof entry.staffId, 'number');

    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Who is at the counter?' }).waitFor();
    await page.waitForFunction(() => sessionStorage.getItem('petstore.member') === null);
    assert.equal(await ann.status('/pets'), 401, 'signing out ends the session on the server');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it(`signs in the first time on a tablet a manager has set up, by name and PIN, in at most ${SIGN_IN_BUDGET} clicks plus keystrokes`, async () => {
    await admin.post('/admin/staff', { name: 'Maria', role: 'staff', pin: '3141' });
    const { context, page, errors } = await openPage(browser, { viewport: { width: 820, height: 1180 }, bypassCSP: true });
    await page.goto(server.base + '/');
    await page.getByRole('heading', { level: 1, name: 'Petstore staff sign in' }).waitFor();
    await page.getByRole('link', { name: 'Use a key instead' }).waitFor();
    // A device nobody has set up lists no names, and no keyless request tells them.
    assert.equal(await page.getByRole('group', { name: 'Who are you?' }).count(), 0);
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'name', 'the name box has the focus');
    assert.deepEqual(await violations(page), []);
    await page.screenshot({ path: path.join(shots, 'tablet-signin-pin.png') });
    assert.equal((await fetch(server.base + '/admin/staff')).status, 401);

    // The manager sets the tablet up once: signs in there with their key and signs out.
    await signInWithKey(page, ADMIN_KEY);
    await page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    await page.waitForFunction(() => (localStorage.getItem('petstore.deviceNames') ?? '').includes('Maria'));
    await page.getByRole('button', { name: 'Sign out' }).click();

    // Maria's first time on this tablet: her name is on the screen the manager left.
    await page.getByRole('heading', { level: 1, name: 'Petstore staff sign in' }).waitFor();
    const people = await page.getByRole('group', { name: 'Who are you?' }).getByRole('button').allInnerTexts();
    assert.deepEqual(people, ['Ann', 'Bo', 'Cy', 'Maria'], 'the enabled members, by name (Dee is disabled)');
    assert.deepEqual(await violations(page), []);
    await page.screenshot({ path: path.join(shots, 'tablet-signin-names.png') });
    const clerk = counted(page);
    await clerk.tap(page.getByRole('button', { name: 'Maria', exact: true }));
    for (const d of '3141') await clerk.tap(page.getByRole('button', { name: d, exact: true }));
    assert.equal(await page.getByLabel('PIN', { exact: true }).inputValue(), '3141');
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('name')), 'pin', 'the pad leaves the focus in the PIN box');
    await clerk.tap(page.getByRole('button', { name: 'Sign in' }));
    await page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    await page.locator('.who').filter({ hasText: 'Maria' }).waitFor();
    assert.ok(clerk.actions <= SIGN_IN_BUDGET, `first sign-in cost ${clerk.actions}`);
    const first = clerk.actions;
    await page.getByRole('button', { name: 'Sign out' }).click();

    // Next time the same, with Maria first: the tablet remembers who signed in on it.
    await page.getByRole('heading', { level: 1, name: 'Petstore staff sign in' }).waitFor();
    assert.equal(await page.getByRole('group', { name: 'Who are you?' }).getByRole('button').first().innerText(), 'Maria');
    clerk.reset();
    await clerk.tap(page.getByRole('button', { name: 'Maria', exact: true }));
    await clerk.type('3141');
    await clerk.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    assert.ok(clerk.actions <= SIGN_IN_BUDGET, `sign-in cost ${clerk.actions}`);
    console.log(`sign-in cost on a tablet: first time ${first}, then ${clerk.actions} (budget ${SIGN_IN_BUDGET})`);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('lists staff names only on devices a manager set up, and a manager can stop it on the Staff page', async () => {
    // A disabled member leaves the list the next time a manager's session sees the staff.
    const { context, page } = await openPage(browser, { viewport: { width: 820, height: 1180 }, bypassCSP: true });
    await page.goto(server.base + '/');
    await signInWithKey(page, ADMIN_KEY);
    await page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    await goToPage(page, 'Staff');
    await page.getByRole('heading', { level: 2, name: 'This device’s sign-in screen' }).waitFor();
    const ann = page.locator('tr[data-staff-id]').filter({ hasText: 'Ann' });
    await ann.getByRole('button', { name: 'Disable Ann' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Disable' }).click();
    await ann.getByText('Disabled').waitFor();
    await page.waitForFunction(() => !(localStorage.getItem('petstore.deviceNames') ?? 'Ann').includes('Ann'));
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('heading', { level: 1, name: 'Petstore staff sign in' }).waitFor();
    assert.deepEqual(await page.getByRole('group', { name: 'Who are you?' }).getByRole('button').allInnerTexts(), ['Bo', 'Cy', 'Maria']);

    // Turned off for this device: back to typing names, and the stored list is gone.
    await signInWithKey(page, ADMIN_KEY);
    await goToPage(page, 'Staff');
    await page.getByRole('button', { name: 'Stop listing names on this device' }).click();
    await page.getByRole('button', { name: 'List the staff’s names on this device' }).waitFor();
    assert.equal(await page.evaluate(() => localStorage.getItem('petstore.deviceNames')), null);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByLabel('Key', { exact: true }).waitFor();
    await page.getByRole('link', { name: 'Sign in with name and PIN instead' }).click();
    await page.getByLabel('Your name').waitFor();
    assert.equal(await page.getByRole('group', { name: 'Who are you?' }).count(), 0);
    await context.close();
  });

  it('says plainly when a PIN is wrong, and when the name is locked after five', async () => {
    const { context, page } = await openPage(browser, { viewport: { width: 820, height: 1180 }, bypassCSP: true });
    await page.goto(server.base + '/');
    await page.getByLabel('Your name').fill('Cy');
    const pin = page.getByLabel('PIN', { exact: true });
    await pin.fill('123');
    await pin.press('Enter');
    await page.getByRole('alert').filter({ hasText: '4 to 8 digits' }).waitFor();
    /** @param {string} digits */
    const attempt = async (digits) => {
      await pin.fill(digits);
      const answered = page.waitForResponse((r) => r.url().endsWith('/session') && r.request().method() === 'POST');
      await pin.press('Enter');
      await answered;
    };
    for (let i = 0; i < 5; i += 1) {
      await attempt('1111');
      await page.getByRole('alert').filter({ hasText: 'don’t match' }).waitFor();
    }
    await attempt('5555');
    await page.getByRole('alert').filter({ hasText: 'Too many wrong PINs for this name' }).waitFor();
    assert.equal(await page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).count(), 0);
    await page.screenshot({ path: path.join(shots, 'tablet-signin-locked.png') });
    assert.deepEqual(await violations(page), []);

    // "Use a key instead" still signs a till or a manager in with a key.
    await signInWithKey(page, ADMIN_KEY);
    await page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    await context.close();
  });
});
