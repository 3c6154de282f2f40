// Real headless Chromium (Debian's package), driven by playwright-core. No browser download.

import { chromium } from 'playwright-core';

export const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

export function launchBrowser() {
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
      '--disable-sync', '--no-first-run', '--disable-quic',
    ],
  });
}

/**
 * A page at 1280×800 that records uncaught errors and console errors, so a test can assert
 * the UI ran cleanly.
 * @param {import('playwright-core').Browser} browser
 * @param {import('playwright-core').BrowserContextOptions} [opts]
 */
export async function openPage(browser, opts = {}) {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 }, ...opts });
  const page = await context.newPage();
  /** @type {string[]} */
  const errors = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('console', (m) => {
    // Failed requests the UI handles itself (a refused key, a 429 in a test, the till's
    // offline shell refused over a certificate the browser does not trust) also log here.
    if (m.type() === 'error' && !/Failed to load resource|SSL certificate error occurred when fetching the script/.test(m.text())) errors.push(`console: ${m.text()}`);
  });
  return { context, page, errors };
}

/**
 * Opens a page of the staff UI from the header's navigation, as a person would: its link on
 * the band, or under "More" when it is there.
 * @param {import('playwright-core').Page} page
 * @param {string} title  the link's text ("Keys")
 */
export async function goToPage(page, title) {
  const nav = page.locator('nav.nav');
  await nav.waitFor();
  const link = nav.getByRole('link', { name: title, exact: true });
  // The band is drawn for the role signed in: wait for the link itself before asking whether
  // it is on the band or under More (asked earlier, More opened and was then drawn again shut).
  // Under a shut More it is hidden, which role locators skip unless told.
  await nav.getByRole('link', { name: title, exact: true, includeHidden: true }).waitFor({ state: 'attached' });
  if (!(await link.isVisible())) await nav.getByRole('button', { name: /^More/ }).click();
  await link.click();
}

/**
 * Signs in with `key` from the sign-in screen on show: "Use a key instead", the key typed into
 * its box, then Enter. The caller waits for the screen it expects next.
 * @param {import('playwright-core').Page} page
 * @param {string} key
 */
export async function signInWithKey(page, key) {
  await page.getByRole('link', { name: 'Use a key instead' }).click();
  const box = page.getByLabel('Key', { exact: true });
  await box.fill(key);
  await box.press('Enter');
}
