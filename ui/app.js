//! The staff UI's entry point: signs in (the desktop window's injected key, or the sign-in
//! page), draws the header, routes between pages, and keeps the open page fresh from the event
//! stream.

import * as api from './api.js';
import { h, replace } from './dom.js';
import { connectEvents } from './events.js';
import { notify, notifyError, clearErrors, clearAll } from './notify.js';
import { confirmAction } from './dialog.js';
import { explain } from './messages.js';
import { startRouter } from './router.js';
import { loadSession, rememberKey, forgetKey, forgetTypedKey, deviceKey, checkKey, roleOf, pairedAs } from './session.js';
import { makeRefresher, roleCan, watched } from './refresh.js';
import { renderSignIn } from './pages/signin.js';
import { renderPinSignIn } from './pages/pinsignin.js';
import * as staffSession from './staffsession.js';
import * as staff from './pages/staff.js';
import { pawMark } from './widgets.js';
import { skeleton, errorPanel } from './states.js';
import { invalidateCategories } from './lookups.js';
import * as pets from './pages/pets.js';
import * as categories from './pages/categories.js';
import * as inventory from './pages/inventory.js';
import * as orders from './pages/orders.js';
import * as sales from './pages/sales.js';
import * as keys from './pages/keys.js';
import * as backups from './pages/backups.js';
import * as network from './pages/network.js';
import * as restore from './pages/restore.js';
import * as stocktake from './pages/stocktake.js';
import * as reports from './pages/reports.js';
import * as suppliers from './pages/suppliers.js';
import * as purchasing from './pages/purchasing.js';
import * as tillPage from './pages/till.js';
import * as care from './pages/care.js';
import { lowStockBadge } from './lowstock.js';
import { pageNav } from './nav.js';
import { invalidateProfile } from './money.js';
import { invalidateSuppliers } from './stockroom.js';

/**
 * @typedef {import('./refresh.js').PageModule} PageModule
 * @typedef {import('./refresh.js').PageView} PageView
 * @typedef {import('./refresh.js').PageContext} PageContext
 * @typedef {import('./refresh.js').Refresher} Refresher
 * @typedef {import('./types.js').Role} Role
 */

/** @type {Record<string, PageModule>} */
const PAGES = { pets, till: tillPage, care, categories, inventory, orders, sales, stocktake, purchasing, suppliers, reports, keys, staff, backups, network, restore };

/** The role a key had when the store last answered (for starting while it cannot be reached). */
const ROLE_SEEN = 'petstore.role-seen';

/** Said on a paired till when the key someone typed on it stops working. */
const TYPED_KEY_ENDED = 'The key typed on this till was revoked or is no longer valid. This till stays paired.';

const root = /** @type {HTMLElement} */ (document.getElementById('app'));

/** Everything that belongs to one signed-in session, torn down on sign-out. */
let session = /** @type {{ stop: () => void } | null} */ (null);

async function boot() {
  const s = loadSession();
  if (s?.desktop) return bootDesktop(s.key);
  const member = staffSession.signedInMember();
  if (s && member && member.key === s.key) {
    try {
      await checkKey(s.key);
      return start(s.key, false, member.staff.role, member.staff);
    } catch {
      staffSession.forgetMember();
      // A paired till keeps its own key: back to selling, not to a key form.
      forgetTypedKey();
      if (deviceKey()) return boot();
      forgetKey();
      return showSignIn('Your sign-in has ended. Sign in again.');
    }
  }
  if (!s) return showSignIn();
  try {
    await checkKey(s.key);
  } catch (err) {
    if (s.desktop) return showFatal(err instanceof Error ? err.message : String(err));
    // The store cannot be reached (not a refused key): a till goes on selling from its copy.
    if (err instanceof api.ApiError && err.status === 0) return start(s.key, false);
    // A key typed on a paired till is refused: the till goes back to its own key.
    if (err instanceof api.ApiError && err.status === 401 && deviceKey() && deviceKey() !== s.key) {
      forgetTypedKey();
      await boot();
      if (deviceKey()) notify(TYPED_KEY_ENDED, 'info');
      return;
    }
    forgetKey();
    return showKeySignIn(err instanceof api.ApiError && err.status === 401 ? 'Your saved key is no longer valid. Sign in again.' : undefined);
  }
  await start(s.key, s.desktop);
}

