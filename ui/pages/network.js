//! Network (desktop window only): "Let devices on this network use the store", on the one
//! network the shop chooses, and "Pair a till". The desktop shell serves the store on this
//! PC's address on that network (never on every network), remembers the choice, and stops
//! serving by itself when the network changes (the page then says why and asks again).

import * as api from '../api.js';
import { h, field, uid, replace, select } from '../dom.js';
import { notify } from '../notify.js';
import { explain } from '../messages.js';
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
 * @property {string[]} addresses      http://IP:PORT for the devices, while enabled
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
    if (document.activeElement !== port) port.value = String(status.port);
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

  /** @param {boolean} enabled */
  async function set(enabled) {
    if (!invoke) return;
    const wanted = Number.parseInt(port.value, 10);
    const status = /** @type {LanStatus} */ (await invoke('set_lan', {
      enabled,
      port: Number.isFinite(wanted) ? wanted : null,
      address: network.value || null,
    }));
    draw(status);
    if (!status.error) notify(enabled ? 'Devices on this network can use the store.' : 'Only this computer can use the store now.', 'ok');
  }

  toggle.addEventListener('change', () => { void set(toggle.checked); });
  apply.addEventListener('click', () => { void set(toggle.checked); });

  const pairing = pairPanel();
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Network'),
    h('div', { class: 'toolbar' },
      field('Let devices on this network use the store', toggle, 'Tills and tablets on the shop network reach the store through this PC. Each needs its own key, or pair it below.'),
      field('Network', network, 'The shop\'s network. The store is not offered on any other.'),
      field('Port', port),
      apply,
    ),
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
 * "Pair a till": a one-time code for a new till or tablet, shown as a QR code to scan, the
 * code in large letters to type, and the time left.
 */
function pairPanel() {
  const name = /** @type {HTMLInputElement} */ (h('input', { id: uid('pair-name'), name: 'name', required: true, maxlength: '100', placeholder: 'Till 2', autocomplete: 'off' }));
  const role = /** @type {HTMLSelectElement} */ (select({ id: uid('pair-role'), name: 'role' },
    [['pos', 'Till: sells'], ['staff', 'Staff: sells and changes stock'], ['readonly', 'Read only']], 'pos'));
  const start = /** @type {HTMLButtonElement} */ (h('button', { type: 'submit', class: 'btn btn-primary' }, 'Pair a till'));
  const note = h('p', { class: 'muted' });
  const out = h('div', { class: 'lan-pair-out', 'aria-live': 'polite' });
  let timer = 0;

  const form = h('form', { class: 'toolbar', onsubmit: (/** @type {Event} */ e) => { e.preventDefault(); void open(); } },
    field('Name of the till', name), field('What it may do', role), start);

  async function open() {
    window.clearInterval(timer);
    const label = name.value.trim() || 'Till';
    start.disabled = true;
    try {
      const plan = role.value === 'pos' ? 'pro' : 'business';
      const pairing = /** @type {{code: string, expiresAt: string, url: string}} */ (await api.post('/admin/pairings', { name: label, role: role.value, plan }));
      const svg = await (await api.download(`/admin/pairings/${encodeURIComponent(pairing.code)}/qr.svg`, undefined, 'image/svg+xml')).text();
      const img = h('img', { class: 'lan-pair-qr', alt: `QR code for pairing ${label}`, width: '240', height: '240', src: `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}` });
      const left = h('p', { class: 'lan-pair-left' });
      const tick = () => {
        const ms = Date.parse(pairing.expiresAt) - Date.now();
        if (ms <= 0) {
          window.clearInterval(timer);
          replace(left, 'This code has expired. Make a new one.');
          img.setAttribute('hidden', '');
          return;
        }
        const s = Math.ceil(ms / 1000);
        replace(left, `Expires in ${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`);
      };
      replace(out,
        h('div', { class: 'lan-pair-card' },
          img,
          h('div', {},
            h('p', {}, `On ${label}, scan this QR code with the camera, or open the address below and type the code.`),
            h('p', { class: 'lan-pair-code', 'aria-label': `Code ${pairing.code.split('').join(' ')}` }, pairing.code),
            left,
            h('p', {}, h('code', { class: 'lan-pair-url' }, pairing.url)),
            h('p', { class: 'muted' }, 'The code works once, for 10 minutes.'))));
      tick();
      timer = window.setInterval(tick, 1000);
      out.scrollIntoView({ block: 'nearest' });
    } catch (err) {
      replace(out, h('p', { class: 'form-error', role: 'alert' }, explain(err)));
    } finally {
      start.disabled = false;
    }
  }

  const el = h('section', { class: 'lan-pair', 'aria-labelledby': 'pair-title' },
    h('h2', { id: 'pair-title' }, 'Pair a till'),
    h('p', {}, 'A new till or tablet signs itself in by scanning a code: no key to type.'),
    note, form, out);

  return {
    el,
    /** Says whether a till could reach this PC now. @param {boolean} on */
    lan(on) {
      replace(note, on ? '' : 'Turn on "Let devices on this network use the store" first: a till needs this PC\'s address on the shop network.');
    },
  };
}
