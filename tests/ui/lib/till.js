// Helpers of the till's browser tests: a shop with priced, barcoded stock, a paired till (its
// key kept on the device as `/pair` leaves it), a print dialog that records what it was given,
// and a clerk's cost counted as clicks plus keystrokes (a scanner's typing is not counted).

import { openPage } from './browser.js';

/** An EAN-13 with its check digit, from twelve digits. @param {string} twelve */
export function ean13(twelve) {
  const sum = [...twelve].reduce((acc, d, i) => acc + Number(d) * (i % 2 ? 3 : 1), 0);
  return twelve + String((10 - (sum % 10)) % 10);
}

/**
 * Pets with a price, a barcode and stock.
 * @param {ReturnType<typeof import('./client.js').client>} admin
 * @param {number} categoryId
 * @param {Array<{ name: string, price: number, stock: number, taxRate?: number, animal?: any }>} specs
 * @param {string} prefix  nine digits (twelve with the pet's three), so each test's barcodes are its own
 */
export async function stockShop(admin, categoryId, specs, prefix) {
  /** @type {Record<string, any>} */
  const out = {};
  let n = 0;
  for (const s of specs) {
    n += 1;
    const barcode = ean13(prefix + String(n).padStart(3, '0'));
    const pet = await admin.post('/pets', {
      name: s.name, categoryId, status: 'available', price: s.price, barcode,
      ...(s.taxRate !== undefined ? { taxRate: s.taxRate } : {}), ...(s.animal ? { animal: s.animal } : {}),
    });
    await admin.put(`/store/inventory/${pet.id}`, { quantity: s.stock });
    out[s.name] = { ...pet, barcode };
  }
  return out;
}

/**
 * A browser page signed in as a paired till (or with `key` typed in, when `paired` is false),
 * whose print dialog records the printed document's HTML in `window.__printed`.
 * @param {import('playwright-core').Browser} browser
 * @param {{ key: string, name?: string, viewport: { width: number, height: number }, paired?: boolean }} o
 */
export async function tillPage(browser, o) {
  const opened = await openPage(browser, { viewport: o.viewport, bypassCSP: true });
  if (process.env.UI_TIMEOUT_MS) opened.context.setDefaultTimeout(Number(process.env.UI_TIMEOUT_MS));
  await opened.context.addInitScript(({ key, name, paired }) => {
    if (paired) {
      localStorage.setItem('petstore.device-key', key);
      localStorage.setItem('petstore.device-name', name);
    } else sessionStorage.setItem('petstore.key', key);
    // Every frame's print(): record what the dialog would show, in the top window.
    window.print = () => {
      const top = /** @type {any} */ (window.top);
      (top.__printed ??= []).push(document.documentElement.outerHTML);
    };
  }, { key: o.key, name: o.name ?? 'Counter', paired: o.paired ?? true });
  return opened;
}

/**
 * A clerk's actions on the page, counted: each click and each key pressed is one; `scan`
 * types a code and Enter as a keyboard-wedge scanner does, and is not counted.
 * @param {import('playwright-core').Page} page
 */
export function clerk(page) {
  let actions = 0;
  return {
    get actions() { return actions; },
    reset() { actions = 0; },
    /** @param {string} code */
    async scan(code) {
      await page.locator('#till-scan').focus();
      await page.keyboard.type(code + '\n', { delay: 5 });
    },
    /** @param {import('playwright-core').Locator} target */
    async click(target) {
      await target.click();
      actions += 1;
    },
    /** @param {string} text  typed key by key, each key counted */
    async type(text) {
      for (const k of text) {
        await page.keyboard.press(k);
        actions += 1;
      }
    },
    /** @param {string} key */
    async press(key) {
      await page.keyboard.press(key);
      actions += 1;
    },
  };
}

