//! The animals report on the Reports page (interface 1.2, staff and up): each individual
//! animal sold in the chosen days, with its record, the sale and the buyer, as the licensing
//! rules ask a shop to show; and the same rows as a CSV download.

import * as api from './api.js';
import { h, saveBlob } from './dom.js';
import { notifyError } from './notify.js';
import { table } from './widgets.js';
import { localTime } from './format.js';

/**
 * @typedef {object} SoldAnimal
 * @property {number} petId
 * @property {string} name
 * @property {import('./types.js').Animal} animal
 * @property {string} soldAt
 * @property {number} saleId
 * @property {number} number
 * @property {{ name?: string, phone?: string, email?: string }} buyer
 */

const SEX = /** @type {Record<string, string>} */ ({ male: 'Male', female: 'Female', unknown: 'Sex not known' });

/**
 * Download the animals report for these days as CSV.
 * @param {string} from @param {string} to
 */
export async function downloadAnimalsCsv(from, to) {
  try {
    const blob = await api.download('/store/reports/animals', { from, to });
    saveBlob(blob, `animals-${from}-${to}.csv`);
  } catch (err) {
    notifyError(err);
  }
}

/**
 * The report's section for these days: a heading with the CSV button, and a table.
 * @param {string} from @param {string} to
 */
export async function animalsSection(from, to) {
  const sold = /** @type {SoldAnimal[]} */ (await api.get('/store/reports/animals', { from, to }));
  const rows = sold.map((s) => h('tr', { 'data-pet-id': String(s.petId) },
    h('th', { scope: 'row' }, s.name),
    h('td', {}, [SEX[s.animal.sex] ?? s.animal.sex, s.animal.breed, s.animal.colour, s.animal.bornOn ? `born ${s.animal.bornOn}` : null].filter(Boolean).join(' · ')),
    h('td', {}, s.animal.microchip ?? '—'),
    h('td', {}, s.animal.source ?? '—'),
    h('td', {}, localTime(s.soldAt)),
    h('td', { class: 'num' }, `#${s.number}`),
    h('td', {}, [s.buyer.name, s.buyer.phone, s.buyer.email].filter(Boolean).join(' · ') || '—'),
  ));
  return h('section', { class: 'report-animals', 'aria-labelledby': 'rep-animals-title' },
    h('div', { class: 'section-head' },
      h('h2', { id: 'rep-animals-title' }, 'Animals sold'),
      h('button', { type: 'button', class: 'btn', id: 'rep-animals-csv', onclick: () => void downloadAnimalsCsv(from, to) }, 'Download animals CSV')),
    table('Animals sold', ['Animal', 'Record', 'Microchip', 'Came from', 'Sold', { label: 'Sale', class: 'num' }, 'Buyer'], rows, 'No animal was sold in these days.'));
}
