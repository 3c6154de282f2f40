//! Network (desktop window only): "Let devices on this network use the store", on the one
//! network the shop chooses, and "Pair a till". The desktop shell serves the store on this
//! PC's address on that network (never on every network), remembers the choice, and stops
//! serving by itself when the network changes (the page then says why and asks again).

import { h, field, uid, replace } from '../dom.js';
import { notify } from '../notify.js';
import { openPairing } from '../pairing.js';
import { pageHeader } from '../widgets.js';

export const title = 'Network';
/** @type {readonly string[]} */
export const watches = [];
/** The shell looks at the network every 2 s; the page shows what it found. */
export const pollMs = 3000;

/**
 * @typedef {object} Interface
 * @property {string} name     the network interface, e.g. "wlan0"
 * @property {string} address  this PC's IPv4 address on it
 * @typedef {object} LanStatus
 * @property {boolean} enabled
 * @property {number} port
 * @property {string | null} address   the address served on (or remembered)
 * @property {boolean} https           devices use HTTPS (or will, when it is turned on)
 * @property {string | null} fingerprint  the store certificate's SHA-256, while it serves HTTPS
 * @property {string[]} addresses      http(s)://IP:PORT for the devices, while enabled
 * @property {Interface[]} interfaces  the networks this PC is on now
 * @property {string | null} error     why the last change did not happen
 * @property {string | null} changed   why LAN access stopped by itself (the network changed)
 */

/** The desktop shell's commands, present only inside the desktop window. */
function shell() {
  const tauri = /** @type {any} */ (window).__TAURI__;
  return tauri?.core?.invoke ? /** @type {(cmd: string, args?: object) => Promise<any>} */ (tauri.core.invoke) : null;
}

/** Whether this page can work here. */
export function available() {
  return shell() !== null;
}

