//! Installing the offline shell (ui/sw.js) from the Till, and saying when this device can
//! start the till while the store cannot be reached: once a worker is active, since a worker
//! becomes active only after it has kept every file of the UI.

/**
 * Whether the till can start offline on this device:
 * `ready` (a worker that has every file is in charge), `unavailable` (the browser runs no
 * service worker here: plain http on the shop network), or `failed` (the worker could not keep
 * the files; the browser tries again on the next visit).
 * @typedef {'ready' | 'unavailable' | 'failed'} ShellState
 */

/** Register the shell's worker where the browser allows it (https, or this machine). @returns {Promise<ShellState>} */
export async function installShell() {
  if (!('serviceWorker' in navigator) || !window.isSecureContext) return 'unavailable';
  try {
    const reg = await navigator.serviceWorker.register('/sw.js', { scope: '/' });
    if (reg.active) return 'ready';
    const worker = reg.installing ?? reg.waiting;
    if (!worker) return 'failed';
    return await new Promise((resolve) => {
      const settle = () => {
        if (worker.state === 'activated') resolve('ready');
        else if (worker.state === 'redundant') resolve('failed');
      };
      worker.addEventListener('statechange', settle);
      settle();
    });
  } catch {
    return 'failed';
  }
}
