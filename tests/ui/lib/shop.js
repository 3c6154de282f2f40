// What most browser test files share: the real server on a new store, one headless Chromium
// and a client with the admin key, started before the file's tests and stopped after them.

import { startServer, ADMIN_KEY } from './server.js';
import { launchBrowser } from './browser.js';
import { client } from './client.js';

/**
 * Starts a server on a new store and a browser; the two and a client with the admin key.
 * @param {string[]} [extraArgs]  more `petstore serve` flags (`--tls`)
 */
export async function startShop(extraArgs = []) {
  const server = await startServer(extraArgs);
  const browser = await launchBrowser();
  return { server, browser, admin: client(server.base, ADMIN_KEY) };
}

/**
 * Closes the browser, then stops the server; either may be missing when starting failed.
 * @param {{ stop(): Promise<void> } | undefined} server
 * @param {import('playwright-core').Browser | undefined} browser
 */
export async function stopShop(server, browser) {
  await browser?.close();
  await server?.stop();
}