/** @param {import('../refresh.js').PageContext} _ctx */
export function mount(_ctx) {
  const invoke = shell();
  const toggle = /** @type {HTMLInputElement} */ (h('input', { id: uid('lan'), type: 'checkbox', role: 'switch' }));
  const network = /** @type {HTMLSelectElement} */ (h('select', { id: uid('network'), name: 'network' }));
  const port = /** @type {HTMLInputElement} */ (h('input', { id: uid('port'), type: 'number', min: '1024', max: '65535', inputmode: 'numeric', style: 'max-width: 9rem' }));
  const https = /** @type {HTMLInputElement} */ (h('input', { id: uid('https'), type: 'checkbox', name: 'https' }));
  const certificate = h('div', { class: 'https-note' });
  const state = h('div', { class: 'results', role: 'status', 'aria-live': 'polite' });
  const apply = h('button', { type: 'button', class: 'btn btn-primary' }, 'Apply');
  /** @type {LanStatus | null} */
  let last = null;

  /** @param {LanStatus} status */
  function drawNetworks(status) {
    if (document.activeElement === network) return;
    const chosen = network.value || status.address || '';
    const options = status.interfaces.map((i) => h('option', { value: i.address }, `${i.address} (${i.name})`));
    if (options.length === 0) options.push(h('option', { value: '' }, 'No network: this PC is not connected'));
    replace(network, ...options);
    network.value = status.interfaces.some((i) => i.address === chosen) ? chosen : (status.interfaces[0]?.address ?? '');
  }

  /** @param {LanStatus} status */
  function draw(status) {
    last = status;
    toggle.checked = status.enabled;
    https.checked = status.https;
    if (document.activeElement !== port) port.value = String(status.port);
    drawCertificate(status);
    drawNetworks(status);
    const parts = [];
    if (status.changed) {
      parts.push(h('div', { class: 'form-error network-changed', role: 'alert' },
        h('p', {}, status.changed),
        h('p', {}, 'Choose the network above and turn the switch on again when this PC is on the shop\'s network.')));
    }
    if (status.error) {
      parts.push(h('p', { class: 'form-error', role: 'alert' }, status.error));
    }
    if (status.enabled && status.addresses.length > 0) {
      parts.push(h('p', {}, 'Point the tills and tablets at this address:'));
      parts.push(h('ul', { class: 'addresses' }, status.addresses.map((a) => h('li', {}, h('code', {}, a)))));
    } else if (!status.error && !status.changed) {
      parts.push(h('p', { class: 'muted' }, 'Only this computer can use the store now.'));
    }
    replace(state, ...parts);
    pairing.lan(status.enabled);
  }

  /** The one-time browser warning, in plain words, and the fingerprint to compare. @param {LanStatus} status */
  function drawCertificate(status) {
    if (!status.https) {
      replace(certificate, h('p', { class: 'muted' }, 'With HTTPS, what the tills and tablets send to this PC (keys and sales included) is encrypted on the shop\'s network.'));
      return;
    }
    replace(certificate,
      h('p', {}, 'The first time another PC or tablet opens the store, its browser warns that the connection is not private or the certificate is not trusted. That is expected: this PC made its own certificate, and no outside company vouches for it.'),
      h('p', {}, status.fingerprint
        ? 'Before you continue, open the certificate\'s details in the browser and check that its SHA-256 fingerprint is the one below. If it is, choose to continue (often under "Advanced"); the browser remembers it and does not ask again. If it is not, do not continue and ask the shop\'s manager.'
        : 'Before you continue, check the certificate\'s SHA-256 fingerprint: it is shown here once devices can use the store.'),
      status.fingerprint ? h('p', { class: 'mono fingerprint https-fingerprint' }, status.fingerprint) : null);
  }

  /** @param {boolean} enabled */
  async function set(enabled) {
    if (!invoke) return;
    const wanted = Number.parseInt(port.value, 10);
    const status = /** @type {LanStatus} */ (await invoke('set_lan', {
      enabled,
      port: Number.isFinite(wanted) ? wanted : null,
      address: network.value || null,
      https: https.checked,
    }));
    draw(status);
    if (!status.error) notify(enabled ? 'Devices on this network can use the store.' : 'Only this computer can use the store now.', 'ok');
  }

  toggle.addEventListener('change', () => { void set(toggle.checked); });
  apply.addEventListener('click', () => { void set(toggle.checked); });
  https.addEventListener('change', () => { void set(toggle.checked); });

  const pairing = pairPanel();
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Network'),
    h('div', { class: 'toolbar' },
      field('Let devices on this network use the store', toggle, 'Tills and tablets on the shop network reach the store through this PC. Each needs its own key, or pair it below.'),
      field('Network', network, 'The shop\'s network. The store is not offered on any other.'),
      field('Port', port),
      h('div', { class: 'field field-check' }, h('label', { for: https.id }, https, ' Use HTTPS (encrypted)')),
      apply,
    ),
    certificate,
    state,
    pairing.el,
  );

  return {
    el,
    focus: () => toggle.focus(),
    async load() {
      if (!invoke) {
        replace(state, h('p', { class: 'muted' }, 'Network settings are made in the desktop app on the counter PC.'));
        return;
      }
      const status = /** @type {LanStatus} */ (await invoke('get_lan_status'));
      // Redraw only on a change, so a person reading or choosing is not interrupted.
      if (JSON.stringify(status) !== JSON.stringify(last)) draw(status);
    },
  };
}

/**
 * "Pair a till" (the same form and panel as on the Keys page): the QR code a new till scans,
 * the code in large letters, a countdown. The address in it is this PC's on the chosen network.
 */
function pairPanel() {
  const start = h('button', { type: 'button', class: 'btn btn-primary', onclick: () => openPairing() }, 'Pair a till');
  const note = h('p', { class: 'muted' });
  const el = h('section', { class: 'lan-pair', 'aria-labelledby': 'pair-title' },
    h('h2', { id: 'pair-title' }, 'Pair a till'),
    h('p', {}, 'A new till or tablet signs itself in by scanning a code: no key to type.'),
    note,
    start);
  return {
    el,
    /** Says whether a till could reach this PC now. @param {boolean} on */
    lan(on) {
      replace(note, on ? '' : 'Turn on "Let devices on this network use the store" first: a till needs this PC\'s address on the shop network.');
    },
  };
}
