//! Who is signed in. The desktop window injects `window.__PETSTORE_SESSION__` before the page
//! loads and is never shown the sign-in page; in a browser the typed key lives in
//! sessionStorage only (gone when the tab closes), never in localStorage or a URL.

import { request, ApiError } from './api.js';

const STORAGE_KEY = 'petstore.key';

/**
 * @typedef {object} Session
 * @property {string} key
 * @property {boolean} desktop  signed in by the desktop window: no sign-in page, no sign-out
 */

/** @returns {Session | null} */
export function loadSession() {
  const injected = /** @type {any} */ (window).__PETSTORE_SESSION__;
  if (injected && typeof injected.key === 'string' && injected.key !== '') {
    return { key: injected.key, desktop: Boolean(injected.desktop) };
  }
  const key = sessionStorage.getItem(STORAGE_KEY);
  return key ? { key, desktop: false } : null;
}

/** @param {string} key */
export function rememberKey(key) {
  sessionStorage.setItem(STORAGE_KEY, key);
}

export function forgetKey() {
  sessionStorage.removeItem(STORAGE_KEY);
}

/**
 * Check a key: GET /categories?limit=1 must answer 200.
 * @param {string} key
 * @returns {Promise<void>} rejects with ApiError ("That key is not valid" on 401)
 */
export async function checkKey(key) {
  try {
    await request('GET', '/categories', { query: { limit: 1 }, key });
  } catch (e) {
    if (e instanceof ApiError && e.status === 401) {
      throw new ApiError(401, e.code, 'That key is not valid. Check it and try again.');
    }
    throw e;
  }
}

/**
 * Whether the key may manage keys: GET /admin/keys answers 200 for admins, 403 otherwise.
 * @param {string} key
 */
export async function isAdmin(key) {
  try {
    await request('GET', '/admin/keys', { key });
    return true;
  } catch (e) {
    if (e instanceof ApiError && (e.status === 403 || e.status === 401)) return false;
    throw e;
  }
}
