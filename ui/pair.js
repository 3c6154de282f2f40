//! The page a till opens from a pairing QR code (`/pair?code=…`), or at `/pair` to type the
//! code shown under Keys → Pair a till: it trades the one-time code for this device's own key
//! (`POST /pair`), keeps the key on this device (localStorage, so a till stays signed in after
//! a restart), and opens the staff screens.

import { request, ApiError } from './api.js';
import { rememberDeviceKey } from './session.js';

const status = /** @type {HTMLElement} */ (document.getElementById('pair-status'));
const form = /** @type {HTMLFormElement} */ (document.getElementById('pair-form'));
const input = /** @type {HTMLInputElement} */ (document.getElementById('pair-code'));

/** @param {string} text */
function say(text) {
  status.textContent = text;
}

/** @param {string} code */
async function pair(code) {
  say(`Pairing with code ${code.toUpperCase()}…`);
  try {
    const { data } = await request('POST', '/pair', { body: { code }, key: '' });
    rememberDeviceKey(data.secret, data.name);
    say(`Paired as “${data.name}” (${data.role}). Opening the store…`);
    location.replace('/');
  } catch (err) {
    if (err instanceof ApiError && (err.status === 404 || err.status === 422)) {
      say('This pairing code is wrong, was already used, or has expired (codes last 10 minutes). Check it, or ask an admin for a new one.');
    } else {
      say(err instanceof Error ? err.message : String(err));
    }
    form.hidden = false;
    input.focus();
    input.select();
  }
}

const fromAddress = new URLSearchParams(location.search).get('code') ?? '';
if (fromAddress.trim() !== '') {
  void pair(fromAddress);
} else {
  say('Type the code shown on the store’s computer under Keys → Pair a till.');
  form.hidden = false;
  input.focus();
}
form.addEventListener('submit', (e) => {
  e.preventDefault();
  const code = input.value.trim();
  if (!code) return;
  form.hidden = true;
  void pair(code);
});
