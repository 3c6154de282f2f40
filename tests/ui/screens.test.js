// Every page and dialog of the staff UI, in a stocked shop, at 1280×800 and on a 820×1180
// tablet: axe-core (injected into the page) must find no violation, and a screenshot of each
// is written (desktop-*.png, tablet-*.png) for people to look at: to tests/ui/screenshots/, or
// with PETSTORE_SCREENSHOTS=docs to docs/screenshots/, where the README shows them.

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { openPage, goToPage } from './lib/browser.js';
import { screenshotFolder } from './lib/screenshots.js';
import { client } from './lib/client.js';
import { startShop, stopShop } from './lib/shop.js';

const docsShots = screenshotFolder();
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const SIZES = [
  { name: 'desktop', viewport: { width: 1280, height: 800 } },
  { name: 'tablet', viewport: { width: 820, height: 1180 } },
];

/**
 * axe-core's violations on the page as it is now: WCAG 2.x A and AA, best practices, and the
 * experimental rules (label-content-name-mismatch among them: voice control depends on it).
 * @param {import('playwright-core').Page} page
 */
async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  const found = await page.evaluate(async () => {
    const res = await /** @type {any} */ (window).axe.run(document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice', 'experimental'] },
    });
    return res.violations.map((/** @type {any} */ v) => `${v.id} (${v.impact}): ${v.nodes.length} × ${v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')).join(' | ')}`);
  });
  return /** @type {string[]} */ (found);
}

