//! The page a till opens from a pairing QR code (`/pair?code=…`): it trades the one-time code
//! for this device's own key (`POST /pair`), keeps the key on this device (localStorage, so a
//! till stays signed in after a restart), and opens the staff screens.

import { request, ApiError } from './api.js';
import { rememberDeviceKey } from './session.js';

const status = /** @type {HTMLElement} */ (document.getElementById('pair-status'));

/** @param {string} text */
function say(text) {
  status.textContent = text;
}

async function pair() {
  const code = new URLSearchParams(location.search).get('code') ?? '';
  if (code.trim() === '') {
    say('This address has no pairing code. Ask an admin to show a new QR code under Keys → Pair a till.');
    return;
  }
  say(`Pairing with code ${code.toUpperCase()}…`);
  try {
    const { data } = await request('POST', '/pair', { body: { code }, key: '' });
    rememberDeviceKey(data.secret);
    say(`Paired as “${data.name}” (${data.role}). Opening the store…`);
    location.replace('/');
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) {
      say('This pairing code was already used or has expired (codes last 10 minutes). Ask an admin for a new one.');
    } else {
      say(err instanceof Error ? err.message : String(err));
    }
  }
}

pair();
