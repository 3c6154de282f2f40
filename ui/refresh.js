//! The page refresh contract, in one place.
//!
//! A page module exports `title`, `watches` (event type prefixes) and `mount(ctx)`, which
//! returns a view: its element and `load()`, which fetches and draws what the page shows.
//! Only the app calls `load()`, through a refresher: at most one load runs at a time, a request
//! during a run queues exactly one more, and a burst of events becomes one load. A page that
//! needs a reload (a filter changed, a form was saved) calls `ctx.refresh()`; it never calls
//! its own `load()`. A view may say which events concern it (`affects`) so a sale of a pet it
//! does not show costs no fetch at all. Pure: no DOM, so it is unit-tested in node.

import { ROLES } from './facts.js';

/**
 * @typedef {import('./types.js').Role} Role
 * @typedef {import('./types.js').StoreEvent} StoreEvent
 */

/**
 * What a page may do, by the least role the server asks for it.
 * @typedef {'read' | 'sell' | 'stock' | 'edit' | 'admin'} Action
 */

/**
 * @typedef {object} PageContext
 * @property {Role} role
 * @property {boolean} admin
 * @property {(action: Action) => boolean} can  whether the signed-in role may do it
 * @property {() => Promise<void>} refresh       load the page again soon (coalesced)
 * @property {(prefix: string) => boolean} isOwnKey  whether a key (by its prefix) is the one this screen uses
 */

/**
 * @typedef {object} PageView
 * @property {HTMLElement} el
 * @property {HTMLElement} [results]  where the list goes: skeleton while loading, error panel on failure
 * @property {() => Promise<void>} load  fetch and draw; called only by the app's refresher
 * @property {(ev: StoreEvent) => boolean} [affects]  whether this event changes what is shown
 * @property {() => void} [focus]  where the keyboard starts on this page
 */

/**
 * @typedef {object} PageModule
 * @property {string} title
 * @property {readonly string[]} watches  event type prefixes that may change this page
 * @property {number} [pollMs]
 * @property {(ctx: PageContext) => PageView} mount
 */

/** The least role for each action (readonly < pos < staff < admin). */
const LEAST = /** @type {Record<Action, Role>} */ ({ read: 'readonly', sell: 'pos', stock: 'staff', edit: 'staff', admin: 'admin' });
/** @param {Role} role */
const rank = (role) => ROLES.indexOf(role);

/**
 * @param {Role} role
 * @param {Action} action
 */
export function roleCan(role, action) {
  return rank(role) >= rank(LEAST[action]);
}

/**
 * Whether an event concerns a page that watches these prefixes.
 * @param {readonly string[]} watches
 * @param {StoreEvent} ev
 */
export function watched(watches, ev) {
  return watches.some((p) => ev.type.startsWith(p));
}

/**
 * @typedef {object} Refresher
 * @property {() => Promise<void>} now  load now (or once more after the running load)
 * @property {() => void} soon  load once a burst of events has settled
 * @property {() => void} stop
 * @property {() => number} loads  how many loads have started (for tests)
 */

/**
 * Coalesce loads. `soon()` waits `quietMs` after the last call (a burst of events is one
 * load), but never more than `maxWaitMs` after the first, so a steady stream of sales still
 * shows within a second.
 * @param {() => Promise<void>} load
 * @param {object} [o]
 * @param {number} [o.quietMs]
 * @param {number} [o.maxWaitMs]
 * @param {(err: unknown) => void} [o.onError]
 * @returns {Refresher}
 */
export function makeRefresher(load, { quietMs = 150, maxWaitMs = 800, onError = () => {} } = {}) {
  /** @type {Promise<void> | null} */
  let running = null;
  let again = false;
  let stopped = false;
  /** @type {ReturnType<typeof setTimeout> | null} */
  let timer = null;
  let firstAt = 0;
  let started = 0;

  const run = async () => {
    do {
      again = false;
      started += 1;
      try {
        await load();
      } catch (err) {
        if (!stopped) onError(err);
      }
    } while (again && !stopped);
  };
  const now = () => {
    if (timer) { clearTimeout(timer); timer = null; }
    if (stopped) return Promise.resolve();
    if (running) {
      again = true;
      return running;
    }
    running = run().finally(() => { running = null; });
    return running;
  };
  return {
    now,
    soon() {
      if (stopped) return;
      const t = Date.now();
      if (!timer) firstAt = t;
      else clearTimeout(timer);
      const wait = Math.max(0, Math.min(quietMs, firstAt + maxWaitMs - t));
      timer = setTimeout(() => { timer = null; now(); }, wait);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      timer = null;
    },
    loads: () => started,
  };
}