describe('every screen, checked by axe-core and photographed', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {ReturnType<typeof client>} */
  let admin;

  before(async () => {
    ({ server, browser, admin } = await startShop());
    // A small shop: four categories, a score of pets, some sales, three devices.
    /** @type {Record<string, number>} */
    const cat = {};
    for (const [name, description] of [['Dogs', 'Puppies and grown dogs'], ['Tropical fish', 'Warm-water aquarium fish'], ['Reptiles', undefined], ['Small animals', 'Hamsters, rabbits, guinea pigs']]) {
      cat[/** @type {string} */ (name)] = (await admin.post('/categories', description ? { name, description } : { name })).id;
    }
    const stock = /** @type {Array<[string, string, number, string?]>} */ ([
      ['Biscuit (Beagle puppy)', 'Dogs', 1], ['Rex (Boxer puppy)', 'Dogs', 1], ['Luna (Labrador)', 'Dogs', 0, 'sold'],
      ['Neon tetra', 'Tropical fish', 83], ['Guppy', 'Tropical fish', 14], ['Clownfish', 'Tropical fish', 0],
      ['Goldfish (common)', 'Tropical fish', 52], ['Angelfish', 'Tropical fish', 5], ['Betta (female)', 'Tropical fish', 2],
      ['Chameleon (veiled)', 'Reptiles', 2, 'sold'], ['Corn snake (juvenile)', 'Reptiles', 1], ['Leopard gecko', 'Reptiles', 3],
      ['Syrian hamster', 'Small animals', 6], ['Dwarf rabbit', 'Small animals', 2], ['Guinea pig', 'Small animals', 4], ['Degu', 'Small animals', 3],
    ]);
    /** @type {number[]} */
    const ids = [];
    // Prices in cents: single animals dear, fish by the piece.
    const prices = [65000, 72000, 80000, 350, 290, 1800, 150, 1200, 900, 14900, 8900, 7900, 1900, 3900, 2900, 2400];
    for (const [i, [name, category, qty, status]] of stock.entries()) {
      const p = await admin.post('/pets', { name, categoryId: cat[category], status: 'available', price: prices[i] });
      ids.push(p.id);
      if (qty > 0) await admin.put(`/store/inventory/${p.id}`, { quantity: qty, reason: 'Opening count' });
      if (status) await admin.patch(`/pets/${p.id}`, { status });
    }
    await admin.post(`/store/inventory/${ids[3]}/adjustments`, { delta: 20, reason: 'Delivery' });
    // Reorder points for the goods a shop restocks (not for single animals).
    for (const [i, point] of [[3, 40], [4, 10], [6, 20], [7, 5], [8, 3]]) await admin.patch(`/store/inventory/${ids[i]}`, { reorderPoint: point });
    const till = await admin.post('/admin/keys', { name: 'Till 1', role: 'pos', plan: 'pro' });
    await admin.post('/admin/keys', { name: 'Counter tablet', role: 'staff', plan: 'business' });
    await admin.post('/admin/keys', { name: 'Wall screen', role: 'readonly', plan: 'pro' });
    const pos = client(server.base, till.secret);
    for (const [i, q] of [[3, 10], [4, 2], [6, 3], [12, 1], [7, 1]]) await pos.post('/store/orders', { petId: ids[i], quantity: q });
    const orders = await admin.get('/store/orders?complete=false');
    await pos.patch(`/store/orders/${orders[orders.length - 1].id}`, { complete: true });
  });

  after(() => stopShop(server, browser));

  for (const size of SIZES) {
    it(`has no axe violation on any page or dialog, and photographs each (${size.name})`, async () => {
      const { context, page, errors } = await openPage(browser, { viewport: size.viewport, bypassCSP: true });
      /** @type {Record<string, string[]>} */
      const found = {};
      /** @type {Record<string, string[]>} */
      const wide = {};
      const shot = async (/** @type {string} */ name) => {
        await page.mouse.move(0, 0);
        found[name] = await violations(page);
        // A table that scrolls sideways hides its row's buttons at the right edge.
        wide[name] = await page.locator('main .table-wrap').evaluateAll((els) => els.filter((el) => el.scrollWidth > el.clientWidth).map((el) => `${el.scrollWidth - el.clientWidth} px too wide`));
        await page.screenshot({ path: path.join(docsShots, `${size.name}-${name}.png`) });
      };
      const dialog = page.getByRole('dialog');
      const settle = () => page.locator('main .page[aria-busy="false"]').waitFor();

      await page.goto(server.base + '/');
      await page.getByLabel('PIN', { exact: true }).waitFor();
      await shot('signin');
      await page.getByRole('link', { name: 'Use a key instead' }).click();
      await page.getByLabel('Key', { exact: true }).waitFor();
      await shot('signin-key');
      await page.getByLabel('Key', { exact: true }).fill(ADMIN_KEY);
      await page.getByLabel('Key', { exact: true }).press('Enter');
      await page.getByRole('heading', { level: 1, name: 'Pets' }).waitFor();
      await settle();
      await page.locator('.live[data-state="live"]').waitFor();
      await shot('pets');

      // The navigation is one line of 44 px targets at both sizes, and never widens the page;
      // the pages that do not fit are under More (tests/ui/navigation.test.js).
      const links = await page.locator('nav.nav > a, nav.nav .nav-more-button').evaluateAll((as) => as.map((a) => {
        const r = a.getBoundingClientRect();
        return { top: Math.round(r.top), height: r.height };
      }));
      assert.ok(links.length >= 8, `an admin sees every page (${links.length})`);
      assert.equal(new Set(links.map((l) => l.top)).size, 1, `the navigation is one line (${size.name})`);
      assert.ok(links.every((l) => l.height >= 44), `navigation targets are 44 px tall (${size.name})`);
      assert.ok(await page.locator('header.top').evaluate((el) => el.scrollWidth <= el.clientWidth && el.getBoundingClientRect().right <= window.innerWidth), `the header fits the screen's width (${size.name})`);
      assert.ok(await page.locator('header.top').evaluate((el) => el.getBoundingClientRect().height) <= 120, `the header stays short (${size.name})`);

      const row = page.locator('tr', { has: page.getByRole('rowheader', { name: 'Guppy', exact: true }) });
      await row.getByRole('button', { name: 'Adjust Guppy' }).click();
      await page.keyboard.type('3');
      await dialog.getByRole('button', { name: 'Delivery' }).click();
      await shot('adjust-dialog');
      await page.keyboard.press('Escape');
      await row.getByRole('button', { name: 'More for Guppy' }).click();
      await row.getByRole('button', { name: 'Set count of Guppy' }).click();
      await page.keyboard.type('1430');
      await page.keyboard.press('Enter');
      await dialog.locator('.warning').waitFor();
      await shot('set-count-second-look');
      await page.keyboard.press('Escape');
      await row.getByRole('button', { name: 'More for Guppy' }).click();
      await row.getByRole('button', { name: 'History of Guppy' }).click();
      await dialog.locator('tbody tr').first().waitFor();
      await shot('history-dialog');
      await page.keyboard.press('Escape');
      await row.getByRole('button', { name: 'More for Guppy' }).click();
      await row.getByRole('button', { name: 'Edit Guppy' }).click();
      await dialog.getByLabel('Name', { exact: true }).waitFor();
      await shot('edit-pet-dialog');
      // A confirmation (the shared confirmAction: narrow, its button in the danger colours).
      await dialog.getByRole('button', { name: 'Delete Guppy…' }).click();
      await page.getByRole('dialog', { name: 'Delete Guppy?' }).waitFor();
      found['delete-confirm'] = await violations(page);
      await page.keyboard.press('Escape');
      await page.getByRole('dialog').waitFor({ state: 'detached' });
      await page.getByRole('button', { name: '+ Add pet' }).click();
      await dialog.getByLabel('Name', { exact: true }).waitFor();
      await shot('add-pet-dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Import CSV' }).click();
      await page.getByRole('dialog', { name: 'Import pets from CSV' }).waitFor();
      await shot('import-dialog');
      await page.keyboard.press('Escape');

      for (const [link, name] of [['Categories', 'categories'], ['Inventory', 'inventory'], ['Orders', 'orders'], ['Keys', 'keys']]) {
        await goToPage(page, link);
        await page.getByRole('heading', { level: 1, name: link }).waitFor();
        await settle();
        await page.locator('main table').first().waitFor();
        await shot(name);
      }

      // Every other page the navigation offers (staff members, backups, later ones too).
      const seen = new Set(['Pets', 'Categories', 'Inventory', 'Orders', 'Keys']);
      for (const link of await page.locator('nav.nav a').allTextContents()) {
        if (seen.has(link.trim())) continue;
        await goToPage(page, link.trim());
        await page.getByRole('heading', { level: 1 }).first().waitFor();
        await settle();
        await shot(link.trim().toLowerCase().replace(/[^a-z0-9]+/g, '-'));
      }
      await page.locator('nav.nav').getByRole('button', { name: /^More/ }).click();
      await page.getByRole('group', { name: 'Manager' }).waitFor();
      await shot('nav-more');
      for (const [pageName, button, name] of [['Staff', '+ Add staff member', 'add-staff-dialog'], ['Categories', '+ Add category', 'add-category-dialog']]) {
        await goToPage(page, pageName);
        await settle();
        await page.getByRole('button', { name: button }).click();
        await dialog.getByLabel('Name', { exact: true }).waitFor();
        await shot(name);
        await page.keyboard.press('Escape');
      }
      await goToPage(page, 'Keys');
      await settle();

      await page.getByRole('button', { name: '+ Create key' }).click();
      await dialog.getByLabel('Name', { exact: true }).fill('Till 2');
      await shot('create-key-dialog');
      await page.keyboard.press('Escape');
      await page.getByRole('button', { name: 'Pair a till' }).click();
      await dialog.getByLabel('Name', { exact: true }).fill('Till 2');
      await shot('pair-till-dialog');
      await dialog.getByRole('button', { name: 'Show the QR code' }).click();
      await page.waitForFunction(() => /** @type {HTMLImageElement | null} */ (document.querySelector('.pair-qr'))?.naturalWidth);
      await shot('pair-till-panel');
      await page.keyboard.press('Escape');

      await page.getByRole('link', { name: 'Orders', exact: true }).click();
      await settle();
      await page.getByRole('button', { name: '+ Place order' }).click();
      await dialog.getByLabel('Find a pet').fill('gold');
      await dialog.locator('select[name="petId"][aria-busy="false"]').waitFor();
      await shot('place-order-dialog');
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      await page.locator('#orders-open').getByRole('button', { name: /Mark complete/ }).first().click();
      await page.locator('.toast').getByRole('button', { name: 'Undo' }).waitFor();
      await shot('mark-complete-undo');
      await page.locator('.toast').getByRole('button', { name: 'Undo' }).click();

      // Loading and failure, as a clerk would see them on a slow or stopped server.
      await page.route((u) => u.pathname === '/categories', (route) => route.abort());
      await goToPage(page, 'Categories');
      await page.locator('.error-panel').waitFor();
      await shot('load-failed');
      await page.unrouteAll({ behavior: 'wait' });

      // The page a till opens to pair, at this size too.
      await page.goto(server.base + '/pair');
      await page.getByLabel('Pairing code').waitFor();
      await shot('pair-page');

      await context.close();
      for (const [name, list] of Object.entries(found)) assert.deepEqual(list, [], `axe violations on ${name} (${size.name})`);
      for (const [name, list] of Object.entries(wide)) assert.deepEqual(list, [], `a table wider than the screen on ${name} (${size.name})`);
      assert.deepEqual(errors, []);
    });
  }
});
