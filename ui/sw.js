//! The till's offline shell: a service worker (served at /sw.js, so its scope is the whole
//! UI) that keeps the page and its modules, so a till reloaded, or opened again, while the
//! store cannot be reached still starts and sells from its device copy. The server opens this
//! file with the shell's manifest (`self.PETSTORE_SHELL`: every file of the UI and their
//! version). Installing keeps every one of them, all or none, in a cache of that version, and
//! only then is the worker active: a till whose worker is active starts offline, whatever the
//! moment the store went away. An upgraded store serves a new manifest, so a new worker keeps
//! the new files beside the old ones and takes over once it has them all: a page started
//! offline never mixes files of two versions. Network first: while the store answers, every file comes fresh from
//! it; only when it does not answer is the copy used. API calls are never touched: they carry
//! a key, and the outbox decides what to do when they fail. Browsers run service workers only
//! on https or on this machine (localhost), so a LAN till over plain http keeps its waiting
//! sales but needs the store to reload the page.

const sw = /** @type {any} */ (self);
/** @type {{ version: string, files: string[] }} */
const SHELL = sw.PETSTORE_SHELL ?? { version: 'unlisted', files: ['/'] };
const PREFIX = 'petstore-shell-';
const CACHE = PREFIX + SHELL.version;

/** Whether a request is part of the UI's shell (the page, its modules, styles, icons). @param {URL} url */
function isShell(url) {
  return url.origin === sw.location.origin && (url.pathname === '/' || url.pathname.startsWith('/ui/'));
}

// Every file, revalidated with the store (never an older copy from the HTTP cache); one that
// cannot be read fails the install, and the browser tries again on the next visit.
sw.addEventListener('install', (/** @type {any} */ e) => {
  e.waitUntil(caches.open(CACHE)
    .then((c) => c.addAll(SHELL.files.map((f) => new Request(f, { cache: 'no-cache' }))))
    .then(() => sw.skipWaiting()));
});

// The copies of earlier versions go once this one is in charge.
sw.addEventListener('activate', (/** @type {any} */ e) => {
  e.waitUntil(caches.keys()
    .then((names) => Promise.all(names.filter((n) => n.startsWith(PREFIX) && n !== CACHE).map((n) => caches.delete(n))))
    .then(() => sw.clients.claim()));
});

sw.addEventListener('fetch', (/** @type {any} */ e) => {
  const req = /** @type {Request} */ (e.request);
  const url = new URL(req.url);
  if (req.method !== 'GET' || !isShell(url)) return;
  e.respondWith((async () => {
    try {
      return await fetch(req);
    } catch (err) {
      const kept = await caches.match(url.pathname, { cacheName: CACHE });
      if (kept) return kept;
      throw err;
    }
  })());
});
