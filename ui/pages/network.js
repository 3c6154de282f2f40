//! Network (desktop window only): "Let devices on this network use the store". The desktop
//! shell binds the server to the LAN on a fixed port, remembers the choice, and reports the
//! addresses POS devices should use, or why the port could not be used.

import { h, field, uid, replace } from '../dom.js';
import { notify } from '../notify.js';
import { pageHeader } from '../widgets.js';

export const title = 'Network';
/** @type {readonly string[]} */
export const watches = [];

/**
 * @typedef {object} LanStatus
 * @property {boolean} enabled
 * @property {number} port
 * @property {string[]} addresses
 * @property {string | null} error
 */

/** The desktop shell's commands, present only inside the desktop window. */
function shell() {
  const tauri = /** @type {any} */ (window).__TAURI__;
  return tauri?.core?.invoke ? /** @type {(cmd: string, args?: object) => Promise<LanStatus>} */ (tauri.core.invoke) : null;
}

/** Whether this page can work here. */
export function available() {
  return shell() !== null;
}

/** @param {import('../refresh.js').PageContext} _ctx */
export function mount(_ctx) {
  const invoke = shell();
  const toggle = /** @type {HTMLInputElement} */ (h('input', { id: uid('lan'), type: 'checkbox', role: 'switch' }));
  const port = /** @type {HTMLInputElement} */ (h('input', { id: uid('port'), type: 'number', min: '1024', max: '65535', inputmode: 'numeric', style: 'max-width: 9rem' }));
  const state = h('div', { class: 'results', role: 'status', 'aria-live': 'polite' });
  const apply = h('button', { type: 'button', class: 'btn btn-primary' }, 'Apply');

  /** @param {LanStatus} status */
  function draw(status) {
    toggle.checked = status.enabled;
    if (document.activeElement !== port) port.value = String(status.port);
    const parts = [];
    if (status.error) {
      parts.push(h('p', { class: 'form-error', role: 'alert' }, status.error));
    }
    if (status.enabled && status.addresses.length > 0) {
      parts.push(h('p', {}, 'Point the tills and tablets at one of these addresses:'));
      parts.push(h('ul', { class: 'addresses' }, status.addresses.map((a) => h('li', {}, h('code', {}, a)))));
    } else if (!status.error) {
      parts.push(h('p', { class: 'muted' }, 'Only this computer can use the store now.'));
    }
    replace(state, ...parts);
  }

  /** @param {boolean} enabled */
  async function set(enabled) {
    if (!invoke) return;
    const wanted = Number.parseInt(port.value, 10);
    const status = await invoke('set_lan', { enabled, port: Number.isFinite(wanted) ? wanted : null });
    draw(status);
    if (!status.error) notify(enabled ? 'Devices on this network can use the store.' : 'Only this computer can use the store now.', 'ok');
  }

  toggle.addEventListener('change', () => { void set(toggle.checked); });
  apply.addEventListener('click', () => { void set(toggle.checked); });

  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Network'),
    h('div', { class: 'toolbar' },
      field('Let devices on this network use the store', toggle, 'Tills and tablets on the shop network reach the store on this port. Each needs its own key.'),
      field('Port', port),
      apply,
    ),
    state,
  );

  return {
    el,
    focus: () => toggle.focus(),
    async load() {
      if (!invoke) {
        replace(state, h('p', { class: 'muted' }, 'Network settings are made in the desktop app on the counter PC.'));
        return;
      }
      draw(await invoke('get_lan_status'));
    },
  };
}
