//! The till's copy of what it sells: each pet's name, codes, price, tax rate, whether it is an
//! individual animal or on hold, and the store's tax rule and currency. Read from the store
//! when it answers (and again after a change arrives on the event stream), kept on the device,
//! and used from there when the store cannot be reached.

import * as api from '../api.js';
import { kvGet, kvSet } from './device.js';

/**
 * @typedef {import('./basket.js').TillItem} TillItem
 * @typedef {object} TillProfile
 * @property {string} name
 * @property {string} currency
 * @property {boolean} taxIncluded
 * @property {number} defaultTaxRate
 * @typedef {object} Catalogue
 * @property {TillItem[]} items
 * @property {TillProfile} profile
 * @property {string} at  when it was read from the store
 */

/** @param {any} p @returns {TillItem} */
function toItem(p) {
  return {
    id: p.id, name: p.name, sku: p.sku, barcode: p.barcode, price: p.price, taxRate: p.taxRate,
    status: p.status, animal: p.animal ? true : undefined, holdUntil: p.hold?.until,
  };
}

/** The copy kept on this device, or null before the first read. @returns {Promise<Catalogue | null>} */
export async function kept() {
  try {
    return /** @type {Catalogue | undefined} */ (await kvGet('catalogue')) ?? null;
  } catch {
    return null;
  }
}

/** Read the catalogue from the store and keep it. @returns {Promise<Catalogue>} */
export async function refresh() {
  const [pets, p] = await Promise.all([api.listAll('/pets', {}, 20000), api.get('/store/profile')]);
  /** @type {Catalogue} */
  const cat = {
    items: pets.map(toItem),
    profile: {
      name: String(p?.name ?? 'Pet Store'),
      currency: String(p?.currency ?? 'USD'),
      taxIncluded: p?.taxIncluded !== false,
      defaultTaxRate: Number(p?.defaultTaxRate ?? 0),
    },
    at: new Date().toISOString(),
  };
  await kvSet('catalogue', cat).catch(() => {});
  return cat;
}
