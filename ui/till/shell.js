//! Installing the offline shell (ui/sw.js) from the Till, and handing it the files this page
//! already loaded, so the next reload starts even while the store cannot be reached.

/** Register the shell's worker where the browser allows it (https, or this machine). */
export async function installShell() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return false;
  try {
    await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    const reg = await navigator.serviceWorker.ready;
    const loaded = performance.getEntriesByType('resource').map((e) => e.name);
    reg.active?.postMessage({ keep: [location.origin + '/', ...loaded] });
    return true;
  } catch {
    return false;
  }
}
