//! Hash routes (#/pets, #/orders, …): the server only serves / and /ui/*, and a hash keeps
//! reloads and bookmarks on the same page without any server routing.

/** @param {string[]} names  known page names; the first is the default */
export function currentRoute(names) {
  const name = location.hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return names.includes(name) ? name : names[0];
}

/**
 * Call `onRoute(name)` now and on every change of the hash.
 * @param {string[]} names
 * @param {(name: string) => void} onRoute
 */
export function startRouter(names, onRoute) {
  const fire = () => onRoute(currentRoute(names));
  window.addEventListener('hashchange', fire);
  fire();
  return () => window.removeEventListener('hashchange', fire);
}
