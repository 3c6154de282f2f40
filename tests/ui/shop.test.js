// Interface 1.1 in the staff UI, in real headless Chromium against the real binary: the scan
// box (a scanner types digits and Enter), the stocktake flow on a 820×1180 tablet, the CSV
// import's dry run, and the Reports page's chart. Screenshots of the new pages go to
// tests/ui/screenshots/ (with PETSTORE_SCREENSHOTS=docs, to docs/screenshots/).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { openPage, signInWithKey } from './lib/browser.js';
import { screenshotFolder } from './lib/screenshots.js';
import { client } from './lib/client.js';
import { startShop, stopShop } from './lib/shop.js';

const shots = screenshotFolder();

describe('the shop screens of interface 1.1', () => {
  /** @type {Awaited<ReturnType<typeof startServer>>} */
  let server;
  /** @type {import('playwright-core').Browser} */
  let browser;
  /** @type {ReturnType<typeof client>} */
  let admin;
  /** @type {Record<string, number>} */
  const ids = {};

  /**
   * A signed-in page at this size.
   * @param {{ width: number, height: number }} viewport
   */
  async function signedIn(viewport) {
    const opened = await openPage(browser, { viewport, acceptDownloads: true });
    await opened.page.goto(server.base + '/');
    await signInWithKey(opened.page, ADMIN_KEY);
    await opened.page.getByRole('heading', { level: 1, name: 'Pets', exact: true }).waitFor();
    return opened;
  }

  /** @param {import('playwright-core').Page} page @param {string} name */
  const shot = async (page, name) => {
    await page.evaluate(() => { for (const t of document.querySelectorAll('.toast')) t.remove(); });
    await page.screenshot({ path: path.join(shots, `${name}.png`), fullPage: true });
  };

  before(async () => {
    ({ server, browser, admin } = await startShop());
    await admin.patch('/store/profile', { name: 'Fins & Paws', currency: 'EUR' });
    const fish = (await admin.post('/categories', { name: 'Tropical fish' })).id;
    const dogs = (await admin.post('/categories', { name: 'Dogs' })).id;
    const stock = /** @type {Array<[string, number, number, string | null, number, number | null]>} */ ([
      ['Neon tetra', fish, 349, '4006381333931', 40, 10],
      ['Guppy', fish, 299, '96385074', 6, 8],
      ['Angelfish', fish, 1250, '036000291452', 3, 4],
      ['Biscuit (Beagle puppy)', dogs, 89000, null, 1, null],
    ]);
    for (const [name, categoryId, price, barcode, qty, reorderPoint] of stock) {
      const pet = await admin.post('/pets', { name, categoryId, status: 'available', price, ...(barcode ? { barcode } : {}) });
      ids[name] = pet.id;
      await admin.put(`/store/inventory/${pet.id}`, { quantity: qty });
      if (reorderPoint !== null) await admin.patch(`/store/inventory/${pet.id}`, { reorderPoint });
    }
    // Today's sales, so the report and the Today panel have something to show.
    for (const [name, n] of /** @type {Array<[string, number]>} */ ([['Neon tetra', 6], ['Neon tetra', 4], ['Angelfish', 1]])) {
      await admin.post('/store/orders', { petId: ids[name], quantity: n });
    }
  });

  after(() => stopShop(server, browser));

  it('jumps to the pet whose barcode is scanned, and offers to add an unknown one', async () => {
    const { page, errors, context } = await signedIn({ width: 1280, height: 800 });
    // The header counts the low items on every page: Guppy (6 ≤ 8) and Angelfish (2 ≤ 4).
    await page.locator('#low-stock[data-low="2"]').waitFor();
    assert.match(await page.locator('#low-stock').innerText(), /Low stock:\s*2/);
    assert.match(await page.locator(`tr[data-pet-id="${ids['Neon tetra']}"] .price`).innerText(), /3[.,]49/);

    const scan = page.getByLabel('Scan a barcode');
    await scan.click();
    // A scanner types fast and ends with Enter.
    await page.keyboard.type('96385074', { delay: 5 });
    await page.keyboard.press('Enter');
    await page.locator('#pet-show-all').waitFor();
    const rows = page.locator('tbody tr[data-pet-id]');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-pet-id]').length === 1);
    assert.equal(await rows.first().getAttribute('data-pet-id'), String(ids.Guppy));
    await shot(page, 'pets-scan');

    await scan.click();
    await page.keyboard.type('5012345678900', { delay: 5 });
    await page.keyboard.press('Enter');
    const ask = page.getByRole('dialog');
    await ask.getByText('Add a pet with the barcode 5012345678900?').waitFor();
    await ask.getByRole('button', { name: 'Add a pet with it' }).click();
    const form = page.getByRole('dialog', { name: 'Add a pet' });
    await form.waitFor();
    assert.equal(await form.getByLabel('Barcode').inputValue(), '5012345678900');
    await form.getByLabel('Name', { exact: true }).fill('Zebra danio');
    await form.getByLabel(/^Price/).fill('2,99');
    await form.getByRole('button', { name: 'Add pet' }).click();
    await form.waitFor({ state: 'detached' });
    const [created] = await admin.get('/pets?barcode=5012345678900');
    assert.equal(created.name, 'Zebra danio');
    assert.equal(created.price, 299);

    // The Inventory page's scan box finds the same pets.
    await page.getByRole('link', { name: 'Inventory', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Inventory' }).waitFor();
    await page.getByLabel('Scan a barcode').click();
    await page.keyboard.type('4006381333931', { delay: 5 });
    await page.keyboard.press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('tbody tr[data-pet-id]').length === 1);
    assert.equal(await page.locator('tbody tr[data-pet-id]').first().getAttribute('data-pet-id'), String(ids['Neon tetra']));
    // The header count opens the low list.
    await page.locator('#low-stock').click();
    await page.waitForFunction(() => document.querySelector('#inv-tab-low')?.getAttribute('aria-pressed') === 'true');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('counts the shelves on a tablet and keeps a sale made during the count', async () => {
    const { page, errors, context } = await signedIn({ width: 820, height: 1180 });
    await page.getByRole('link', { name: 'Stocktake', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Stocktake' }).waitFor();
    await page.getByRole('button', { name: 'Start a stocktake' }).click();
    await page.getByLabel('Scan a barcode').waitFor();

    // Neon tetra: the store expects 30 (40 less 10 sold); 27 are on the shelf.
    await page.getByLabel('Scan a barcode').click();
    await page.keyboard.type('4006381333931', { delay: 5 });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Neon tetra' }).waitFor();
    await page.getByText('The store expects 30.').waitFor();
    const counted = page.getByLabel('Counted on the shelf');
    await counted.fill('27');
    await counted.press('Enter');
    const line = page.locator('tr', { has: page.getByRole('rowheader', { name: 'Neon tetra' }) });
    await line.waitFor();
    assert.match(await line.innerText(), /27\s+30\s+−3/);

    // Angelfish by searching its name.
    await page.getByLabel('Or search a pet').fill('angel');
    await page.getByRole('button', { name: 'Angelfish' }).click();
    await page.getByLabel('Counted on the shelf').fill('2');
    await page.getByRole('button', { name: 'Save count' }).click();
    await page.locator('tr', { has: page.getByRole('rowheader', { name: 'Angelfish' }) }).waitFor();
    await shot(page, 'stocktake');

    // A till sells 5 tetras while the count is open.
    await admin.post('/store/orders', { petId: ids['Neon tetra'], quantity: 5 });
    await page.getByRole('button', { name: 'Apply counts' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Apply counts' }).click();
    await page.getByRole('button', { name: 'Start a stocktake' }).waitFor();
    assert.equal((await admin.get(`/store/inventory/${ids['Neon tetra']}`)).quantity, 22, '27 counted, 5 sold since');
    assert.equal((await admin.get(`/store/inventory/${ids.Angelfish}`)).quantity, 2);
    const viewport = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    assert.ok(viewport.scroll <= viewport.width, 'nothing wider than the tablet');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows an import dry run with its counts and each error by line, then applies it', async () => {
    const { page, errors, context } = await signedIn({ width: 1280, height: 800 });
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const dialog = page.getByRole('dialog', { name: 'Import pets from CSV' });
    const bad = 'name,category,barcode,price\nPlaty,Tropical fish,12345670,199\nMolly,Tropical fish,4006381333932,x\n';
    await dialog.getByLabel('CSV file').setInputFiles({ name: 'bad.csv', mimeType: 'text/csv', buffer: Buffer.from(bad) });
    await dialog.locator('#import-result').waitFor();
    const problems = dialog.locator('tr.import-error');
    assert.equal(await problems.count(), 2);
    assert.match(await problems.nth(0).innerText(), /^3\s+barcode/);
    assert.match(await problems.nth(1).innerText(), /^3\s+price/);
    assert.equal((await admin.get('/pets?q=platy')).length, 0, 'the dry run changed nothing');

    // Prices as a shop writes them, in the store's currency (euros here).
    const good = 'name,category,barcode,price,quantity\nPlaty,Tropical fish,12345670,1.99,12\nMolly,Live-bearers,,"2,49",4\nGuppy,Tropical fish,96385074,3.2,\n';
    await dialog.getByLabel('CSV file').setInputFiles({ name: 'good.csv', mimeType: 'text/csv', buffer: Buffer.from(good) });
    await dialog.getByText('Ready: 2 new pets, 1 pet changed, 0 unchanged.').waitFor();
    assert.equal((await admin.get('/pets?q=platy')).length, 0, 'still nothing before applying');
    await dialog.getByRole('button', { name: 'Apply import' }).click();
    await dialog.waitFor({ state: 'detached' });
    const [platy] = await admin.get('/pets?q=platy');
    assert.equal((await admin.get(`/store/inventory/${platy.id}`)).quantity, 12);
    assert.equal((await admin.get(`/pets?ids=${ids.Guppy}`))[0].price, 320);

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export CSV' }).click()]);
    assert.equal(download.suggestedFilename(), 'pets.csv');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('draws revenue per day as bars and downloads the report as CSV', async () => {
    const { page, errors, context } = await signedIn({ width: 1280, height: 800 });
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await page.locator('#today-orders').waitFor();
    assert.equal(await page.locator('#today-revenue').innerText(), await page.evaluate(() => new Intl.NumberFormat(undefined, { style: 'currency', currency: 'EUR' }).format(64.85)));

    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    await page.getByRole('heading', { level: 1, name: 'Reports' }).waitFor();
    const chart = page.locator('svg[data-chart="revenue"]');
    await chart.waitFor();
    const bars = chart.locator('rect.bar');
    assert.equal(await bars.count(), 30, 'one bar per day of the last 30');
    const last = bars.last();
    // 10 tetras at 3.49 and an angelfish at 12.50 today, then 5 tetras more: 64.85 €.
    assert.equal(await last.getAttribute('data-revenue'), '6485');
    assert.ok(Number(await last.getAttribute('height')) > 100, 'the only day with sales is the tallest bar');
    assert.equal(await bars.first().getAttribute('height'), '0');
    assert.match(await chart.getAttribute('aria-label') ?? '', /Revenue per day/);
    await shot(page, 'reports');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download CSV' }).click()]);
    const file = await download.path();
    const text = (await import('node:fs')).readFileSync(/** @type {string} */ (file), 'utf8');
    assert.match(text, /^date,ordersPlaced,ordersCompleted,ordersCancelled,unitsSold,revenue,sales,tax,refunds,cash,card,other\r\n/);
    assert.equal(text.trim().split('\r\n').length, 31);
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('keeps the scan box focused when another till\'s change redraws the stocktake mid-scan', async () => {
    const { page, errors, context } = await signedIn({ width: 820, height: 1180 });
    await page.getByRole('link', { name: 'Stocktake', exact: true }).click();
    await page.getByRole('button', { name: 'Start a stocktake' }).click();
    const scan = page.getByLabel('Scan a barcode');
    await scan.waitFor();
    await scan.click();
    await page.keyboard.type('4006381', { delay: 5 });
    // Another till renames a pet: the page is read again and redrawn around the scan box while
    // it is typed in.
    await admin.patch(`/pets/${ids.Guppy}`, { name: 'Fancy guppy' });
    await page.locator('.st-left-list button', { hasText: 'Fancy guppy' }).waitFor({ state: 'attached' });
    await page.keyboard.type('333931', { delay: 5 });
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Neon tetra' }).waitFor({ timeout: 5000 });
    await page.getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Discard' }).click();
    await page.getByRole('button', { name: 'Start a stocktake' }).waitFor();
    assert.deepEqual(errors, []);
    await context.close();
  });
});
