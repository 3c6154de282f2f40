//! The one module that talks to the server. It adds the key, encodes bodies, decodes the
//! Error shape {code, message, status} into ApiError, and handles 429: it waits Retry-After,
//! then backs off exponentially with jitter, for a few tries, before giving up. A request with
//! an Idempotency-Key is also retried, with the same key, after a network error, 408 or 5xx.

import { parseRetryAfter, retryDelay, sleep } from './backoff.js';

/** How many times a 429 is retried before the error is shown. */
const MAX_RETRIES = 4;
/** How many times an idempotent request is retried after a network error, 408 or 5xx. */
const MAX_SAFE_RETRIES = 2;
/** A wait longer than this (a ban, a spent day) is not sat out: the error is shown instead. */
const MAX_WAIT_MS = 65_000;

/** An error answered by the server (or a network failure, status 0). */
export class ApiError extends Error {
  /**
   * @param {number} status
   * @param {string} code
   * @param {string} message  plain words, shown to the user as is
   * @param {number | null} [retryAfterMs]
   */
  constructor(status, code, message, retryAfterMs = null) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.retryAfterMs = retryAfterMs;
  }
}

/** @type {string | null} */
let apiKey = null;
/** @type {(err: ApiError) => void} */
let onUnauthorized = () => {};
/** @type {(waitMs: number | null) => void} */
let onWaiting = () => {};
/** Requests now sitting out a 429. */
let waiters = 0;

/** @type {() => void} */
let onChanged = () => {};

/**
 * Whether the rate limits let this device through: `throttled` while a 429 is waited out or
 * was the last answer, `blocked` while the key (or address) is banned, until `untilMs`.
 * @typedef {{ state: 'ok' | 'throttled' | 'blocked', untilMs?: number }} LimitState
 */
/** @type {LimitState} */
let limitState = { state: 'ok' };
/** @type {(s: LimitState) => void} */
let onLimit = () => {};

/** Called whenever the limit state changes (the Live light shows it). */
export function setLimitHandler(/** @type {(s: LimitState) => void} */ fn) {
  onLimit = fn;
}

/** @param {LimitState} next */
function setLimit(next) {
  if (next.state === limitState.state && next.untilMs === limitState.untilMs) return;
  limitState = next;
  onLimit(next);
}

/** Called after every successful change (not GET): the open page refreshes even without events. */
export function setChangeHandler(/** @type {() => void} */ fn) {
  onChanged = fn;
}

/** @param {string | null} key */
export function setKey(key) {
  apiKey = key;
}

/** The key requests are made with now (null when nobody is signed in). */
export function currentKey() {
  return apiKey;
}

/** Called when a request with the current key answers 401 (the key was revoked). */
export function setUnauthorizedHandler(/** @type {(err: ApiError) => void} */ fn) {
  onUnauthorized = fn;
}

/** Called with the wait in ms while a 429 is being waited out, and with null when it is over. */
export function setWaitingHandler(/** @type {(waitMs: number | null) => void} */ fn) {
  onWaiting = fn;
}

/**
 * @typedef {object} RequestOptions
 * @property {Record<string, string | number | boolean | null | undefined>} [query]
 * @property {unknown} [body]
 * @property {Record<string, string>} [headers]
 * @property {string} [key]  use this key instead of the signed-in one (sign-in checks)
 * @property {boolean} [quiet401]  do not report a 401 as a lost session
 * @property {boolean} [keepalive]  finish sending even if the page is closed meanwhile
 */

/**
 * @typedef {object} ApiResponse
 * @property {any} data  the decoded JSON body, or null for 204
 * @property {number} status
 * @property {Headers} headers
 */

/**
 * Make one API call. Resolves with the decoded body; rejects with ApiError.
 * @param {string} method
 * @param {string} path
 * @param {RequestOptions} [opts]
 * @returns {Promise<ApiResponse>}
 */
export async function request(method, path, opts = {}) {
  const url = path + queryString(opts.query);
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json', ...opts.headers };
  const key = opts.key ?? apiKey;
  if (key) headers['X-API-Key'] = key;
  /** @type {RequestInit} */
  const init = { method, headers, cache: 'no-store', keepalive: opts.keepalive ?? false };
  if (opts.body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(opts.body);
  }

  // A request carrying an Idempotency-Key is retried as it is, same key and all, after a
  // network error, a timeout or a 5xx: the server does it at most once, so the retry can
  // only get the first answer back, never make a second sale.
  const idempotent = Object.keys(headers).some((h) => h.toLowerCase() === 'idempotency-key');
  for (let attempt = 0; ; attempt += 1) {
    /** @type {Response} */
    let res;
    try {
      res = await fetch(url, init);
    } catch {
      if (idempotent && attempt < MAX_SAFE_RETRIES) {
        await sleep(retryDelay(attempt, null));
        continue;
      }
      throw new ApiError(0, 'network', 'The server cannot be reached. Check that it is running and that this device is on the shop network.');
    }
    if (idempotent && (res.status === 408 || res.status >= 500) && attempt < MAX_SAFE_RETRIES) {
      const wait = retryDelay(attempt, parseRetryAfter(res.headers.get('Retry-After')));
      if (wait <= MAX_WAIT_MS) {
        await sleep(wait);
        continue;
      }
    }
    if (res.ok) {
      if (limitState.state !== 'ok' && !opts.key) setLimit({ state: 'ok' });
      if (method !== 'GET') onChanged();
      const data = res.status === 204 ? null : await res.json().catch(() => null);
      return { data, status: res.status, headers: res.headers };
    }
    const err = await decodeError(res);
    if (res.status === 429 && !opts.key) {
      setLimit(err.code === 'temporarily_banned'
        ? { state: 'blocked', untilMs: Date.now() + (err.retryAfterMs ?? 0) }
        : { state: 'throttled' });
    }
    if (res.status === 429 && attempt < MAX_RETRIES) {
      const wait = retryDelay(attempt, err.retryAfterMs);
      if (wait <= MAX_WAIT_MS) {
        waiters += 1;
        onWaiting(wait);
        await sleep(wait);
        waiters -= 1;
        if (waiters === 0) onWaiting(null);
        continue;
      }
    }
    if (res.status === 401 && !opts.quiet401 && !opts.key) onUnauthorized(err);
    throw err;
  }
}