/**
 * The desktop window: as the local admin, unless the store has staff members; then it asks
 * who is at the counter, and each person works under their own name.
 * @param {string} desktopKey
 * @param {string} [notice]
 */
async function bootDesktop(desktopKey, notice) {
  try {
    await checkKey(desktopKey);
  } catch (err) {
    return showFatal(err instanceof Error ? err.message : String(err));
  }
  const member = staffSession.signedInMember();
  if (member) {
    try {
      await checkKey(member.key);
      return start(member.key, true, member.staff.role, member.staff);
    } catch {
      staffSession.forgetMember();
      notice ??= 'Your sign-in has ended. Sign in again.';
    }
  }
  /** @type {import('./staffsession.js').StaffMember[]} */
  let people = [];
  api.setKey(desktopKey);
  try {
    people = (await api.listAll('/admin/staff', {}, 500)).filter((m) => !m.disabledAt);
  } catch (err) {
    return showFatal(explain(err));
  }
  if (people.length === 0) return start(desktopKey, true);
  // The PC's owner always keeps a way in: with no manager among the members (staff added
  // before the first-manager rule, or by another program), the window opens as the owner.
  if (!people.some((m) => m.role === 'admin')) {
    await start(desktopKey, true);
    notify('No staff member is a manager, so this window opens as the owner. Add yourself as a manager on the Staff page.', 'info');
    return;
  }
  document.title = 'Who is at the counter? — Petstore';
  renderPinSignIn(root, {
    heading: 'Who is at the counter?',
    names: people.map((m) => m.name),
    notice,
    // A manager's key (never this PC's own one), for an owner who has no name and PIN here.
    onUseKey: () => showDesktopKeySignIn(desktopKey),
    onSignIn: async (name, pin) => {
      const session = await staffSession.signIn(name, pin);
      await start(session.secret, true, session.staff.role, session.staff);
    },
  });
}

/**
 * The counter PC's "Use a key instead": a key someone was given (the admin key printed when
 * the store was first started, or one a manager made), kept only in this page's memory.
 * @param {string} desktopKey
 */
function showDesktopKeySignIn(desktopKey) {
  document.title = 'Sign in with a key — Petstore';
  renderSignIn(root, {
    intro: 'Enter a key you were given: the admin key printed when the store was first started, or one a manager made on the Keys page. Signing out comes back to the names.',
    onKey: async (key) => {
      await checkKey(key);
      await start(key, true, undefined, undefined, true);
    },
    onUsePin: () => void bootDesktop(desktopKey),
  });
}

/**
 * @param {string} [notice]
 * @param {string} [till]  a paired till's name: a staff member signs in on it, and may go back to it
 */
function showSignIn(notice, till) {
  document.title = 'Sign in — Petstore';
  renderPinSignIn(root, {
    heading: till ? `Staff sign in on ${till}` : 'Petstore staff sign in',
    names: staffSession.namesToOffer(),
    notice,
    onUseKey: till ? null : () => showKeySignIn(),
    back: till ? { label: `Back to ${till} without signing in`, onClick: () => void boot() } : undefined,
    onSignIn: async (name, pin) => {
      const session = await staffSession.signIn(name, pin);
      rememberKey(session.secret);
      await start(session.secret, false, session.staff.role, session.staff);
    },
  });
}

