//! "Pair a till" on the Keys page: choose the till's name, role and plan, then a panel with the
//! QR code the till scans, the code in large letters (to type instead), a countdown to its
//! expiry, the address, and the store's certificate fingerprint when it speaks HTTPS. When the
//! address is one only this PC can open (the server listens on loopback only), it says so
//! plainly: no till could use it.

import * as api from './api.js';
import { h, field, uid, select } from './dom.js';
import { openDialog, formValues } from './dialog.js';
import { srOnly } from './widgets.js';
import { PLANS as PLAN_LIMITS } from './facts.js';

/**
 * @typedef {{ code: string, expiresAt: string, url: string, onNetwork: boolean }} Pairing
 * @typedef {{ https: boolean, fingerprint?: string, notAfter?: string }} Certificate
 */

const ROLES = /** @type {Array<[string, string]>} */ ([
  ['pos', 'POS: a till that sells'], ['readonly', 'Read only: a screen that shows stock'], ['staff', 'Staff: a tablet for stock work'],
]);
/** What each plan suits, in a clerk's words; its limits come from the contract's facts. */
const PLAN_USE = /** @type {Record<import('./types.js').Plan, string>} */ ({
  free: 'Light: a device used now and then', pro: 'Standard: one till', business: 'Busy: a staff screen or a busy till', enterprise: 'Custom limits',
});
const count = (/** @type {number} */ n) => n.toLocaleString('en-US');
/**
 * The plans as choices, in the given order: "Standard: one till (300 a minute, 10,000 a day)".
 * @param {import('./types.js').Plan[]} names
 * @returns {Array<[string, string]>}
 */
export const planChoices = (names) => names.map((name) => {
  const plan = PLAN_LIMITS.find((p) => p.name === name);
  const limits = plan?.perMinute && plan.perDay ? ` (${count(plan.perMinute)} a minute, ${count(plan.perDay)} a day)` : '';
  return [name, PLAN_USE[name] + limits];
});
const PLANS = planChoices(['pro', 'free', 'business']);
const PLAN_FOR_ROLE = /** @type {Record<string, string>} */ ({ readonly: 'pro', pos: 'pro', staff: 'business' });

/** "K7QM 4XPA": two groups of four, easier to read out and type. @param {string} code */
export const spacedCode = (code) => `${code.slice(0, 4)} ${code.slice(4)}`;

/** "9:05" from milliseconds. @param {number} ms */
export function clock(ms) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The fingerprint in groups of eight bytes, one per line. @param {string} fp */
const fingerprintLines = (fp) => (fp.match(/(?:[0-9A-F]{2}:?){1,8}/g) ?? [fp]).map((part) => h('span', {}, part.replace(/:$/, '')));

/** Opens the form; on success, the panel. @param {() => void} [onPaired] */
export function openPairing(onPaired) {
  const name = h('input', { id: uid('pname'), name: 'name', type: 'text', required: true, autocomplete: 'off', autofocus: true, placeholder: 'Till 2' });
  const role = /** @type {HTMLSelectElement} */ (select({ id: uid('prole'), name: 'role', required: true }, ROLES, 'pos'));
  const plan = /** @type {HTMLSelectElement} */ (select({ id: uid('pplan'), name: 'plan', required: true }, PLANS, 'pro'));
  let planChosen = false;
  plan.addEventListener('change', () => { planChosen = true; });
  role.addEventListener('change', () => { if (!planChosen) plan.value = PLAN_FOR_ROLE[role.value]; });
  openDialog({
    title: 'Pair a till',
    context: { action: 'key', name: undefined },
    body: [
      h('p', {}, 'The till gets its own key by scanning a QR code: nobody types a key into it.'),
      field('Name', name, 'Which till or tablet this is.'),
      field('Role', role),
      field('Plan', plan),
    ],
    submitLabel: 'Show the QR code',
    onSubmit: async (form) => {
      const v = formValues(form);
      const pairing = /** @type {Pairing} */ (await api.post('/admin/pairings', { name: v.name, role: v.role, plan: v.plan }));
      /** @type {Certificate} */
      let cert = { https: false };
      try {
        cert = /** @type {Certificate} */ (await api.get('/store/certificate'));
      } catch {
        // The fingerprint is a help, not a need: the panel works without it.
      }
      setTimeout(() => showPanel(v.name, pairing, cert, onPaired), 0);
    },
  });
}