/**
 * Decode the Error shape; fall back to plain words when the body is not one.
 * @param {Response} res
 * @returns {Promise<ApiError>}
 */
async function decodeError(res) {
  const retryAfterMs = parseRetryAfter(res.headers.get('Retry-After'));
  /** @type {any} */
  let body = null;
  try {
    body = await res.json();
  } catch {
    body = null;
  }
  const code = typeof body?.code === 'string' ? body.code : 'http_' + res.status;
  const message =
    typeof body?.message === 'string' && body.message.trim() !== ''
      ? body.message
      : fallbackMessage(res.status);
  return new ApiError(res.status, code, message, retryAfterMs);
}

/** @param {number} status */
function fallbackMessage(status) {
  if (status === 401) return 'That key is not valid.';
  if (status === 403) return 'This key is not allowed to do that.';
  if (status === 404) return 'That record no longer exists.';
  if (status === 429) return 'The server is busy with this key. Try again in a moment.';
  if (status >= 500) return 'The server had a problem. Try again; if it keeps happening, restart it.';
  return `The server refused the request (HTTP ${status}).`;
}

/** @param {RequestOptions['query']} query */
function queryString(query) {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === null || v === undefined || v === '') continue;
    params.set(k, String(v));
  }
  const s = params.toString();
  return s ? '?' + s : '';
}

/**
 * GET a list: the array and X-Total-Count.
 * @param {string} path
 * @param {RequestOptions['query']} [query]
 * @returns {Promise<{ items: any[], total: number }>}
 */
export async function list(path, query) {
  const res = await request('GET', path, { query });
  const items = Array.isArray(res.data) ? res.data : [];
  const total = Number(res.headers.get('X-Total-Count') ?? items.length);
  return { items, total: Number.isFinite(total) ? total : items.length };
}

/** @param {string} path @param {RequestOptions['query']} [query] */
export const get = async (path, query) => (await request('GET', path, { query })).data;
/** @param {string} path @param {unknown} body @param {Record<string,string>} [headers] */
export const post = async (path, body, headers) => (await request('POST', path, { body, headers })).data;
/** @param {string} path @param {unknown} body */
export const put = async (path, body) => (await request('PUT', path, { body })).data;
/** @param {string} path @param {unknown} body */
export const patch = async (path, body) => (await request('PATCH', path, { body })).data;
/** @param {string} path */
export const del = async (path) => (await request('DELETE', path)).data;

/**
 * A fresh Idempotency-Key. crypto.randomUUID needs a secure context, which a LAN address over
 * plain http is not, so build one from getRandomValues.
 */
export function idempotencyKey() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Fetch every item of a list, page by page (limit 500), up to `max` items.
 * @param {string} path
 * @param {RequestOptions['query']} [query]
 * @param {number} [max]
 */
export async function listAll(path, query = {}, max = 5000) {
  /** @type {any[]} */
  const all = [];
  for (let offset = 0; offset < max; offset += 500) {
    const { items, total } = await list(path, { ...query, limit: 500, offset });
    all.push(...items);
    if (items.length < 500 || all.length >= total) break;
  }
  return all;
}

/**
 * A file from the server (a CSV export): the body as a Blob, with the key and the error
 * handling of every other call.
 * @param {string} path
 * @param {RequestOptions['query']} [query]
 * @param {string} [accept]
 * @returns {Promise<Blob>}
 */
export async function download(path, query, accept = 'text/csv') {
  /** @type {Record<string, string>} */
  const headers = { Accept: accept };
  if (apiKey) headers['X-API-Key'] = apiKey;
  let res;
  try {
    res = await fetch(path + queryString(query), { headers, cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check that it is running and that this device is on the shop network.');
  }
  if (!res.ok) throw await decodeError(res);
  return res.blob();
}

/**
 * Send a text body (a CSV file) and decode the JSON answer. An error answer keeps its whole
 * body (`details`), so a refused import can show its errors line by line.
 * @param {string} path
 * @param {string} text
 * @param {string} contentType
 * @param {RequestOptions['query']} [query]
 */
export async function postText(path, text, contentType, query) {
  /** @type {Record<string, string>} */
  const headers = { Accept: 'application/json', 'Content-Type': contentType };
  if (apiKey) headers['X-API-Key'] = apiKey;
  let res;
  try {
    res = await fetch(path + queryString(query), { method: 'POST', headers, body: text, cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network', 'The server cannot be reached. Check that it is running and that this device is on the shop network.');
  }
  const body = await res.json().catch(() => null);
  if (!res.ok) {
    const err = new ApiError(res.status, typeof body?.code === 'string' ? body.code : 'http_' + res.status,
      typeof body?.message === 'string' ? body.message : fallbackMessage(res.status), parseRetryAfter(res.headers.get('Retry-After')));
    /** @type {any} */ (err).details = body;
    throw err;
  }
  onChanged();
  return body;
}