/** Sign in with a pasted key (tills, managers): "Use a key instead". @param {string} [notice] */
function showKeySignIn(notice) {
  document.title = 'Sign in with a key — Petstore';
  renderSignIn(root, {
    notice,
    onKey: async (key) => {
      await checkKey(key);
      rememberKey(key);
      await start(key, false);
    },
    onUsePin: () => showSignIn(),
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
 * @param {Role} [knownRole]  a name-and-PIN session says its role; a key is probed
 * @param {import('./staffsession.js').StaffMember} [member]  who signed in by name and PIN
 * @param {boolean} [typedKey]  the desktop window, signed in with a key typed at the counter
 */
async function start(key, desktop, knownRole, member, typedKey = false) {
  api.setKey(key);
  /** @type {Role} */
  let role = knownRole ?? 'readonly';
  if (!knownRole) {
    try {
      role = await roleOf(key);
      localStorage.setItem(ROLE_SEEN, JSON.stringify({ key: key.slice(0, 12), role }));
    } catch (err) {
      // Offline: the role this key had when the store last answered, so a till still sells.
      const seen = JSON.parse(localStorage.getItem(ROLE_SEEN) ?? 'null');
      if (seen?.key === key.slice(0, 12)) role = seen.role;
      else notifyError(err);
    }
  }
  const admin = role === 'admin';
  // A manager signed in on a browser shows it the staff's names, so a colleague's first
  // sign-in on this tablet is a tap on their name (never from a keyless request).
  if (admin && !desktop) {
    api.listAll('/admin/staff', {}, 500).then(staffSession.keepDeviceNames, () => {});
  }
  // Opening the store to the shop's network is a manager's decision, also at the counter PC.
  const names = Object.keys(PAGES).filter((n) => ((n !== 'keys' && n !== 'staff' && n !== 'backups') || admin) && (n !== 'network' || (desktop && admin && network.available())) && (n !== 'restore' || (desktop && admin && restore.available())) && (n !== 'stocktake' || roleCan(role, 'stock')) && (n !== 'till' || roleCan(role, 'sell')));

  const live = h('span', { class: 'live', role: 'status', 'data-state': 'connecting' }, h('span', { class: 'dot', 'aria-hidden': 'true' }), h('span', { class: 'live-text' }, 'Connecting…'));
  const waiting = h('div', { class: 'waiting', role: 'status', hidden: true });
  // A shop's day on the band; the stockroom's and a manager's pages under More.
  const pageLinks = pageNav(names, (n) => PAGES[n].title);
  const nav = pageLinks.el;
  // A till paired by QR code keeps its key on the device. Staff sign in on it by name and PIN
  // and sign out back to the till; unpairing is a separate step, confirmed, that gives the
  // device's key back (`DELETE /pair`: the server revokes it), so no orphan key stays active.
  const till = desktop || member ? null : pairedAs(key);
  let unpairing = false;
  const unpair = () => confirmAction({
    title: 'Unpair this device?',
    message: `This device gives back its key “${till}”: the key is revoked at once, so nobody can sell with it again, and this device sells again only once it is paired again (Keys → Pair a till).`,
    confirmLabel: 'Unpair this device',
    cancelLabel: 'Keep it paired',
    onConfirm: async () => {
      unpairing = true;
      try {
        await api.request('DELETE', '/pair', { key, quiet401: true });
      } catch (err) {
        // Already revoked (401): the device only has to forget it.
        if (!(err instanceof api.ApiError && err.status === 401)) {
          unpairing = false;
          throw new Error(err instanceof api.ApiError && err.status === 0
            ? 'The store cannot be reached, so the key was not revoked and this device stays paired. Try again when the store answers.'
            : explain(err));
        }
      }
      stopSession('unpaired');
    },
  });
  const signOut = desktop && !member && !typedKey ? null
    : till ? [
      h('button', { type: 'button', class: 'btn btn-quiet', onclick: () => stopSession('staff-sign-in') }, 'Staff sign in'),
      h('button', { type: 'button', class: 'btn btn-quiet', onclick: unpair }, 'Unpair this device…'),
    ]
      : h('button', { type: 'button', class: 'btn btn-quiet', onclick: () => stopSession('signed-out') }, 'Sign out');
  const who = member ? h('span', { class: 'who', title: 'Signed in by name and PIN' }, member.name) : null;
  const main = h('main', { id: 'main', tabindex: '-1' });
  // How many items are low, on every page; it opens the low list.
  const low = lowStockBadge(roleCan(role, 'edit'));
  root.replaceChildren(
    h('a', { class: 'skip', href: '#main', onclick: (/** @type {Event} */ e) => { e.preventDefault(); main.focus(); } }, 'Skip to the page'),
    h('header', { class: 'top' }, h('div', { class: 'brand' }, pawMark(26), 'Petstore'), nav, h('div', { class: 'top-right' }, low.el, live, h('a', { class: 'top-link', href: '/docs', target: '_blank', rel: 'noopener' }, 'API docs'), who, signOut)),
    waiting,
    main,
  );

  /** @type {{ name: string, mod: PageModule, view: PageView, refresher: Refresher } | null} */
  let current = null;
  let pollTimer = 0;

  // The Live light says more than "connected": whether this device's requests are being
  // slowed down or refused by the rate limits, since a stream can be open while every click fails.
  /** @type {'connecting' | 'live' | 'reconnecting' | 'stopped'} */
  let stream = 'connecting';
  /** @type {import('./api.js').LimitState} */
  let limit = { state: 'ok' };
  const drawLive = () => {
    const st = limit.state === 'blocked' ? 'blocked' : limit.state === 'throttled' ? 'throttled' : stream;
    live.dataset.state = st;
    /** @type {HTMLElement} */ (live.querySelector('.live-text')).textContent =
      st === 'blocked' ? 'Blocked' : st === 'throttled' ? 'Slowed down'
        : st === 'live' ? 'Live' : st === 'connecting' ? 'Connecting…' : st === 'reconnecting' ? 'Reconnecting…' : 'Offline';
    // `untilMs` is a clock time; the message wants how long is left.
    live.title = st === 'blocked' ? explain({ status: 429, code: 'temporarily_banned', message: '', retryAfterMs: limit.untilMs ? Math.max(0, limit.untilMs - Date.now()) : null })
      : st === 'throttled' ? 'This device is making too many requests for its plan; a manager can raise its plan on the Keys page.' : '';
    document.body.dataset.live = st;
  };
  api.setLimitHandler((s) => { limit = s; drawLive(); });

  api.setWaitingHandler((ms) => {
    waiting.hidden = ms === null;
    if (ms !== null) waiting.textContent = `The server asked this device to slow down. Trying again in ${Math.ceil(ms / 1000)} s… If this keeps happening, a manager can raise this device's plan on the Keys page.`;
  });
  api.setUnauthorizedHandler(() => stopSession('revoked'));
  // Our own change also arrives as an event; re-fetch on the answer only while no stream is open.
  api.setChangeHandler(() => { if (stream !== 'live') current?.refresher.soon(); });

  /** @type {PageContext} */
  const ctx = {
    role,
    admin,
    can: (action) => roleCan(role, action),
    refresh: () => current?.refresher.now() ?? Promise.resolve(),
    isOwnKey: (prefix) => prefix.length > 0 && key.startsWith(prefix),
  };

  /** @param {string} name */
  function show(name) {
    // An error toast belongs to the page it happened on; on the next it would cover buttons.
    if (current && current.name !== name) clearErrors();
    window.clearInterval(pollTimer);
    current?.refresher.stop();
    const mod = PAGES[name];
    const view = mod.mount(ctx);
    const refresher = makeRefresher(() => loadView(view), { onError: () => {} });
    current = { name, mod, view, refresher };
    replace(main, view.el);
    if (view.results && view.results.childElementCount === 0) replace(view.results, skeleton());
    document.title = `${mod.title} — Petstore`;
    pageLinks.mark(name);
    document.body.dataset.page = name;
    refresher.now().then(() => {
      // Move the keyboard to the page, unless the user has already moved it somewhere (also
      // when they opened More while the page loaded: moving the focus would shut it on them).
      const at = document.activeElement;
      const moreOpen = nav.querySelector('[aria-expanded="true"]') !== null;
      const untouched = !moreOpen && (!at || at === document.body || nav.contains(at));
      if (current?.view !== view || document.querySelector('dialog[open]') || !untouched) return;
      if (view.focus) view.focus();
      else /** @type {HTMLElement | null} */ (view.el.querySelector('h1'))?.focus();
    });
    if (mod.pollMs) pollTimer = window.setInterval(() => { if (!document.hidden) refresher.soon(); }, mod.pollMs);
  }

  /**
   * One load of a page, with its states: busy while it runs, an error panel with "Try again"
   * in place of the list when it fails (not an empty list), and keyboard focus kept on the
   * same control across the redraw.
   * @param {PageView} view
   */
  async function loadView(view) {
    const active = /** @type {HTMLElement | null} */ (document.activeElement);
    const focusKey = active && view.el.contains(active) ? active.dataset.focusKey : undefined;
    view.el.setAttribute('aria-busy', 'true');
    try {
      await view.load();
      view.el.querySelector(':scope > .error-panel')?.remove();
    } catch (err) {
      if (!(err instanceof api.ApiError && err.status === 401)) showLoadError(view, err);
    } finally {
      view.el.setAttribute('aria-busy', 'false');
    }
    if (focusKey && (!document.activeElement || document.activeElement === document.body)) {
      /** @type {HTMLElement | null} */ (view.el.querySelector(`[data-focus-key="${CSS.escape(focusKey)}"]`))?.focus();
    }
  }

  /** @param {PageView} view @param {unknown} err */
  function showLoadError(view, err) {
    const panel = errorPanel(explain(err), () => current?.refresher.now());
    const where = view.results ?? view.el;
    view.el.querySelector(':scope > .error-panel')?.remove();
    // Still showing the skeleton: the list never came, so the panel takes its place.
    if (where.querySelector('.skeleton')) replace(where, panel);
    else where.before(panel);
  }

  const events = connectEvents({
    key,
    onStatus: (st) => { stream = st; drawLive(); },
    onEvent: (ev) => {
      if (ev.type.startsWith('category.')) invalidateCategories();
      if (ev.type.startsWith('supplier.')) invalidateSuppliers();
      if (ev.type === 'store.profile.updated') invalidateProfile();
      if (ev.type.startsWith('inventory.') || ev.type === 'pet.deleted') low.soon();
      if (!current || !watched(current.mod.watches, ev)) return;
      if (current.view.affects && !current.view.affects(ev)) return;
      current.refresher.soon();
    },
    onReconnected: () => { invalidateCategories(); invalidateSuppliers(); low.soon(); current?.refresher.soon(); },
    onUnauthorized: () => stopSession('revoked'),
  });

  // A till sells: a pos key, or a paired device, opens on the Till, not on Pets.
  if ((role === 'pos' || till) && !location.hash && names.includes('till')) history.replaceState(null, '', '#/till');
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

  /** @param {'signed-out' | 'revoked' | 'unpaired' | 'staff-sign-in'} why */
  function stopSession(why) {
    if (!session) return;
    // The stream may see the revoked key before the answer to unpairing arrives.
    if (unpairing && why === 'revoked') why = 'unpaired';
    session = null;
    events.close();
    current?.refresher.stop();
    stopRouter();
    window.clearInterval(pollTimer);
    document.removeEventListener('keydown', onKey);
    api.setKey(null);
    api.setLimitHandler(() => {});
    for (const d of document.querySelectorAll('dialog')) d.remove();
    clearAll();
    if (member) {
      // A member's session ends on the server too, so the key is no use to anyone after.
      if (why === 'signed-out') void staffSession.signOut(key);
      else staffSession.forgetMember();
      const notice = why === 'revoked' ? 'Your sign-in has ended (it was unused for a long time, or a manager changed it). Sign in again.' : undefined;
      if (desktop) {
        const injected = loadSession();
        if (injected?.desktop) void bootDesktop(injected.key, notice);
        return;
      }
      // On a paired till, signing out ends the member's session and keeps the pairing.
      forgetTypedKey();
      if (deviceKey()) {
        void boot().then(() => notify(why === 'revoked' ? 'That sign-in has ended. This till stays paired.' : 'Signed out. This till stays paired.', 'ok'));
        return;
      }
      forgetKey();
      history.replaceState(null, '', location.pathname);
      showSignIn(notice);
      if (why === 'signed-out') notify('Signed out.', 'ok');
      return;
    }
    if (desktop && typedKey) {
      const injected = loadSession();
      if (injected?.desktop) void bootDesktop(injected.key, why === 'revoked' ? 'That key was revoked or is no longer valid.' : undefined);
      return;
    }
    if (desktop) return showFatal('The key of this window is no longer valid. Restart Petstore.');
    // A paired till: a member signs in on it, and comes back to it afterwards.
    if (why === 'staff-sign-in' && till) return showSignIn(undefined, till);
    // A key typed on a paired till, signed out or revoked: back to the till's own key.
    if ((why === 'signed-out' || why === 'revoked') && !till && deviceKey()) {
      forgetTypedKey();
      void boot().then(() => {
        if (why === 'signed-out') notify('Signed out. This till stays paired.', 'ok');
        else if (deviceKey()) notify(TYPED_KEY_ENDED, 'info');
      });
      return;
    }
    forgetKey();
    history.replaceState(null, '', location.pathname);
    // Signed in with a key: back to the key form (a till), unless this device lists its
    // staff's names (a manager set it up): then to the names, where the next person starts.
    const keyNotice = why === 'unpaired' ? `This device is unpaired: its key “${till}” is revoked. To sell here again, pair it on Keys → Pair a till.`
      : why === 'revoked' ? 'Your key was revoked or is no longer valid. Sign in with another key.' : undefined;
    if (staffSession.namesToOffer().length > 0) showSignIn(keyNotice);
    else showKeySignIn(keyNotice);
    if (why === 'signed-out') notify('Signed out.', 'ok');
  }
  session = { stop: () => stopSession('signed-out') };
}

boot();
