//! CSV out and in on the Pets page: "Export" downloads every pet; "Import" reads a file,
//! shows the dry run's counts and each error by line, and only then applies it. Prices go
//! both ways as a shop writes them (`27.50`, the store's currency), through the interface's
//! `money=decimal`; the dialog names the unit, and warns when a file's prices look 100 times
//! too small or too large beside the prices already in the store.

import * as api from './api.js';
import { h, field, uid, replace, saveBlob } from './dom.js';
import { openDialog } from './dialog.js';
import { notify, notifyError } from './notify.js';
import { plural } from './format.js';
import { loadProfile, minorDigits, formatPrice, parsePrice } from './money.js';
import { csvColumn, csvPairs, priceScale } from './pricecheck.js';

/** Money columns in the currency's major unit, both ways. */
const MONEY = { money: 'decimal' };
/** Problems listed in the dialog; past it, a line says how many more there are. */
const PROBLEMS_SHOWN = 200;
/** Rows whose prices the dialog shows as it reads them, so the unit can be checked at a glance. */
const PRICES_SHOWN = 3;

/**
 * @typedef {{ line: number, field: string, message: string }} ImportError
 * @typedef {{ created: number, updated: number, unchanged: number, errors: ImportError[] }} Summary
 */

/** Downloads pets.csv. */
export async function exportPets() {
  try {
    const blob = await api.download('/store/export/pets.csv', MONEY);
    saveBlob(blob, 'pets.csv');
  } catch (err) {
    notifyError(err);
  }
}

/**
 * Runs the import (or its dry run): the summary, or the errors of a refused file.
 * @param {string} text
 * @param {boolean} dryRun
 * @returns {Promise<Summary>}
 */
async function send(text, dryRun) {
  try {
    return /** @type {Summary} */ (await api.postText('/store/import/pets', text, 'text/csv', dryRun ? { ...MONEY, dryRun: 'true' } : MONEY));
  } catch (err) {
    const details = /** @type {any} */ (err).details;
    if (details && Array.isArray(details.errors)) return { created: 0, updated: 0, unchanged: 0, errors: details.errors };
    throw err;
  }
}

/** @param {Summary} s */
function summaryView(s) {
  if (s.errors.length) {
    return h('div', { class: 'import-result', id: 'import-result' },
      h('p', { class: 'form-error' }, `${plural(s.errors.length, 'problem')} in the file; nothing will be imported until they are fixed.`),
      h('div', { class: 'table-wrap' }, h('table', {},
        h('caption', { class: 'sr-only' }, 'Problems by line'),
        h('thead', {}, h('tr', {}, h('th', { scope: 'col' }, 'Line'), h('th', { scope: 'col' }, 'Column'), h('th', { scope: 'col' }, 'Problem'))),
        h('tbody', {}, s.errors.slice(0, PROBLEMS_SHOWN).map((e) => h('tr', { class: 'import-error' }, h('td', { class: 'num' }, String(e.line)), h('td', {}, e.field || '—'), h('td', {}, e.message)))))),
      s.errors.length > PROBLEMS_SHOWN ? h('p', { class: 'muted' }, `${plural(s.errors.length - PROBLEMS_SHOWN, 'more problem')} not shown: fix these and check the file again.`) : null);
  }
  return h('div', { class: 'import-result', id: 'import-result' },
    h('p', {}, `Ready: ${plural(s.created, 'new pet')}, ${plural(s.updated, 'pet')} changed, ${s.unchanged} unchanged.`));
}

/**
 * A warning when the file's prices look 100 times off beside the store's, else null.
 * @param {string} text
 */
