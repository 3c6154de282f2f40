//! Who is signed in. The desktop window injects `window.__PETSTORE_SESSION__` before the page
//! loads and is never shown the sign-in page; in a browser the typed key lives in
//! sessionStorage only (gone when the tab closes), never in a URL. A till paired by a QR code
//! (`/pair`) keeps its own key in localStorage, so it stays signed in after a restart.

import { request, ApiError } from './api.js';

const STORAGE_KEY = 'petstore.key';
const DEVICE_KEY = 'petstore.device-key';
const DEVICE_NAME = 'petstore.device-name';

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
  const key = sessionStorage.getItem(STORAGE_KEY) ?? localStorage.getItem(DEVICE_KEY);
  return key ? { key, desktop: false } : null;
}

/** @param {string} key */
export function rememberKey(key) {
  sessionStorage.setItem(STORAGE_KEY, key);
}

/**
 * Keep a paired device's key (and the key's name, to say which it is) on this device.
 * @param {string} key
 * @param {string} [name]
 */
export function rememberDeviceKey(key, name) {
  localStorage.setItem(DEVICE_KEY, key);
  if (name) localStorage.setItem(DEVICE_NAME, name);
}

/**
 * The paired till's key name when `key` is this device's own paired key, else null (a typed
 * key, a member's session).
 * @param {string} key
 * @returns {string | null}
 */
export function pairedAs(key) {
  if (sessionStorage.getItem(STORAGE_KEY) === key || localStorage.getItem(DEVICE_KEY) !== key) return null;
  return localStorage.getItem(DEVICE_NAME) ?? 'this till';
}

export function forgetKey() {
  sessionStorage.removeItem(STORAGE_KEY);
  localStorage.removeItem(DEVICE_KEY);
  localStorage.removeItem(DEVICE_NAME);
}

/** Forget the key typed (or the member's session) on this tab, keeping a paired device's own key. */
export function forgetTypedKey() {
  sessionStorage.removeItem(STORAGE_KEY);
}

/** This device's own key when it is paired, else null. @returns {string | null} */
export function deviceKey() {
  return localStorage.getItem(DEVICE_KEY);
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
 * The role of a key, read from how the server answers three harmless probes: the role guard
 * runs before the body is read, so an empty body gets 403 from a role that may not, and a
 * validation error (nothing changed) from one that may. A session made by name and PIN says
 * its role itself and needs no probe.
 * @param {string} key
 * @returns {Promise<import('./types.js').Role>}
 */
export async function roleOf(key) {
  /** @param {string} method @param {string} path @param {unknown} [body] */
  const allowed = async (method, path, body) => {
    try {
      await request(method, path, { key, body });
      return true;
    } catch (e) {
      if (e instanceof ApiError && (e.status === 403 || e.status === 401)) return false;
      if (e instanceof ApiError && e.status >= 400 && e.status < 500 && e.status !== 429) return true;
      throw e;
    }
  };
  if (await allowed('GET', '/admin/keys')) return 'admin';
  if (await allowed('POST', '/pets', {})) return 'staff';
  if (await allowed('POST', '/store/orders', {})) return 'pos';
  return 'readonly';
}
