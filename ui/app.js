//! The staff UI's entry point: signs in (the desktop window's injected key, or the sign-in
//! page), draws the header, routes between pages, and keeps the open page fresh from the event
//! stream.

import * as api from './api.js';
import { h, replace } from './dom.js';
import { connectEvents } from './events.js';
import { notify, notifyError } from './notify.js';
import { startRouter } from './router.js';
import { loadSession, rememberKey, forgetKey, checkKey, isAdmin } from './session.js';
import { renderSignIn } from './pages/signin.js';
import { pawMark } from './widgets.js';
import * as pets from './pages/pets.js';
import * as categories from './pages/categories.js';
import * as inventory from './pages/inventory.js';
import * as orders from './pages/orders.js';
import * as keys from './pages/keys.js';
import * as network from './pages/network.js';

/**
 * @typedef {object} PageContext
 * @property {boolean} admin
 *
 * @typedef {object} PageView
 * @property {HTMLElement} el
 * @property {() => Promise<void>} refresh  re-fetch and redraw what the page shows
 * @property {() => void} [focus]           where the keyboard starts on this page
 *
 * @typedef {object} PageModule
 * @property {string} title
 * @property {string[]} watches   event type prefixes that change this page
 * @property {number} [pollMs]
 * @property {(ctx: PageContext) => PageView} mount
 */

/** @type {Record<string, PageModule>} */
const PAGES = { pets, categories, inventory, orders, keys, network };

const root = /** @type {HTMLElement} */ (document.getElementById('app'));

/** Everything that belongs to one signed-in session, torn down on sign-out. */
let session = /** @type {{ stop: () => void } | null} */ (null);

async function boot() {
  const s = loadSession();
  if (!s) return showSignIn();
  try {
    await checkKey(s.key);
  } catch (err) {
    if (s.desktop) return showFatal(err instanceof Error ? err.message : String(err));
    forgetKey();
    return showSignIn(err instanceof api.ApiError && err.status === 401 ? 'Your saved key is no longer valid. Sign in again.' : undefined);
  }
  await start(s.key, s.desktop);
}

/** @param {string} [notice] */
function showSignIn(notice) {
  document.title = 'Sign in — Petstore';
  renderSignIn(root, {
    notice,
    onKey: async (key) => {
      await checkKey(key);
      rememberKey(key);
      await start(key, false);
    },
  });
}

/** The desktop window could not sign itself in: say so, without a sign-in form. @param {string} message */
function showFatal(message) {
  root.replaceChildren(
    h('main', { class: 'signin', id: 'main' },
      h('div', { class: 'signin-card', role: 'alert' },
        h('h1', {}, 'Petstore cannot open the store'),
        h('p', {}, message),
        h('button', { type: 'button', class: 'btn btn-primary', onclick: () => location.reload() }, 'Try again'))),
  );
}

/**
 * @param {string} key
 * @param {boolean} desktop
 */
