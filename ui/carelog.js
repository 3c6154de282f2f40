//! An animal's care log (interface 1.2): its entries newest first, and a short form to add
//! one (the kind, a note, the vaccine or medicine, the weight, when this care is next due).
//! Entries are never changed or deleted, so the form only adds. Used in the pet's Animal
//! dialog; the Care page logs the common kinds with one tap through `recordCare`.

import * as api from './api.js';
import { h, field, uid, select, replace } from './dom.js';
import { notify } from './notify.js';
import { explain } from './messages.js';
import { shortTime } from './format.js';

/**
 * @typedef {import('./types.js').Pet} Pet
 * @typedef {import('./types.js').CareEntry} CareEntry
 * @typedef {import('./types.js').CareKind} CareKind
 */

/** The kinds of care, as the contract lists them, in a clerk's words. */
export const CARE_KINDS = /** @type {Array<[CareKind, string]>} */ ([
  ['fed', 'Fed'], ['health_check', 'Health check'], ['vaccination', 'Vaccination'],
  ['treatment', 'Treatment'], ['weight', 'Weighed'], ['note', 'Note'],
]);

/** @param {string} kind */
export function kindLabel(kind) {
  return CARE_KINDS.find(([k]) => k === kind)?.[1] ?? kind;
}

/** @param {number} grams */
export function weightText(grams) {
  return grams >= 1000 ? `${(grams / 1000).toLocaleString(undefined, { maximumFractionDigits: 2 })} kg` : `${grams} g`;
}

/**
 * Adds one entry to a pet's care log.
 * @param {number} petId
 * @param {{ kind: CareKind, note?: string, product?: string, weightGrams?: number, dueOn?: string }} entry
 * @returns {Promise<CareEntry>}
 */
export function recordCare(petId, entry) {
  return api.post(`/pets/${petId}/care`, entry);
}

/**
 * One entry as a list item: when, what, the details, who.
 * @param {CareEntry} e
 */
function entryItem(e) {
  const details = [
    e.product,
    typeof e.weightGrams === 'number' ? weightText(e.weightGrams) : null,
    e.note,
    e.dueOn ? `next due ${e.dueOn}` : null,
  ].filter(Boolean).join(' · ');
  return h('li', { class: 'care-entry', 'data-kind': e.kind },
    h('span', { class: 'care-when muted' }, shortTime(e.at)),
    h('strong', { class: 'care-kind' }, kindLabel(e.kind)),
    details ? h('span', { class: 'care-details' }, ` ${details}`) : null,
    e.keyName ? h('span', { class: 'care-who muted' }, ` — ${e.keyName}`) : null);
}

/**
 * The care log of `pet`: the newest 50 entries and, for staff, the form that adds one. The
 * form's controls carry no `name`, so the dialog around it does not send them; Enter in them
 * adds the entry instead of submitting that dialog.
 * @param {Pet} pet
 * @param {{ canAdd: boolean }} o
 */
export function careLog(pet, o) {
  const list = h('ol', { class: 'care-list', 'aria-live': 'polite', 'aria-label': `Care log of ${pet.name}` });
  const count = h('span', { class: 'muted' });
  const load = async () => {
    try {
      const page = await api.list(`/pets/${pet.id}/care`, { limit: 50 });
      const entries = /** @type {CareEntry[]} */ (page.items);
      count.textContent = page.total > entries.length ? ` (newest ${entries.length} of ${page.total})` : '';
      replace(list, entries.length ? entries.map(entryItem) : h('li', { class: 'muted' }, 'Nothing logged yet.'));
    } catch (err) {
      replace(list, h('li', { class: 'form-error' }, `The care log could not be loaded. ${explain(err)}`));
    }
  };
  const form = o.canAdd ? addForm(pet, load) : null;
  const el = h('section', { class: 'care-log', 'aria-label': 'Care log' },
    h('h3', {}, 'Care log', count),
    form,
    list);
  return { el, load };
}

/**
 * @param {Pet} pet
 * @param {() => Promise<void>} reload
 */
function addForm(pet, reload) {
  const kind = /** @type {HTMLSelectElement} */ (select({ id: uid('care-kind') }, CARE_KINDS, 'fed'));
  const note = /** @type {HTMLInputElement} */ (h('input', { id: uid('care-note'), type: 'text', autocomplete: 'off', maxlength: '1000' }));
  const product = /** @type {HTMLInputElement} */ (h('input', { id: uid('care-product'), type: 'text', autocomplete: 'off', maxlength: '100', placeholder: 'Vaccine or medicine' }));
  const weight = /** @type {HTMLInputElement} */ (h('input', { id: uid('care-weight'), type: 'number', inputmode: 'numeric', min: '1', max: '200000', step: '1' }));
  const dueOn = /** @type {HTMLInputElement} */ (h('input', { id: uid('care-due'), type: 'date' }));
  const error = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const add = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'btn btn-primary', onclick: () => void send() }, 'Add to care log'));
  const send = async () => {
    error.hidden = true;
    /** @type {{ kind: CareKind, note?: string, product?: string, weightGrams?: number, dueOn?: string }} */
    const entry = { kind: /** @type {CareKind} */ (kind.value) };
    if (note.value.trim()) entry.note = note.value.trim();
    if (product.value.trim()) entry.product = product.value.trim();
    if (weight.value.trim()) entry.weightGrams = Number(weight.value);
    if (dueOn.value) entry.dueOn = dueOn.value;
    add.disabled = true;
    try {
      await recordCare(pet.id, entry);
      notify(`${kindLabel(entry.kind)}: logged for ${pet.name}.`, 'ok');
      note.value = ''; product.value = ''; weight.value = ''; dueOn.value = '';
      await reload();
    } catch (err) {
      error.textContent = explain(err, { name: pet.name });
      error.hidden = false;
    } finally {
      add.disabled = false;
    }
  };
  const fields = h('div', { class: 'care-add' },
    h('div', { class: 'field-row' }, field('Kind', kind), field('Next due', dueOn, 'When this care is due again. Optional.')),
    h('div', { class: 'field-row' }, field('Vaccine or medicine', product), field('Weight (g)', weight)),
    field('Note', note),
    error,
    add);
  fields.addEventListener('keydown', (e) => {
    const ke = /** @type {KeyboardEvent} */ (e);
    if (ke.key === 'Enter' && !ke.isComposing && ke.target !== add) {
      // Not the dialog's Enter: that would save the record instead.
      e.preventDefault();
      e.stopPropagation();
      void send();
    }
  });
  return fields;
}
