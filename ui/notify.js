//! Short messages at the bottom of the screen: confirmations fade after a few seconds, errors
//! after 15 s (or when dismissed, replaced, or the clerk goes to another page, where they
//! would only cover its buttons), and a message may carry one action ("Undo"). A message
//! with a `group` replaces the previous one of that group, so three +1 clicks leave one toast.
//! The region is aria-live so screen readers say them.

import { h } from './dom.js';
import { explain } from './messages.js';

/** @type {HTMLElement | null} */
let region = null;

function ensureRegion() {
  if (!region || !region.isConnected) {
    region = h('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });
    document.body.append(region);
  }
  return region;
}

/**
 * @typedef {object} NotifyOptions
 * @property {string} [group]     replaces the previous message of the same group
 * @property {number} [ms]        how long it stays (default 4 s, errors until dismissed)
 * @property {{ label: string, run: () => void }} [action]  one button, e.g. Undo
 * @property {() => void} [onExpire]  called when it goes by itself (not when acted on)
 */

/**
 * @param {string} message
 * @param {'error' | 'ok' | 'info'} [kind]
 * @param {NotifyOptions} [o]
 * @returns {{ el: HTMLElement, dismiss: () => void }}
 */
export function notify(message, kind = 'info', o = {}) {
  const box = ensureRegion();
  if (o.group) for (const old of box.querySelectorAll(`[data-group="${CSS.escape(o.group)}"]`)) old.remove();
  const close = h('button', { class: 'toast-close', type: 'button', 'aria-label': 'Dismiss message' }, '×');
  const el = h('div', { class: `toast toast-${kind}`, role: kind === 'error' ? 'alert' : null, 'data-group': o.group ?? null },
    h('span', {}, message));
  let timer = 0;
  const dismiss = () => { window.clearTimeout(timer); el.remove(); };
  if (o.action) {
    const act = o.action;
    el.append(h('button', { type: 'button', class: 'btn toast-action', onclick: () => { dismiss(); act.run(); } }, act.label));
  }
  el.append(close);
  close.addEventListener('click', dismiss);
  box.append(el);
  while (box.children.length > 3) box.firstElementChild?.remove();
  const ms = o.ms ?? (kind === 'error' ? 15_000 : 4_000);
  if (ms > 0) timer = window.setTimeout(() => { el.remove(); o.onExpire?.(); }, ms);
  return { el, dismiss };
}

/** Removes the error messages: they were about the page being left. */
export function clearErrors() {
  for (const el of region?.querySelectorAll('.toast-error') ?? []) el.remove();
}

/** Removes every message, with any action it offered (signing out: the work is over). */
export function clearAll() {
  region?.replaceChildren();
}

/**
 * Show an error from a failed call, in plain words.
 * @param {unknown} err
 * @param {import('./messages.js').ErrorContext} [ctx]
 */
export function notifyError(err, ctx) {
  notify(explain(err, ctx), 'error', { group: 'error' });
}
