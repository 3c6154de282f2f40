//! Sign in with a key (browsers on the shop LAN; at the counter PC, a manager's key typed
//! from "Who is at the counter?").

import { h, field } from '../dom.js';
import { pawMark } from '../widgets.js';

/**
 * Render the sign-in form into `root`.
 * @param {HTMLElement} root
 * @param {object} o
 * @param {(key: string) => Promise<void>} o.onKey  rejects with the reason the key was refused
 * @param {string} [o.notice]  why we are here (a revoked key, …)
 * @param {() => void} [o.onUsePin]  back to signing in by name and PIN
 * @param {string} [o.intro]  what to type, when not the default sentence
 */
export function renderSignIn(root, { onKey, notice, onUsePin, intro }) {
  const input = h('input', {
    id: 'signin-key', name: 'key', type: 'password', required: true, autocomplete: 'current-password',
    spellcheck: 'false', autocapitalize: 'off', autofocus: true,
  });
  const show = h('input', { id: 'signin-show', type: 'checkbox' });
  show.addEventListener('change', () => {
    /** @type {HTMLInputElement} */ (input).type = /** @type {HTMLInputElement} */ (show).checked ? 'text' : 'password';
  });
  const error = h('p', { class: 'form-error', role: 'alert', hidden: !notice }, notice ?? '');
  const button = h('button', { type: 'submit', class: 'btn btn-primary btn-wide' }, 'Sign in');
  const form = h('form', { class: 'signin-card', 'aria-labelledby': 'signin-title' },
    h('div', { class: 'brand-mark' }, pawMark(44)),
    h('h1', { id: 'signin-title' }, 'Petstore staff sign in'),
    h('p', { class: 'muted' }, intro ?? 'Enter the key you were given. It is kept only until this browser tab is closed.'),
    field('Key', input),
    h('label', { class: 'check', for: 'signin-show' }, show, ' Show the key while typing'),
    error,
    button,
    onUsePin ? h('p', { class: 'use-key' }, h('a', { href: '#', onclick: (/** @type {Event} */ e) => { e.preventDefault(); onUsePin(); } }, 'Sign in with name and PIN instead')) : null,
  );
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const key = /** @type {HTMLInputElement} */ (input).value.trim();
    if (!key) return;
    error.hidden = true;
    button.setAttribute('disabled', '');
    button.textContent = 'Checking…';
    try {
      await onKey(key);
    } catch (err) {
      error.textContent = err instanceof Error ? err.message : String(err);
      error.hidden = false;
      input.focus();
      /** @type {HTMLInputElement} */ (input).select();
    } finally {
      button.removeAttribute('disabled');
      button.textContent = 'Sign in';
    }
  });
  root.replaceChildren(h('main', { class: 'signin', id: 'main' }, form));
  input.focus();
}
