//! The scan box: a barcode scanner types the digits and Enter, so this is a text field that
//! acts on Enter. A code of digits is looked up as a barcode, anything else as a SKU; the
//! page says what to do with the pet found, or with a code nobody has yet.

import * as api from './api.js';
import { h, field } from './dom.js';
import { notifyError } from './notify.js';

/**
 * @typedef {import('./types.js').Pet} Pet
 * @typedef {object} ScanOptions
 * @property {string} id                      the input's id
 * @property {string} [label]
 * @property {(pet: Pet, code: string) => void} onFound
 * @property {(code: string, kind: 'barcode' | 'sku') => void} onMissing
 * @property {(code: string) => Pet | undefined} [local]  a pet the page already holds, found at
 *   once (no request, so keys typed right after the scan's Enter follow the page there)
 */

/**
 * The pet a code names: by barcode when it is all digits, else by SKU; null when none.
 * @param {string} code
 * @returns {Promise<Pet | null>}
 */
export async function findByCode(code) {
  const kind = /^\d+$/.test(code) ? 'barcode' : 'sku';
  const { items } = await api.list('/pets', { [kind]: code, limit: 1 });
  return items[0] ?? null;
}

/** @param {ScanOptions} o */
export function scanBox(o) {
  const input = /** @type {HTMLInputElement} */ (h('input', {
    id: o.id, type: 'text', inputmode: 'numeric', autocomplete: 'off', spellcheck: 'false',
    placeholder: 'Scan, or type a code', enterkeyhint: 'go', 'data-scan': true,
    // A page redrawn by another till's change puts the box back: the focus follows it, so a
    // scan typed across the redraw is not lost.
    'data-focus-key': o.id, class: 'scan-input',
  }));
  const status = h('span', { class: 'scan-status muted', role: 'status' });
  input.addEventListener('keydown', async (e) => {
    if (e.key !== 'Enter' || e.isComposing) return;
    e.preventDefault();
    const code = input.value.trim();
    if (!code) return;
    const held = o.local?.(code);
    if (held) {
      input.value = '';
      status.textContent = `Found ${held.name}.`;
      o.onFound(held, code);
      return;
    }
    status.textContent = `Looking up ${code}…`;
    try {
      const pet = await findByCode(code);
      input.value = '';
      if (pet) {
        status.textContent = `Found ${pet.name}.`;
        o.onFound(pet, code);
      } else {
        status.textContent = `No pet has ${code}.`;
        o.onMissing(code, /^\d+$/.test(code) ? 'barcode' : 'sku');
      }
    } catch (err) {
      status.textContent = '';
      notifyError(err);
    }
  });
  const el = h('div', { class: 'scan' }, field(o.label ?? 'Scan', input), status);
  return { el, input };
}