async function priceWarning(text) {
  const file = csvColumn(text, 'price').map((c) => parsePrice(c));
  if (file.length === 0) return null;
  /** @type {Array<{ price?: number }>} */
  const pets = await api.get('/pets', { limit: '500' }).catch(() => []);
  const seen = priceScale(file.map((p) => p ?? NaN), pets.map((p) => p.price ?? NaN));
  if (!seen) return null;
  const example = (2750 / 10 ** minorDigits()).toFixed(minorDigits());
  return seen.scale === 'small'
    ? `These prices look 100 times too small: half of them are ${formatPrice(seen.fileMedian)} or less, while the store’s pets usually cost ${formatPrice(seen.storeMedian)}. Prices are read as written, in the store’s currency: write ${example} for ${formatPrice(2750)}, not ${2750}.`
    : `These prices look 100 times too large: half of them are ${formatPrice(seen.fileMedian)} or more, while the store’s pets usually cost ${formatPrice(seen.storeMedian)}. Prices are read as written, in the store’s currency: write ${example} for ${formatPrice(2750)}.`;
}

/**
 * How the file's first prices are read ("Pug puppy $27.00 · …"), else null.
 * @param {string} text
 */
function pricesRead(text) {
  const shown = csvPairs(text, 'name', 'price', PRICES_SHOWN)
    .map(([name, cell]) => [name, parsePrice(cell)])
    .filter(([, minor]) => typeof minor === 'number' && Number.isFinite(minor))
    .map(([name, minor]) => `${name || 'a pet'} ${formatPrice(/** @type {number} */ (minor))}`);
  return shown.length ? h('p', { class: 'import-prices' }, h('strong', {}, 'Prices read as: '), shown.join(' · '), shown.length === PRICES_SHOWN ? ' …' : '') : null;
}

/** Opens the import dialog: choose a file, see the dry run, then apply. */
export async function openImport() {
  const profile = await loadProfile();
  const digits = minorDigits();
  const example = (2750 / 10 ** digits).toFixed(digits);
  const fileInput = /** @type {HTMLInputElement} */ (h('input', { id: uid('csv'), type: 'file', accept: '.csv,text/csv' }));
  const result = h('div', { 'aria-live': 'polite' });
  let text = '';
  let ready = false;
  /** The warning shown for the chosen file, and whether Apply was pressed once after it. */
  let warning = /** @type {string | null} */ (null);
  let warnedOnce = false;
  fileInput.addEventListener('change', async () => {
    ready = false;
    warning = null;
    warnedOnce = false;
    const file = fileInput.files?.[0];
    if (!file) return replace(result);
    replace(result, h('p', { class: 'muted' }, `Checking ${file.name}…`));
    try {
      text = await file.text();
      const s = await send(text, true);
      ready = s.errors.length === 0;
      warning = ready ? await priceWarning(text) : null;
      replace(result, summaryView(s), ready ? pricesRead(text) : null, warning ? h('p', { class: 'warning import-warning', role: 'note' }, h('strong', {}, 'Check the prices. '), warning) : null);
    } catch (err) {
      replace(result);
      notifyError(err);
    }
  });
  openDialog({
    title: 'Import pets from CSV',
    size: 'wide',
    body: [
      h('p', { class: 'muted' }, 'Columns: id, sku, barcode, name, category, status, price, quantity, reorderPoint, supplier, cost, reorderQuantity, taxRate (only name and category are needed). Rows are matched by id, then SKU, then barcode; others become new pets. Nothing changes until you apply, and a file with any problem changes nothing.'),
      h('p', { class: 'import-unit' }, `Prices and costs are in ${profile.currency}, written as you would write them: ${example} is ${formatPrice(2750)} (27, 27.5 and "27,50" work too). Export CSV writes them the same way.`),
      field('CSV file', fileInput),
      result,
    ],
    submitLabel: 'Apply import',
    onSubmit: async () => {
      if (!ready) throw new Error('Choose a file without problems first.');
      if (warning && !warnedOnce) {
        warnedOnce = true;
        throw new Error('The prices look 100 times off (see above). Fix the file, or press Apply import again to import them as they are.');
      }
      const s = await send(text, false);
      if (s.errors.length) {
        replace(result, summaryView(s));
        throw new Error('The file has problems; nothing was imported.');
      }
      notify(`Imported: ${plural(s.created, 'new pet')}, ${plural(s.updated, 'pet')} changed, ${s.unchanged} unchanged.`, 'ok');
    },
  });
}
