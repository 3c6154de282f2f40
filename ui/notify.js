//! Short messages at the bottom of the screen: errors stay until dismissed or replaced,
//! confirmations fade after a few seconds. The region is aria-live so screen readers say them.

import { h } from './dom.js';

/** @type {HTMLElement | null} */
let region = null;

function ensureRegion() {
  if (!region) {
    region = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(region);
  }
  return region;
}

/**
 * @param {string} message
 * @param {'error' | 'ok' | 'info'} [kind]
 */
export function notify(message, kind = 'info') {
  const box = ensureRegion();
  const close = h('button', { class: 'toast-close', type: 'button', 'aria-label': 'Dismiss message' }, '×');
  const el = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : null }, h('span', {}, message), close);
  close.addEventListener('click', () => el.remove());
  box.append(el);
  while (box.children.length > 3) box.firstElementChild?.remove();
  setTimeout(() => el.remove(), kind === 'error' ? 15_000 : 4_000);
}

/** Show an error from a failed call. @param {unknown} err */
export function notifyError(err) {
  notify(err instanceof Error ? err.message : String(err), 'error');
}
