// Animals (interface 1.2) in the staff UI, in real headless Chromium against the real binary:
// Add pet's "This is one animal", the pet's record and care log, a hold shown on Pets and in
// Place order and an order refused for it with its reason, the Care page on a 820×1180 tablet
// (one tap logs feeding; care logged elsewhere shows from the event stream), and the animals
// report with its CSV. axe-core checks the new screens. Screenshots go to
// tests/ui/screenshots/ (with PETSTORE_SCREENSHOTS=docs, to docs/screenshots/).

import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startServer, ADMIN_KEY } from './lib/server.js';
import { openPage, signInWithKey } from './lib/browser.js';
import { screenshotFolder } from './lib/screenshots.js';
import { client } from './lib/client.js';
import { startShop, stopShop } from './lib/shop.js';
import { violations } from './lib/axe.js';

const shots = screenshotFolder();

/** A local date `offset` days from today, as `YYYY-MM-DD` (the store's zone is the machine's). @param {number} offset */
function day(offset) {
  const d = new Date();
  d.setDate(d.getDate() + offset);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

describe('animals in the staff UI', () => {
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
   * @param {import('playwright-core').BrowserContextOptions} opts
   */
  async function signedIn(opts) {
    // bypassCSP only lets the test add axe-core to the page.
    const opened = await openPage(browser, { acceptDownloads: true, bypassCSP: true, ...opts });
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

  /** A pet that is one animal, in stock. @param {string} name @param {number} categoryId @param {object} animal */
  async function animal(name, categoryId, animal) {
    const pet = await admin.post('/pets', { name, categoryId, status: 'available', price: 45000, animal });
    await admin.put(`/store/inventory/${pet.id}`, { quantity: 1 });
    ids[name] = pet.id;
    return pet.id;
  }

  before(async () => {
    ({ server, browser, admin } = await startShop());
    ids.dogs = (await admin.post('/categories', { name: 'Dogs' })).id;
    ids.cats = (await admin.post('/categories', { name: 'Cats' })).id;
    ids.birds = (await admin.post('/categories', { name: 'Birds' })).id;
    await animal('Pepper (Beagle puppy)', ids.dogs, { sex: 'male', bornOn: day(-70), breed: 'Beagle' });
    await animal('Mittens (kitten)', ids.cats, { sex: 'female', bornOn: day(-84), breed: 'British Shorthair' });
    // Twelve budgies in the bird room, each fed yesterday and due again today.
    for (let i = 1; i <= 12; i += 1) {
      const id = await animal(`Budgie ${i}`, ids.birds, { sex: i % 2 ? 'male' : 'female', bornOn: day(-200) });
      await admin.post(`/pets/${id}/care`, { kind: 'fed', dueOn: day(0) });
    }
    // The kitten's vaccination is overdue by three days.
    await admin.post(`/pets/${ids['Mittens (kitten)']}/care`, { kind: 'vaccination', product: 'Feline trivalent', dueOn: day(-3) });
  });

  after(() => stopShop(server, browser));

  it('adds a pet as one animal, shows its record and care log, and sets a hold that Place order respects', async () => {
    const { page, errors, context } = await signedIn({ viewport: { width: 1280, height: 800 } });
    await page.getByRole('button', { name: '+ Add pet' }).click();
    const form = page.getByRole('dialog', { name: 'Add a pet' });
    await form.getByLabel('Name', { exact: true }).fill('Biscuit (Beagle puppy)');
    await form.getByLabel('Category').selectOption({ label: 'Dogs' });
    await form.getByLabel(/^Price/).fill('890');
    await form.getByLabel('This is one animal').check();
    // One individual: the stock box now takes 0 or 1, and shows 1.
    assert.equal(await form.getByLabel('In stock now').inputValue(), '1');
    assert.equal(await form.getByLabel('In stock now').getAttribute('max'), '1');
    await form.getByLabel('Sex').selectOption('female');
    await form.getByLabel('Born on').fill(day(-63));
    await form.getByLabel('Breed').fill('Beagle');
    await form.getByLabel('Microchip').fill('985112345678901');
    await form.getByLabel('Came from').fill('Hillside Kennels');
    await form.getByRole('button', { name: 'Add pet' }).click();
    await form.waitFor({ state: 'detached' });
    const [biscuit] = await admin.get('/pets?q=biscuit');
    assert.deepEqual(biscuit.animal, { sex: 'female', bornOn: day(-63), breed: 'Beagle', microchip: '985112345678901', source: 'Hillside Kennels' });
    assert.equal(biscuit.price, 89000, 'the price is kept beside the animal record');
    assert.equal((await admin.get(`/store/inventory/${biscuit.id}`)).quantity, 1);
    ids.Biscuit = biscuit.id;

    // Its record and care log, from the row's "More" menu.
    const row = page.locator(`tr[data-pet-id="${biscuit.id}"]`);
    await row.getByRole('button', { name: 'More for Biscuit (Beagle puppy)' }).click();
    await page.getByRole('button', { name: 'Animal & care of Biscuit (Beagle puppy)' }).click();
    const dlg = page.getByRole('dialog', { name: 'Biscuit (Beagle puppy): animal record and care' });
    await dlg.waitFor();
    assert.equal(await dlg.getByLabel('Microchip').inputValue(), '985112345678901');
    await dlg.getByText('Nothing logged yet.').waitFor();
    // Two entries: the newest is listed first.
    await dlg.getByLabel('Kind').selectOption('health_check');
    await dlg.getByLabel('Note').fill('Bright and alert');
    await dlg.getByRole('button', { name: 'Add to care log' }).click();
    await dlg.locator('.care-entry').first().waitFor();
    await dlg.getByLabel('Kind').selectOption('vaccination');
    await dlg.getByLabel('Vaccine or medicine').fill('DHPPi');
    await dlg.getByLabel('Next due').fill(day(21));
    // Enter in the care form adds the entry; it does not save the dialog.
    await dlg.getByLabel('Vaccine or medicine').press('Enter');
    await page.waitForFunction(() => document.querySelectorAll('.care-entry').length === 2);
    assert.deepEqual(await dlg.locator('.care-entry').evaluateAll((els) => els.map((e) => e.getAttribute('data-kind'))), ['vaccination', 'health_check']);
    assert.match(await dlg.locator('.care-entry').first().innerText(), new RegExp(`DHPPi.*next due ${day(21)}`));
    const log = await admin.get(`/pets/${biscuit.id}/care`);
    assert.deepEqual(log.map((/** @type {any} */ e) => e.kind), ['vaccination', 'health_check']);
    assert.equal(log[0].product, 'DHPPi');
    await dlg.isVisible();
    assert.ok(await dlg.isVisible(), 'the dialog stays open after Enter in the care form');

    // The hold: set with its last day and reason, then saved with the record.
    await dlg.getByLabel('On hold until').fill(day(3));
    await dlg.getByLabel('Reason').fill('Quarantine after arrival');
    // The whole dialog in one picture: a window tall enough for it.
    await page.setViewportSize({ width: 1280, height: 1500 });
    await shot(page, 'desktop-animal-record');
    await page.setViewportSize({ width: 1280, height: 800 });
    assert.deepEqual(await violations(page), []);
    await dlg.getByRole('button', { name: 'Save record and hold' }).click();
    await dlg.waitFor({ state: 'detached' });
    assert.deepEqual((await admin.get(`/pets?ids=${biscuit.id}`))[0].hold, { until: day(3), reason: 'Quarantine after arrival' });
    // The badge on Pets, with the reason.
    await row.locator('.badge-hold').waitFor();
    assert.match(await row.locator('.hold').innerText(), /On hold until .*Quarantine after arrival/);

    // Place order: the held pet is greyed with its hold; a hold set while the dialog is open is
    // refused by the server, and its reason shown plainly.
    await page.getByRole('link', { name: 'Orders', exact: true }).click();
    await page.getByRole('button', { name: '+ Place order' }).click();
    const order = page.getByRole('dialog', { name: 'Place an order' });
    await order.getByLabel('Find a pet').fill('beagle');
    // The Pet box is busy until the pets are listed.
    await order.locator('select[name="petId"][aria-busy="false"]').waitFor();
    const held = order.locator(`option[value="${biscuit.id}"]`);
    assert.equal(await held.isDisabled(), true);
    assert.match(await held.innerText(), /On hold until .*Quarantine after arrival/);
    await order.getByLabel('Pet', { exact: true }).selectOption(String(ids['Pepper (Beagle puppy)']));
    await admin.patch(`/pets/${ids['Pepper (Beagle puppy)']}`, { hold: { until: day(1), reason: 'Reserved for Mrs Lee' } });
    await order.getByRole('button', { name: 'Place order' }).click();
    const refusal = order.getByRole('alert');
    await refusal.filter({ hasText: 'Reserved for Mrs Lee' }).waitFor();
    assert.match(await refusal.innerText(), new RegExp(`Pepper \\(Beagle puppy\\) is on hold until the end of ${day(1)}: Reserved for Mrs Lee`));
    assert.equal((await admin.get('/store/orders?limit=10')).length, 0, 'no order was placed');
    await order.getByRole('button', { name: 'Cancel' }).click();
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('shows what care is due on a tablet, logs a feeding round in one tap each, and follows the event stream', async () => {
    const { page, errors, context } = await signedIn({ viewport: { width: 820, height: 1180 }, hasTouch: true, isMobile: true });
    await page.getByRole('link', { name: 'Care', exact: true }).tap();
    await page.getByRole('heading', { level: 1, name: 'Care' }).waitFor();
    const kitten = page.locator(`article[data-pet-id="${ids['Mittens (kitten)']}"]`);
    await kitten.waitFor();
    assert.match(await kitten.innerText(), /Cats · 12 weeks · British Shorthair/);
    assert.match(await kitten.locator('.care-due[data-kind="vaccination"]').innerText(), /Overdue 3 days/);
    // Overdue comes first.
    assert.equal(await page.locator('article.care-card').first().getAttribute('data-pet-id'), String(ids['Mittens (kitten)']));
    assert.match(await page.locator('.care-summary').innerText(), /13 to do for 13 animals, 1 overdue/);
    // Targets are big enough for a finger.
    const box = await page.getByRole('button', { name: 'Fed: Budgie 1', exact: true }).boundingBox();
    assert.ok(box && box.height >= 48 && box.width >= 48, `the Fed button is ${box?.width}×${box?.height}`);
    // Not tablet-care.png: the screens test writes tablet-<page>.png for every page of an empty shop.
    await shot(page, 'care-due-tablet');
    assert.deepEqual(await violations(page), []);

    // The feeding round: twelve taps for twelve budgies.
    let taps = 0;
    for (let i = 1; i <= 12; i += 1) {
      await page.getByRole('button', { name: `Fed: Budgie ${i}`, exact: true }).tap();
      taps += 1;
      await page.locator(`article[data-pet-id="${ids[`Budgie ${i}`]}"]`).waitFor({ state: 'detached' });
    }
    assert.ok(taps <= 15, `${taps} actions`);
    for (let i = 1; i <= 12; i += 1) {
      const [fed] = await admin.get(`/pets/${ids[`Budgie ${i}`]}/care?kind=fed&limit=1`);
      // The rhythm is kept: fed yesterday for today, so due again tomorrow.
      assert.equal(fed.dueOn, day(1), `Budgie ${i}`);
    }
    assert.equal((await admin.get('/store/care/due?within=0')).length, 1, 'only the kitten’s vaccination is left');

    // Care logged on another device shows here from the event stream, with no tap.
    await admin.post(`/pets/${ids['Pepper (Beagle puppy)']}/care`, { kind: 'health_check', dueOn: day(-1) });
    const puppy = page.locator(`article[data-pet-id="${ids['Pepper (Beagle puppy)']}"]`);
    await puppy.waitFor();
    assert.match(await puppy.innerText(), /Overdue 1 day/);
    // A vaccination opens the short form: the vaccine and the next due date.
    await kitten.getByRole('button', { name: 'Log vaccination: Mittens (kitten)' }).tap();
    const vacc = page.getByRole('dialog', { name: 'Vaccination: Mittens (kitten)' });
    await vacc.getByLabel('Vaccine').fill('Feline trivalent');
    await vacc.getByLabel('Next due').fill(day(365));
    await vacc.getByRole('button', { name: 'Log it' }).tap();
    await kitten.waitFor({ state: 'detached' });
    const [shot1] = await admin.get(`/pets/${ids['Mittens (kitten)']}/care?kind=vaccination&limit=1`);
    assert.deepEqual([shot1.product, shot1.dueOn], ['Feline trivalent', day(365)]);
    const viewport = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, width: window.innerWidth }));
    assert.ok(viewport.scroll <= viewport.width, 'nothing wider than the tablet');
    assert.deepEqual(errors, []);
    await context.close();
  });

  it('lists an animal sold with its buyer in the animals report, and downloads it as CSV', async () => {
    const mittens = ids['Mittens (kitten)'];
    await admin.post('/store/sales', {
      lines: [{ petId: mittens, quantity: 1 }],
      payments: [{ method: 'cash', amount: 45000 }],
      customer: { name: 'Ann Lee', phone: '+44 20 7946 0000' },
    });
    const { page, errors, context } = await signedIn({ viewport: { width: 1280, height: 800 } });
    await page.getByRole('link', { name: 'Reports', exact: true }).click();
    const section = page.getByRole('region', { name: 'Animals sold' });
    const row = section.locator(`tr[data-pet-id="${mittens}"]`);
    await row.waitFor();
    const text = await row.innerText();
    assert.match(text, /Mittens \(kitten\)/);
    assert.match(text, /Female · British Shorthair/);
    assert.match(text, /Ann Lee · \+44 20 7946 0000/);
    assert.equal(await section.locator('tbody tr[data-pet-id]').count(), 1, 'only the animal sold');
    const [download] = await Promise.all([page.waitForEvent('download'), section.getByRole('button', { name: 'Download animals CSV' }).click()]);
    const csv = readFileSync(/** @type {string} */ (await download.path()), 'utf8');
    assert.match(download.suggestedFilename(), /^animals-.*\.csv$/);
    const lines = csv.trim().split(/\r?\n/);
    assert.equal(lines.length, 2, csv);
    assert.match(lines[1], /Mittens \(kitten\)/);
    assert.match(lines[1], /Ann Lee/);
    assert.deepEqual(await violations(page), []);
    assert.deepEqual(errors, []);
    await context.close();
  });
});
