// The header's navigation in real headless Chromium: every page a role may open is reachable
// at 1280×800 and on a 820×1180 tablet without scrolling sideways, the less used pages under a
// "More" button that a keyboard and a screen reader can work, and axe-core finds nothing with
// it open.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { launchBrowser, openPage, goToPage } from './lib/browser.js';
import { client } from './lib/client.js';
import { stopShop } from './lib/shop.js';
import { violations } from './lib/axe.js';

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'tablet', viewport: { width: 820, height: 1180 } },
];

/** Every page an admin key opens in a browser (Network and Restore are the desktop window's). */
const ADMIN_PAGES = ['Pets', 'Till', 'Care', 'Categories', 'Inventory', 'Orders', 'Sales', 'Stocktake', 'Purchasing', 'Suppliers', 'Reports', 'Keys', 'Staff', 'Backups'];

describe('the header’s navigation', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  let staffKey = '';

  before(async () => {
    server = await startServer();
    browser = await launchBrowser();
    const admin = client(server.base, ADMIN_KEY);
    staffKey = (await admin.post('/admin/keys', { name: 'Back office', role: 'staff', plan: 'business' })).secret;
  });

  after(() => stopShop(server, browser));

  /** @param {string} key @param {{ width: number, height: number }} viewport */
  async function signedIn(key, viewport) {
    const opened = await openPage(browser, { viewport, bypassCSP: true });
    await opened.context.addInitScript((k) => sessionStorage.setItem('petstore.key', k), key);
    await opened.page.goto(server.base + '/#/pets');
    await opened.page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    return opened;
  }

  /** Nothing in the header or the page is wider than the screen. @param {import('playwright-core').Page} page */
  function sideways(page) {
    return page.evaluate(() => {
      const nav = /** @type {HTMLElement} */ (document.querySelector('nav.nav'));
      const wide = [...nav.querySelectorAll('a, button')].filter((e) => {
        const r = e.getBoundingClientRect();
        return r.width > 0 && (r.right > window.innerWidth || r.left < 0);
      }).map((e) => e.textContent);
      return { nav: nav.scrollWidth - nav.clientWidth, page: document.documentElement.scrollWidth - window.innerWidth, wide };
    });
  }

  for (const size of SIZES) {
    it(`reaches every page without scrolling sideways, the band on one line (${size.name})`, async () => {
      const { context, page, errors } = await signedIn(ADMIN_KEY, size.viewport);
      assert.deepEqual(await sideways(page), { nav: 0, page: 0, wide: [] }, 'nothing scrolls sideways');
      const shown = await page.locator('nav.nav > a, nav.nav .nav-more-button').evaluateAll((els) => els.map((e) => {
        const r = e.getBoundingClientRect();
        return { top: Math.round(r.top), height: r.height };
      }));
      assert.ok(shown.length >= 6, `the band has the shop's pages (${shown.length})`);
      assert.equal(new Set(shown.map((l) => l.top)).size, 1, 'the band is one line');
      assert.ok(shown.every((l) => l.height >= 44), 'its targets are 44 px tall');

      for (const title of ADMIN_PAGES) {
        await goToPage(page, title);
        await page.getByRole('heading', { level: 1, name: title, exact: true }).waitFor();
        assert.equal(await page.locator('nav.nav a[aria-current="page"]').textContent(), title);
        assert.deepEqual(await sideways(page), { nav: 0, page: 0, wide: [] }, `nothing scrolls sideways on ${title}`);
      }
      // On a page under More, the button says which page is open.
      await goToPage(page, 'Keys');
      await page.getByRole('button', { name: 'More: Keys' }).waitFor();
      assert.deepEqual(errors, []);
      await context.close();
    });
  }

  it('opens More from the keyboard, walks its links with Tab, and closes it with Escape', async () => {
    const { context, page, errors } = await signedIn(ADMIN_KEY, { width: 820, height: 1180 });
    const more = page.locator('nav.nav').getByRole('button', { name: /^More/ });
    await more.focus();
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    await page.keyboard.press('Enter');
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    const manager = page.getByRole('group', { name: 'Manager' });
    await manager.getByRole('link', { name: 'Staff', exact: true }).waitFor();
    for (const [size, viewport] of [['tablet', null], ['desktop', { width: 1280, height: 800 }]]) {
      if (viewport) await page.setViewportSize(/** @type {{ width: number, height: number }} */ (viewport));
      assert.deepEqual(await violations(page), [], `axe with More open (${size})`);
    }
    await page.keyboard.press('Tab');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Categories', 'Tab goes into the list');
    await page.keyboard.press('Escape');
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('nav-more-button')), true, 'the focus is back on More');
    // Enter on a link opens its page and closes More.
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Purchasing', exact: true }).waitFor();
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    // A click elsewhere closes it too.
    await more.click();
    await page.getByRole('heading', { level: 1 }).click();
    assert.equal(await more.getAttribute('aria-expanded'), 'false');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('keeps More open when the page it was opened over finishes loading', async () => {
    const opened = await openPage(browser, { viewport: { width: 820, height: 1180 }, bypassCSP: true });
    const { context, page, errors } = opened;
    await context.addInitScript((k) => sessionStorage.setItem('petstore.key', k), ADMIN_KEY);
    // The Pets list is held until More is open: a page that loads slowly, as on a busy PC.
    /** @type {() => void} */
    let release = () => {};
    const held = new Promise((resolve) => { release = () => resolve(undefined); });
    await page.route(/\/pets(\?|$)/, async (route) => {
      if (route.request().method() === 'GET') await held;
      await route.continue();
    });
    await page.goto(server.base + '/#/pets');
    const more = page.locator('nav.nav').getByRole('button', { name: /^More/ });
    await more.click();
    assert.equal(await more.getAttribute('aria-expanded'), 'true');
    release();
    await page.locator('main [aria-busy="false"]').first().waitFor({ state: 'attached' });
    assert.equal(await more.getAttribute('aria-expanded'), 'true', 'More stays open');
    await page.locator('nav.nav').getByRole('link', { name: 'Keys', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Keys', exact: true }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('lists under More only the pages the role may open', async () => {
    const { context, page, errors } = await signedIn(staffKey, { width: 820, height: 1180 });
    const links = await page.locator('nav.nav a').allTextContents();
    assert.ok(links.includes('Categories') && links.includes('Orders'), links.join(', '));
    for (const manager of ['Keys', 'Staff', 'Backups']) assert.ok(!links.includes(manager), `no ${manager} for staff`);
    await page.locator('nav.nav').getByRole('button', { name: /^More/ }).click();
    assert.equal(await page.getByRole('group', { name: 'Manager' }).count(), 0, 'no empty Manager group');
    assert.deepEqual(errors, []);
    await context.close();
  });
});
