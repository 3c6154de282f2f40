//! Sign in by name and PIN: the tablet's sign-in page, and the desktop's "Who is at the
//! counter?". Names to tap come from the desktop's member list or from the names that signed
//! in on this device before; anyone else types their name. The PIN pad works by touch (its
//! keys never take the focus from the PIN box) and by keyboard (digits, Backspace, Enter).
//! "Use a key instead" leads to the key form for tills and managers.

import { h, uid } from '../dom.js';
import { pawMark } from '../widgets.js';
import { ApiError } from '../api.js';

/**
 * @typedef {object} PinSignInOptions
 * @property {string} heading                 "Sign in" or "Who is at the counter?"
 * @property {string[]} names                 names to offer as buttons
 * @property {(name: string, pin: string) => Promise<void>} onSignIn  rejects with the refusal
 * @property {(() => void) | null} onUseKey   null: no "Use a key instead"
 * @property {string} [notice]                why we are here (signed out, session ended, …)
 * @property {{ label: string, onClick: () => void }} [back]  a way back without signing in (a paired till)
 */

/** What a refusal means to the person at the counter. @param {unknown} err */
function refusal(err) {
  if (err instanceof ApiError) {
    if (err.status === 401) return 'That name and PIN don’t match. Check them and try again.';
    if (err.code === 'temporarily_banned' && /PIN/.test(err.message)) {
      const minutes = Math.max(1, Math.ceil((err.retryAfterMs ?? 60_000) / 60_000));
      return `Too many wrong PINs for this name. It is locked for ${minutes} more minute${minutes === 1 ? '' : 's'}; ask a manager if you have forgotten your PIN.`;
    }
    if (err.status === 429) return 'This device is making too many requests. Wait a minute and try again.';
    if (err.status === 422) return 'Type your name and your PIN (4 to 8 digits).';
    if (err.status === 0) return err.message;
  }
  return 'Signing in did not work. Try again.';
}

/**
 * Render the name-and-PIN sign-in into `root`.
 * @param {HTMLElement} root
 * @param {PinSignInOptions} o
 */
export function renderPinSignIn(root, o) {
  const nameId = uid('signin-name');
  const pinId = uid('signin-pin');
  const name = /** @type {HTMLInputElement} */ (h('input', {
    id: nameId, name: 'name', type: 'text', required: true, autocomplete: 'username',
    autocapitalize: 'words', spellcheck: 'false', maxlength: '100',
  }));
  const pin = /** @type {HTMLInputElement} */ (h('input', {
    id: pinId, name: 'pin', type: 'password', required: true, inputmode: 'numeric',
    autocomplete: 'off', maxlength: '8', pattern: '[0-9]{4,8}', class: 'pin-box',
    'aria-describedby': `${pinId}-hint`,
  }));
  const error = h('p', { class: 'form-error', role: 'alert', hidden: !o.notice }, o.notice ?? '');
  const submit = h('button', { type: 'submit', class: 'btn btn-primary btn-wide pin-go' }, 'Sign in');

  // Keep only digits whatever is typed or pasted.
  pin.addEventListener('input', () => {
    const digits = pin.value.replace(/\D+/g, '').slice(0, 8);
    if (digits !== pin.value) pin.value = digits;
  });

  /** A pad key: pressing it must not move the focus out of the PIN box. @param {string} label @param {() => void} act @param {object} [extra] */
  const padKey = (label, act, extra = {}) => {
    const b = h('button', { type: 'button', class: 'pin-key', tabindex: '-1', ...extra }, label);
    b.addEventListener('pointerdown', (e) => e.preventDefault());
    b.addEventListener('click', () => { act(); pin.focus(); });
    return b;
  };
  const press = (/** @type {string} */ d) => { if (pin.value.length < 8) pin.value += d; };
  const pad = h('div', { class: 'pin-pad', role: 'group', 'aria-label': 'PIN pad' },
    ['1', '2', '3', '4', '5', '6', '7', '8', '9'].map((d) => padKey(d, () => press(d))),
    padKey('Clear', () => { pin.value = ''; }, { class: 'pin-key pin-key-quiet' }),
    padKey('0', () => press('0')),
    padKey('⌫', () => { pin.value = pin.value.slice(0, -1); }, { class: 'pin-key pin-key-quiet', 'aria-label': 'Delete the last digit' }),
  );

  /** @param {string} n */
  const choose = (n) => {
    name.value = n;
    for (const b of people.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.name === n));
    pin.value = '';
    error.hidden = true;
    pin.focus();
  };
  const people = h('div', { class: 'people', role: 'group', 'aria-label': 'Who are you?' },
    o.names.map((n) => h('button', { type: 'button', class: 'person', 'data-name': n, 'aria-pressed': 'false', onclick: () => choose(n) }, n)));
  name.addEventListener('input', () => {
    for (const b of people.querySelectorAll('button')) b.setAttribute('aria-pressed', String(b.dataset.name === name.value));
  });
  // Enter in the name box goes on to the PIN (the form submits from the PIN box).
  name.addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && !e.isComposing) {
      e.preventDefault();
      if (name.value.trim()) pin.focus();
    }
  });

  const form = h('form', { class: 'signin-card pin-card', 'aria-labelledby': 'signin-title', novalidate: true },
    h('div', { class: 'brand-mark' }, pawMark(44)),
    h('h1', { id: 'signin-title' }, o.heading),
    o.names.length ? people : null,
    h('div', { class: 'field' }, h('label', { for: nameId }, o.names.length ? 'Or type your name' : 'Your name'), name),
    h('div', { class: 'field' },
      h('label', { for: pinId }, 'PIN'),
      pin,
      h('small', { class: 'hint', id: `${pinId}-hint` }, '4 to 8 digits. Type them or tap the pad.')),
    pad,
    error,
    submit,
    o.onUseKey ? h('p', { class: 'use-key' }, h('a', { href: '#', onclick: (/** @type {Event} */ e) => { e.preventDefault(); o.onUseKey?.(); } }, 'Use a key instead')) : null,
    o.back ? h('p', { class: 'use-key' }, h('a', { href: '#', onclick: (/** @type {Event} */ e) => { e.preventDefault(); o.back?.onClick(); } }, o.back.label)) : null,
  );

  let busy = false;
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (busy) return;
    const who = name.value.trim();
    if (!who) {
      error.textContent = 'Tap your name or type it.';
      error.hidden = false;
      name.focus();
      return;
    }
    if (!/^[0-9]{4,8}$/.test(pin.value)) {
      error.textContent = 'Your PIN is 4 to 8 digits.';
      error.hidden = false;
      pin.focus();
      return;
    }
    error.hidden = true;
    busy = true;
    submit.setAttribute('disabled', '');
    submit.textContent = 'Checking…';
    try {
      await o.onSignIn(who, pin.value);
    } catch (err) {
      error.textContent = refusal(err);
      error.hidden = false;
      pin.value = '';
      pin.focus();
    } finally {
      busy = false;
      submit.removeAttribute('disabled');
      submit.textContent = 'Sign in';
    }
  });

  root.replaceChildren(h('main', { class: 'signin', id: 'main' }, form));
  // Never pick a name for the user: a colleague's wrong PIN would count against it.
  if (o.names.length) /** @type {HTMLElement} */ (people.querySelector('button')).focus();
  else name.focus();
}
