//! CSV out and in on the Pets page: "Export" downloads every pet; "Import" reads a file,
//! shows the dry run's counts and each error by line, and only then applies it.

import * as api from './api.js';
import { h, field, uid, replace } from './dom.js';
import { openDialog } from './dialog.js';
import { notify, notifyError } from './notify.js';
import { plural } from './format.js';

/**
 * @typedef {{ line: number, field: string, message: string }} ImportError
 * @typedef {{ created: number, updated: number, unchanged: number, errors: ImportError[] }} Summary
 */

/** Downloads pets.csv. */
export async function exportPets() {
  try {
    const blob = await api.download('/store/export/pets.csv');
    const url = URL.createObjectURL(blob);
    const a = /** @type {HTMLAnchorElement} */ (h('a', { href: url, download: 'pets.csv', hidden: true }));
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
    return /** @type {Summary} */ (await api.postText('/store/import/pets', text, 'text/csv', dryRun ? { dryRun: 'true' } : undefined));
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
        h('tbody', {}, s.errors.slice(0, 200).map((e) => h('tr', { class: 'import-error' }, h('td', { class: 'num' }, String(e.line)), h('td', {}, e.field || '—'), h('td', {}, e.message)))))));
  }
  return h('div', { class: 'import-result', id: 'import-result' },
    h('p', {}, `Ready: ${plural(s.created, 'new pet')}, ${plural(s.updated, 'pet')} changed, ${s.unchanged} unchanged.`));
}

/** Opens the import dialog: choose a file, see the dry run, then apply. */
export function openImport() {
  const fileInput = /** @type {HTMLInputElement} */ (h('input', { id: uid('csv'), type: 'file', accept: '.csv,text/csv' }));
  const result = h('div', { 'aria-live': 'polite' });
  let text = '';
  let ready = false;
  fileInput.addEventListener('change', async () => {
    ready = false;
    const file = fileInput.files?.[0];
    if (!file) return replace(result);
    replace(result, h('p', { class: 'muted' }, `Checking ${file.name}…`));
    try {
      text = await file.text();
      const s = await send(text, true);
      ready = s.errors.length === 0;
      replace(result, summaryView(s));
    } catch (err) {
      replace(result);
      notifyError(err);
    }
  });
  openDialog({
    title: 'Import pets from CSV',
    size: 'wide',
    body: [
      h('p', { class: 'muted' }, 'Columns: id, sku, barcode, name, category, status, price, quantity, reorderPoint (only name and category are needed). Rows are matched by id, then SKU, then barcode; others become new pets. Nothing changes until you apply, and a file with any problem changes nothing.'),
      field('CSV file', fileInput),
      result,
    ],
    submitLabel: 'Apply import',
    onSubmit: async () => {
      if (!ready) throw new Error('Choose a file without problems first.');
      const s = await send(text, false);
      if (s.errors.length) {
        replace(result, summaryView(s));
        throw new Error('The file has problems; nothing was imported.');
      }
      notify(`Imported: ${plural(s.created, 'new pet')}, ${plural(s.updated, 'pet')} changed, ${s.unchanged} unchanged.`, 'ok');
    },
  });
}
