//! Staff members signing in by name and PIN (`POST /session`) and out (`DELETE /session`),
//! and the names this device remembers. A member's session key is kept like a typed key
//! (sessionStorage: gone when the tab closes); the names of members who signed in here are
//! kept in localStorage so the next sign-in is a tap on the name, never a PIN.

import { request } from './api.js';

const MEMBER_KEY = 'petstore.member';
const NAMES_KEY = 'petstore.names';
/** How many names a device remembers (the most recent first). */
const NAMES_MAX = 12;

/**
 * @typedef {object} StaffMember
 * @property {number} id
 * @property {string} name
 * @property {'readonly' | 'staff' | 'admin'} role
 * @property {string} createdAt
 * @property {string | null} disabledAt
 */

/**
 * @typedef {object} StaffSession
 * @property {string} secret
 * @property {string} expiresAt
 * @property {StaffMember} staff
 */

/**
 * Sign a member in. Rejects with ApiError: 401 for a wrong name or PIN, 429 while the name
 * is locked after too many wrong PINs.
 * @param {string} name
 * @param {string} pin
 * @returns {Promise<StaffSession>}
 */
export async function signIn(name, pin) {
  const { data } = await request('POST', '/session', { body: { name, pin }, quiet401: true });
  const session = /** @type {StaffSession} */ (data);
  sessionStorage.setItem(MEMBER_KEY, JSON.stringify({ key: session.secret, staff: session.staff }));
  rememberName(session.staff.name);
  return session;
}

/**
 * The member signed in on this tab, with their session key, if there is one.
 * @returns {{ key: string, staff: StaffMember } | null}
 */
export function signedInMember() {
  try {
    const saved = JSON.parse(sessionStorage.getItem(MEMBER_KEY) ?? 'null');
    return saved && typeof saved.key === 'string' && saved.staff ? saved : null;
  } catch {
    return null;
  }
}

/** Forget the member of this tab (their session ended on the server). */
export function forgetMember() {
  sessionStorage.removeItem(MEMBER_KEY);
}

/**
 * End the member's session on the server (best effort: the key is forgotten here either way).
 * @param {string} key
 */
export async function signOut(key) {
  sessionStorage.removeItem(MEMBER_KEY);
  try {
    await request('DELETE', '/session', { key, quiet401: true });
  } catch {
    // Already ended (disabled, idle, or the server is unreachable): nothing more to do here.
  }
}

/** Names of members who signed in on this device, most recent first. @returns {string[]} */
export function rememberedNames() {
  try {
    const list = JSON.parse(localStorage.getItem(NAMES_KEY) ?? '[]');
    return Array.isArray(list) ? list.filter((n) => typeof n === 'string').slice(0, NAMES_MAX) : [];
  } catch {
    return [];
  }
}

/** @param {string} name */
function rememberName(name) {
  const folded = name.toLocaleLowerCase();
  const rest = rememberedNames().filter((n) => n.toLocaleLowerCase() !== folded);
  localStorage.setItem(NAMES_KEY, JSON.stringify([name, ...rest].slice(0, NAMES_MAX)));
}

/** Forget a remembered name ("Not you?"). @param {string} name */
export function forgetName(name) {
  const folded = name.toLocaleLowerCase();
  localStorage.setItem(NAMES_KEY, JSON.stringify(rememberedNames().filter((n) => n.toLocaleLowerCase() !== folded)));
}