/**
 * The QR code, the code, the countdown, the address and the fingerprint.
 * @param {string} tillName
 * @param {Pairing} pairing
 * @param {Certificate} cert
 * @param {() => void} [onClosed]
 */
function showPanel(tillName, pairing, cert, onClosed) {
  const expires = new Date(pairing.expiresAt).getTime();
  const qr = /** @type {HTMLImageElement} */ (h('img', { class: 'pair-qr', width: '256', height: '256', alt: `QR code of the pairing address ${pairing.url}` }));
  const left = h('strong', { class: 'pair-left' }, clock(expires - Date.now()));
  const countdown = h('p', { class: 'pair-countdown', role: 'timer', 'aria-live': 'off' }, 'Expires in ', left, ' (the code works once).');
  const expired = h('p', { class: 'form-error', role: 'alert', hidden: true }, 'This code has expired. Close this and make a new one.');
  const tick = setInterval(() => {
    const ms = expires - Date.now();
    left.textContent = clock(ms);
    if (ms <= 0) {
      clearInterval(tick);
      countdown.hidden = true;
      expired.hidden = false;
      qr.hidden = true;
    }
  }, 1000);
  const fp = cert.https && cert.fingerprint ? cert.fingerprint : null;
  openDialog({
    title: `Pair ${tillName}`,
    size: 'wide',
    body: [
      h('div', { class: 'pair-panel', 'data-pairing-url': pairing.url, 'data-code': pairing.code },
        h('div', { class: 'pair-qr-box' }, qr),
        h('div', { class: 'pair-text' },
          h('p', {}, 'On the till, scan the QR code with the camera, or open ', h('code', { class: 'pair-typed-url' }, typedAddress(pairing.url)), ' and type this code:'),
          h('div', { class: 'pair-code' }, srOnly('Code: '), h('span', { class: 'pair-code-chars' }, spacedCode(pairing.code))),
          countdown,
          expired,
          pairing.onNetwork
            ? null
            : h('p', { class: 'warning pair-local', role: 'note' },
              'No till can use this address: the store listens on this computer only. ',
              'Let devices on this network use the store first (the desktop app\'s Network page, or start the server with --bind 0.0.0.0:8080), then pair again.'),
          h('p', { class: 'small' }, 'Or the whole address, code and all: ', h('code', { class: 'pair-url' }, pairing.url)),
          fp
            ? h('div', { class: 'pair-fp small' },
              h('p', {}, 'The store speaks HTTPS. The first time, the till\'s browser warns about the certificate: continue only if its SHA-256 fingerprint is this one.'),
              h('p', { class: 'mono fingerprint' }, fingerprintLines(fp)))
            : null,
        ),
      ),
    ],
    cancelLabel: 'Done',
    onClose: () => {
      clearInterval(tick);
      onClosed?.();
    },
  });
  void drawQr(qr, pairing.code);
}

/**
 * Loads the QR code (it needs the admin key, so it is fetched, then shown as a data: URL,
 * which the page's content policy allows).
 * @param {HTMLImageElement} img
 * @param {string} code
 */
async function drawQr(img, code) {
  try {
    const blob = await api.download(`/admin/pairings/${encodeURIComponent(code)}/qr.svg`, undefined, 'image/svg+xml');
    const text = await blob.text();
    img.src = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(text)}`;
  } catch {
    img.replaceWith(h('p', { class: 'form-error' }, 'The QR code could not be loaded; type the code on the till instead.'));
  }
}

/**
 * The store's certificate fingerprint as a line for a page, or nothing over plain HTTP.
 * @returns {Promise<HTMLElement | null>}
 */
export async function certificateNote() {
  try {
    const cert = /** @type {Certificate} */ (await api.get('/store/certificate'));
    if (!cert.https || !cert.fingerprint) return null;
    return h('div', { class: 'cert-note small', 'data-fingerprint': cert.fingerprint },
      h('h2', { class: 'small-heading' }, 'This store\'s HTTPS certificate'),
      h('p', {}, 'A browser that opens the store for the first time warns about the certificate. Compare its SHA-256 fingerprint with this one before you continue:'),
      h('p', { class: 'mono fingerprint' }, fingerprintLines(cert.fingerprint)));
  } catch {
    return null;
  }
}

/** The pairing page's address without the code (`http://…/pair`), where a till types it. @param {string} url */
function typedAddress(url) {
  try {
    const u = new URL(url);
    return u.origin + u.pathname;
  } catch {
    return url.replace(/\?.*$/, '');
  }
}
