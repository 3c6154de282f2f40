//! Staff members signing in by name and PIN (`POST /session`) and out (`DELETE /session`),
//! and the names this device remembers. A member's session key is kept like a typed key
//! (sessionStorage: gone when the tab closes); the names of members who signed in here are
//! kept in localStorage so the next sign-in is a tap on the name, never a PIN.
//!
//! A device also lists the names a manager showed it: when a manager is signed in on a
//! browser, the enabled members' names are kept in that browser's localStorage (unless the
//! manager turned that off for this device on the Staff page), so the first sign-in of a new
//! colleague on a tablet the manager has set up is a tap on their name and their PIN. The
//! names never come from a keyless request: a stranger on the shop's network learns none of
//! them, and `POST /session` answers a wrong name exactly like a wrong PIN.

import { request } from './api.js';

const MEMBER_KEY = 'petstore.member';
const NAMES_KEY = 'petstore.names';
const DEVICE_NAMES_KEY = 'petstore.deviceNames';
const DEVICE_NAMES_OFF = 'petstore.deviceNames.off';
/** How many names a manager's list may put on a device's sign-in screen. */
const DEVICE_NAMES_MAX = 60;
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

/** @param {string} key @returns {string[]} */
function storedNames(key) {
  try {
    const list = JSON.parse(localStorage.getItem(key) ?? '[]');
    return Array.isArray(list) ? list.filter((n) => typeof n === 'string') : [];
  } catch {
    return [];
  }
}

/** Whether this device lists its staff's names on the sign-in screen (a manager's choice). */
export function deviceListsNames() {
  return localStorage.getItem(DEVICE_NAMES_OFF) === null;
}

/**
 * The enabled members' names, as a manager's session last saw them on this device.
 * @returns {string[]}
 */
export function deviceNames() {
  return deviceListsNames() ? storedNames(DEVICE_NAMES_KEY).slice(0, DEVICE_NAMES_MAX) : [];
}

/**
 * Keep the enabled members' names for this device's sign-in screen (a manager is signed in).
 * @param {StaffMember[]} members
 */
export function keepDeviceNames(members) {
  if (!deviceListsNames()) return;
  const names = members.filter((m) => !m.disabledAt).map((m) => m.name)
    .sort((a, b) => a.localeCompare(b, undefined, { sensitivity: 'base' }))
    .slice(0, DEVICE_NAMES_MAX);
  localStorage.setItem(DEVICE_NAMES_KEY, JSON.stringify(names));
  // A name that signed in here but can no longer (disabled, renamed) leaves the list too.
  const enabled = new Set(names.map((n) => n.toLocaleLowerCase()));
  localStorage.setItem(NAMES_KEY, JSON.stringify(rememberedNames().filter((n) => enabled.has(n.toLocaleLowerCase()))));
}

/**
 * Turn the list of names on this device's sign-in screen on or off.
 * @param {boolean} on
 * @param {StaffMember[]} [members]  the members to list, when turning it on
 */
export function setDeviceListsNames(on, members = []) {
  if (on) {
    localStorage.removeItem(DEVICE_NAMES_OFF);
    keepDeviceNames(members);
  } else {
    localStorage.setItem(DEVICE_NAMES_OFF, '1');
    localStorage.removeItem(DEVICE_NAMES_KEY);
  }
}

/**
 * The names the sign-in screen offers to tap: those who signed in here, most recent first,
 * then the rest of the staff a manager's session listed on this device, by name.
 * @returns {string[]}
 */
export function namesToOffer() {
  const seen = new Set();
  /** @type {string[]} */
  const out = [];
  for (const n of [...rememberedNames(), ...deviceNames()]) {
    const folded = n.toLocaleLowerCase();
    if (seen.has(folded)) continue;
    seen.add(folded);
    out.push(n);
  }
  return out;
}
