//! The till's offline shell: a service worker (served at /sw.js, so its scope is the whole
//! UI) that keeps the page and its modules, so a till reloaded, or opened again, while the
//! store cannot be reached still starts and sells from its device copy. Network first: while
//! the store answers, every file comes fresh from it (an upgrade is picked up at once) and the
//! copy is refreshed; only when it does not answer is the copy used. API calls are never
//! touched: they carry a key, and the outbox decides what to do when they fail. Browsers run
//! service workers only on https or on this machine (localhost), so a LAN till over plain http
//! keeps its waiting sales but needs the store to reload the page.

const CACHE = 'petstore-shell-v1';
const sw = /** @type {any} */ (self);

/** Whether a request is part of the UI's shell (the page, its modules, styles, icons). @param {URL} url */
function isShell(url) {
  return url.origin === sw.location.origin && (url.pathname === '/' || url.pathname.startsWith('/ui/'));
}

sw.addEventListener('install', () => { sw.skipWaiting(); });
sw.addEventListener('activate', (/** @type {any} */ e) => { e.waitUntil(sw.clients.claim()); });

// The page names the files it loaded before this worker was in charge; keep them too.
sw.addEventListener('message', (/** @type {any} */ e) => {
  const urls = Array.isArray(e.data?.keep) ? e.data.keep.filter((/** @type {string} */ u) => isShell(new URL(u, sw.location.href))) : [];
  e.waitUntil(caches.open(CACHE).then((c) => Promise.all(urls.map((/** @type {string} */ u) =>
    fetch(u, { cache: 'no-store' }).then((r) => (r.ok ? c.put(new URL(u, sw.location.href).pathname, r) : undefined), () => undefined)))));
});

sw.addEventListener('fetch', (/** @type {any} */ e) => {
  const req = /** @type {Request} */ (e.request);
  const url = new URL(req.url);
  if (req.method !== 'GET' || !isShell(url)) return;
  const key = url.pathname;
  e.respondWith((async () => {
    try {
      const res = await fetch(req);
      if (res.ok) {
        const copy = res.clone();
        e.waitUntil(caches.open(CACHE).then((c) => c.put(key, copy)));
      }
      return res;
    } catch (err) {
      const kept = await caches.match(key, { cacheName: CACHE });
      if (kept) return kept;
      throw err;
    }
  })());
});
