//! Money and the store profile: prices are integers in the currency's minor unit (cents);
//! people see and type them in the store's currency, formatted by Intl.NumberFormat.

import * as api from './api.js';

/**
 * @typedef {object} StoreProfile
 * @property {string} name
 * @property {string} currency  ISO 4217
 * @property {string} timezone  IANA
 */

/** @type {StoreProfile} */
let profile = { name: 'Pet Store', currency: 'USD', timezone: 'UTC' };
/** @type {Promise<StoreProfile> | null} */
let loading = null;

/** The store profile (read once, then kept; a profile change reloads it). */
export function loadProfile() {
  if (!loading) {
    loading = api.get('/store/profile').then((p) => {
      if (p && typeof p.currency === 'string') profile = /** @type {StoreProfile} */ (p);
      return profile;
    }).catch(() => profile);
  }
  return loading;
}

/** Forget the kept profile (after a `store.profile.updated` event). */
export function invalidateProfile() {
  loading = null;
}

/** The profile as last read (defaults until it is). */
export function currentProfile() {
  return profile;
}

/** @param {string} currency */
function formatter(currency) {
  try {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency });
  } catch {
    return new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });
  }
}

/** Digits after the decimal point of the store's currency (2 for USD, 0 for JPY). */
export function minorDigits(currency = profile.currency) {
  return formatter(currency).resolvedOptions().maximumFractionDigits ?? 2;
}

/**
 * A price in minor units as people read it: "$4.50", "4,50 €", "¥450"; "—" for none.
 * @param {number | null | undefined} minor
 * @param {string} [currency]
 */
export function formatPrice(minor, currency = profile.currency) {
  if (typeof minor !== 'number') return '—';
  return formatter(currency).format(minor / 10 ** minorDigits(currency));
}

/**
 * What a person typed ("4.50", "4,50", "450") as minor units; null for empty; NaN when it is
 * not a price.
 * @param {string} text
 * @param {string} [currency]
 */
export function parsePrice(text, currency = profile.currency) {
  const t = text.trim().replace(/[\s\u00a0]/g, '').replace(/[^\d.,-]/g, '');
  if (t === '') return null;
  const digits = minorDigits(currency);
  const m = /^(\d+)(?:[.,](\d+))?$/.exec(t);
  if (!m || (m[2] && m[2].length > digits)) return NaN;
  const frac = (m[2] ?? '').padEnd(digits, '0');
  return Number(m[1]) * 10 ** digits + (digits ? Number(frac) : 0);
}

/**
 * A price in minor units as a plain number for an input ("4.50").
 * @param {number | null | undefined} minor
 */
export function priceInput(minor) {
  if (typeof minor !== 'number') return '';
  const digits = minorDigits();
  return (minor / 10 ** digits).toFixed(digits);
}
