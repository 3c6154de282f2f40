// Where the browser tests write their screenshots: tests/ui/screenshots/ on a plain run, or
// docs/screenshots/ (the pictures the README shows) with PETSTORE_SCREENSHOTS=docs, where they
// are refreshed on purpose.

import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ui = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** The screenshots folder for this run, made if it is missing. */
export function screenshotFolder() {
  const folder = process.env.PETSTORE_SCREENSHOTS === 'docs'
    ? path.resolve(ui, '../../docs/screenshots')
    : path.join(ui, 'screenshots');
  mkdirSync(folder, { recursive: true });
  return folder;
}