async function start(key, desktop) {
  api.setKey(key);
  let admin = false;
  try {
    admin = await isAdmin(key);
  } catch (err) {
    notifyError(err);
  }
  const names = Object.keys(PAGES).filter((n) => (n !== 'keys' || admin) && (n !== 'network' || (desktop && network.available())));

  const live = h('span', { class: 'live', role: 'status', 'data-state': 'connecting' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'live-text' }, 'Connecting…'));
  const waiting = h('div', { class: 'waiting', role: 'status', hidden: true });
  const nav = h('nav', { class: 'nav', 'aria-label': 'Pages' },
    names.map((n) => h('a', { href: `#/${n}`, 'data-page': n }, PAGES[n].title)));
  const signOut = desktop ? null : h('button', { type: 'button', class: 'btn btn-quiet', onclick: () => stopSession('signed-out') }, 'Sign out');
  const main = h('main', { id: 'main', tabindex: '-1' });
  root.replaceChildren(
    h('a', { class: 'skip', href: '#main', onclick: (/** @type {Event} */ e) => { e.preventDefault(); main.focus(); } }, 'Skip to the page'),
    h('header', { class: 'top' }, h('div', { class: 'brand' }, pawMark(26), 'Petstore'), nav, h('div', { class: 'top-right' }, live, signOut)),
    waiting,
    main,
  );

  /** @type {{ name: string, mod: PageModule, view: PageView, refresher: Refresher } | null} */
  let current = null;
  let pollTimer = 0;

  api.setWaitingHandler((ms) => {
    waiting.hidden = ms === null;
    if (ms !== null) waiting.textContent = `The server asked us to slow down. Trying again in ${Math.ceil(ms / 1000)} s…`;
  });
  api.setUnauthorizedHandler(() => stopSession('revoked'));
  api.setChangeHandler(() => current?.refresher.soon());

  /** @param {string} name */
  function show(name) {
    window.clearInterval(pollTimer);
    current?.refresher.stop();
    const mod = PAGES[name];
    const view = mod.mount({ admin });
    const refresher = makeRefresher(view);
    // The page's own calls (a filter changed) go through the refresher too: one at a time,
    // errors shown in words.
    view.refresh = refresher.now;
    current = { name, mod, view, refresher };
    replace(main, view.el);
    document.title = `${mod.title} — Petstore`;
    for (const a of nav.querySelectorAll('a')) {
      if (a.dataset.page === name) a.setAttribute('aria-current', 'page');
      else a.removeAttribute('aria-current');
    }
    document.body.dataset.page = name;
    refresher.now().then(() => {
      // Move the keyboard to the page, unless the user has already moved it somewhere.
      const at = document.activeElement;
      const untouched = !at || at === document.body || nav.contains(at);
      if (current?.view !== view || document.querySelector('dialog[open]') || !untouched) return;
      if (view.focus) view.focus();
      else /** @type {HTMLElement | null} */ (view.el.querySelector('h1'))?.focus();
    });
    if (mod.pollMs) pollTimer = window.setInterval(() => { if (!document.hidden) refresher.soon(); }, mod.pollMs);
  }

  const events = connectEvents({
    key,
    onStatus: (st) => {
      live.dataset.state = st;
      /** @type {HTMLElement} */ (live.querySelector('.live-text')).textContent =
        st === 'live' ? 'Live' : st === 'connecting' ? 'Connecting…' : st === 'reconnecting' ? 'Reconnecting…' : 'Offline';
      document.body.dataset.live = st;
    },
    onEvent: (ev) => {
      if (current && current.mod.watches.some((p) => ev.type.startsWith(p))) current.refresher.soon();
    },
    onReconnected: () => current?.refresher.soon(),
    onUnauthorized: () => stopSession('revoked'),
  });

  const stopRouter = startRouter(names, show);

  /** @param {KeyboardEvent} e */
  const onKey = (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    const typing = t.closest('input, textarea, select, [contenteditable]');
    if (e.key === '/' && !typing && !document.querySelector('dialog[open]')) {
      const search = /** @type {HTMLInputElement | null} */ (main.querySelector('[data-search]'));
      if (search) {
        e.preventDefault();
        search.focus();
        search.select();
      }
    }
  };
  document.addEventListener('keydown', onKey);

  /** @param {'signed-out' | 'revoked'} why */
  function stopSession(why) {
    if (!session) return;
    session = null;
    events.close();
    current?.refresher.stop();
    stopRouter();
    window.clearInterval(pollTimer);
    document.removeEventListener('keydown', onKey);
    api.setKey(null);
    for (const d of document.querySelectorAll('dialog')) d.remove();
    if (desktop) return showFatal('The key of this window is no longer valid. Restart Petstore.');
    forgetKey();
    history.replaceState(null, '', location.pathname);
    showSignIn(why === 'revoked' ? 'Your key was revoked or is no longer valid. Sign in with another key.' : undefined);
    if (why === 'signed-out') notify('Signed out.', 'ok');
  }
  session = { stop: () => stopSession('signed-out') };
}

/**
 * @typedef {{ now: () => Promise<void>, soon: () => void, stop: () => void }} Refresher
 */

/**
 * Coalesce refreshes: at most one runs at a time, a request during a run queues exactly one
 * more, and `soon()` batches a burst of events into one fetch (well within a second). Keyboard
 * focus stays on the same control across a redraw.
 * @param {PageView} view
 * @returns {Refresher}
 */
function makeRefresher(view) {
  const load = view.refresh.bind(view);
  let running = /** @type {Promise<void> | null} */ (null);
  let again = false;
  let timer = 0;
  let failedOnce = false;
  let stopped = false;
  const run = async () => {
    do {
      again = false;
      const active = /** @type {HTMLElement | null} */ (document.activeElement);
      const focusKey = active && view.el.contains(active) ? active.dataset.focusKey : undefined;
      view.el.setAttribute('aria-busy', 'true');
      try {
        await load();
        failedOnce = false;
      } catch (err) {
        // One message per run of failures, not one per event; a lost session says so itself.
        if (!failedOnce && !stopped && !(err instanceof api.ApiError && err.status === 401)) notifyError(err);
        failedOnce = true;
      } finally {
        view.el.setAttribute('aria-busy', 'false');
      }
      if (focusKey && (!document.activeElement || document.activeElement === document.body)) {
        /** @type {HTMLElement | null} */ (view.el.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`))?.focus();
      }
    } while (again && !stopped);
  };
  const now = () => {
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
      if (timer) return;
      timer = window.setTimeout(() => { timer = 0; now(); }, 100);
    },
    stop() {
      stopped = true;
      window.clearTimeout(timer);
    },
  };
}

boot();
