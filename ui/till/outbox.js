//! Sending the till's sales to the store, each exactly once, in the order they were rung up.
//!
//! A sale is written to the device first (IndexedDB, with its Idempotency-Key and `soldAt`),
//! then sent. Only the store's answer removes it: a 201 (first or replayed) sends it on its
//! way; a lost connection, a timeout or a 5xx leaves it waiting, and it is sent again later
//! with the same key and the same body, so a sale whose answer was lost is answered from the
//! store's memory, never made twice. A refusal for any other reason (a 4xx) is kept, marked
//! refused with the store's words, for the clerk to see: never dropped. One flush runs at a
//! time, so the same sale is never in flight twice from this page.
//!
//! The store remembers an Idempotency-Key per API key, so a sale is only ever sent under the
//! key it was rung up under (kept with it until the store answers): after a sign-out it goes
//! on being sent by itself, and whoever signs in next never sends it under their own key,
//! which could make it twice. If the store no longer takes that key (revoked, or a staff
//! member's sign-in ended), the sale is held on the device and shown, never sent under another.

import * as api from '../api.js';
import { outboxAdd, outboxAll, outboxDelete, outboxPut } from './device.js';

/** @typedef {import('./device.js').OutboxEntry} OutboxEntry */

/** Whether an error means "the store did not answer" (try again later), not "the store said no". @param {unknown} err */
export function isUnreachable(err) {
  return err instanceof api.ApiError && (err.status === 0 || err.status === 408 || err.status === 429 || err.status >= 500);
}

/** @type {Set<(entries: OutboxEntry[]) => void>} */
const listeners = new Set();
/** @type {Promise<'sent' | 'unreachable'> | null} */
let flushing = null;
/** Answers of sales sent by a flush, by Idempotency-Key, for the page that rang them up. */
const answered = new Map();
let timer = 0;

/** Be told the outbox's entries whenever they change. @param {(entries: OutboxEntry[]) => void} fn */
export function watchOutbox(fn) {
  listeners.add(fn);
  void outboxAll().then(fn, () => {});
  return () => { listeners.delete(fn); };
}

async function tell() {
  const all = await outboxAll();
  for (const fn of listeners) fn(all);
  return all;
}

/**
 * Keep a sale on the device, then try to send everything waiting, this sale last.
 * @param {any} body  the sale, `soldAt` included
 * @returns {Promise<{ sale: any } | { waiting: true }>}  the store's sale, or waiting to send
 * @throws {api.ApiError} the store refused this sale (it is not kept: the basket is still there to fix)
 */
export async function sell(body) {
  const key = api.idempotencyKey();
  const seq = await outboxAdd({ key, body, state: 'waiting', auth: api.currentKey() ?? undefined });
  await tell();
  // A flush already under way may have read the outbox before this sale was in it: then one
  // more, unless that one found the store unreachable.
  if ((await flush()) === 'sent' && !answered.has(key)) await flush();
  if (answered.has(key)) {
    const sale = answered.get(key);
    answered.delete(key);
    return { sale };
  }
  const entry = (await outboxAll()).find((e) => e.seq === seq);
  if (entry?.state === 'refused') {
    // Refused at once, with the clerk and the customer still there: the basket is fixed and
    // sold again, so this one is not kept.
    await outboxDelete(seq);
    await tell();
    const err = /** @type {any} */ (entry).refusal;
    throw new api.ApiError(err?.status ?? 409, err?.code ?? 'refused', entry.error ?? 'The store refused the sale.');
  }
  return { waiting: true };
}

/**
 * Send the waiting sales, oldest first; stop at the first the store does not answer.
 * @returns {Promise<'sent' | 'unreachable'>}
 */
export function flush() {
  if (!flushing) {
    flushing = (async () => {
      /** @type {'sent' | 'unreachable'} */
      let outcome = 'sent';
      try {
        for (const entry of await outboxAll()) {
          if (entry.state !== 'waiting' || entry.seq === undefined) continue;
          // Its own key; the signed-in one only for a sale kept before keys were kept with sales.
          const auth = entry.auth ?? api.currentKey();
          if (!auth) continue;
          try {
            // The signed-in key goes as usual, so a revoked one still signs this screen out.
            const res = await api.request('POST', '/store/sales', { body: entry.body, headers: { 'Idempotency-Key': entry.key }, key: auth === api.currentKey() ? undefined : auth });
            answered.set(entry.key, res.data);
            await outboxDelete(entry.seq);
          } catch (err) {
            if (isUnreachable(err) || !(err instanceof api.ApiError)) {
              outcome = 'unreachable';
              break;
            }
            if (err.status === 401 || err.status === 403) {
              // Not a refusal of the sale: the store may even have made it under that key.
              await outboxPut({ ...entry, auth: undefined, state: 'held', error: err.message });
              continue;
            }
            await outboxPut({ ...entry, auth: undefined, state: 'refused', error: err.message, ...{ refusal: { status: err.status, code: err.code } } });
          } finally {
            await tell();
          }
        }
      } finally {
        flushing = null;
      }
      return outcome;
    })();
  }
  return flushing;
}

/** Remove a refused sale the clerk has dealt with. @param {number} seq */
export async function dismiss(seq) {
  await outboxDelete(seq);
  await tell();
}

/**
 * Keep trying while sales wait: every few seconds, when the browser says it is online again,
 * and when `nudge()` is called (the event stream reconnected). Answers a stop function.
 * @param {number} [everyMs]
 */
export function keepSending(everyMs = 3000) {
  const tick = async () => {
    const all = await outboxAll().catch(() => []);
    if (all.some((e) => e.state === 'waiting')) await flush().catch(() => {});
  };
  window.clearInterval(timer);
  timer = window.setInterval(() => { void tick(); }, everyMs);
  const online = () => { void tick(); };
  window.addEventListener('online', online);
  void tick();
  return () => { window.clearInterval(timer); window.removeEventListener('online', online); };
}
