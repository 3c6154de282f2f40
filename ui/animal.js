//! Individual animals in the staff UI (interface 1.2): the animal record's fields (Add pet's
//! "This is one animal" switch and the record editor), the hold badge shown wherever a pet is
//! offered for sale, and the pet's Animal dialog: its record, its hold (set or cleared with a
//! last day and a reason) and its care log. The server's answer never shows a hold whose last
//! day has passed, so a pet with a `hold` is held now.

import * as api from './api.js';
import { h, field, uid, select } from './dom.js';
import { openDialog, formValues } from './dialog.js';
import { notify } from './notify.js';
import { careLog } from './carelog.js';
import { dayText, todayIso } from './animalrules.js';
import { BOUNDS } from './facts.js';

/**
 * @typedef {import('./types.js').Pet} Pet
 * @typedef {import('./types.js').Animal} Animal
 */

/** @type {Array<[string, string]>} */
export const SEX_OPTIONS = [['female', 'Female'], ['male', 'Male'], ['unknown', 'Not known']];

/**
 * The sentence a hold shows: its last day and its reason. Empty without a hold.
 * @param {Pet} pet
 */
export function holdText(pet) {
  return pet.hold ? `On hold until ${dayText(pet.hold.until)}: ${pet.hold.reason}` : '';
}

/**
 * The hold badge for a pet on hold (null otherwise): the last day on the badge, the reason
 * beside it, both read out.
 * @param {Pet} pet
 */
export function holdBadge(pet) {
  if (!pet.hold) return null;
  return h('span', { class: 'hold', 'data-hold': pet.hold.until },
    h('span', { class: 'badge badge-hold' }, `On hold until ${dayText(pet.hold.until)}`),
    h('span', { class: 'hold-reason' }, ` ${pet.hold.reason}`));
}

/**
 * The animal record's fields, filled from `animal`. `read()` gives the record to send (the
 * server validates it and names a field it refuses, which the dialog then marks).
 * @param {Animal | undefined} animal
 */
export function animalFields(animal) {
  const today = todayIso();
  const sex = select({ id: uid('sex'), name: 'animal.sex', required: true }, SEX_OPTIONS, animal?.sex ?? 'unknown');
  const date = (/** @type {string} */ name, /** @type {string | null | undefined} */ value) =>
    h('input', { id: uid(name), name: `animal.${name}`, type: 'date', max: today, value: value ?? '' });
  const text = (/** @type {string} */ name, /** @type {string | null | undefined} */ value, /** @type {number} */ max) =>
    h('input', { id: uid(name), name: `animal.${name}`, type: 'text', autocomplete: 'off', maxlength: String(max), value: value ?? '' });
  const bornOn = date('bornOn', animal?.bornOn);
  const breed = text('breed', animal?.breed, BOUNDS.breed.max);
  const colour = text('colour', animal?.colour, BOUNDS.breed.max);
  const microchip = h('input', { id: uid('microchip'), name: 'animal.microchip', type: 'text', inputmode: 'numeric', autocomplete: 'off', maxlength: '15', pattern: '[0-9]{15}', value: animal?.microchip ?? '' });
  const source = text('source', animal?.source, BOUNDS.animalSource.max);
  const arrivedOn = date('arrivedOn', animal?.arrivedOn);
  const el = h('fieldset', { class: 'animal-fields' },
    h('legend', {}, 'The animal'),
    h('div', { class: 'field-row' }, field('Sex', sex), field('Born on', bornOn), field('Arrived on', arrivedOn)),
    h('div', { class: 'field-row' }, field('Breed', breed), field('Colour', colour)),
    field('Microchip', microchip, '15 digits. Optional.'),
    field('Came from', source, 'The breeder or supplier. Optional.'),
  );
  /** @returns {Animal} */
  const read = () => {
    const v = (/** @type {HTMLElement} */ e) => /** @type {HTMLInputElement} */ (e).value.trim();
    /** @type {Record<string, string>} */
    const out = { sex: v(sex) };
    for (const [k, e] of /** @type {Array<[string, HTMLElement]>} */ ([['bornOn', bornOn], ['breed', breed], ['colour', colour], ['microchip', microchip], ['source', source], ['arrivedOn', arrivedOn]])) {
      if (v(e)) out[k] = v(e);
    }
    return /** @type {Animal} */ (/** @type {unknown} */ (out));
  };
  return { el, read };
}

/**
 * Add pet's "This is one animal" switch: it opens the animal fields, and the stock box then
 * takes 0 or 1 only (one individual).
 * @param {HTMLInputElement | null} stock  the "In stock now" box
 */
export function oneAnimalSwitch(stock) {
  const fields = animalFields(undefined);
  fields.el.hidden = true;
  const box = /** @type {HTMLInputElement} */ (h('input', { id: uid('one-animal'), type: 'checkbox' }));
  box.addEventListener('change', () => {
    fields.el.hidden = !box.checked;
    for (const c of fields.el.querySelectorAll('input, select')) /** @type {HTMLInputElement} */ (c).disabled = !box.checked;
    if (stock) {
      stock.max = box.checked ? '1' : '1000000';
      if (box.checked && Number(stock.value) > 1) stock.value = '1';
      if (box.checked && stock.value === '0') stock.value = '1';
    }
  });
  for (const c of fields.el.querySelectorAll('input, select')) /** @type {HTMLInputElement} */ (c).disabled = true;
  const el = h('div', { class: 'one-animal' },
    h('div', { class: 'field field-check' }, box, h('label', { for: box.id }, 'This is one animal'),
      h('small', { class: 'hint' }, 'A puppy, a kitten, a parrot: one individual with its own record and care log. Its stock is 0 or 1.')),
    fields.el);
  return { el, on: () => box.checked, read: fields.read };
}

/**
 * The pet's Animal dialog: the record (for staff, editable; a pet that is not an animal yet
 * can become one), the hold, and the care log with a form to add to it.
 * @param {Pet} pet
 * @param {{ canEdit: boolean }} o
 */
export function openAnimal(pet, o) {
  const fields = animalFields(pet.animal);
  const record = pet.animal || !o.canEdit ? null : oneAnimalSwitchFor(fields);
  if (!o.canEdit) for (const c of fields.el.querySelectorAll('input, select')) /** @type {HTMLInputElement} */ (c).disabled = true;
  const until = /** @type {HTMLInputElement} */ (h('input', { id: uid('hold-until'), name: 'hold.until', type: 'date', min: todayIso(), value: pet.hold?.until ?? '', disabled: !o.canEdit }));
  const reason = /** @type {HTMLInputElement} */ (h('input', { id: uid('hold-reason'), name: 'hold.reason', type: 'text', autocomplete: 'off', maxlength: '200', value: pet.hold?.reason ?? '', placeholder: 'e.g. Quarantine, reserved for a customer', disabled: !o.canEdit }));
  const clear = o.canEdit
    ? h('button', { type: 'button', class: 'btn btn-quiet', onclick: () => { until.value = ''; reason.value = ''; until.focus(); } }, 'Clear the hold')
    : null;
  const holdSet = h('fieldset', { class: 'hold-fields' },
    h('legend', {}, 'Hold'),
    h('p', { class: 'hint' }, pet.hold ? holdText(pet) + '. Orders and sales are refused until the end of that day.' : 'Not on hold. A hold refuses orders and sales until the end of its last day.'),
    h('div', { class: 'field-row' }, field('On hold until', until, 'The last day, included.'), field('Reason', reason)),
    clear);
  const log = careLog(pet, { canAdd: o.canEdit });
  void log.load();
  openDialog({
    title: pet.animal ? `${pet.name}: animal record and care` : `${pet.name}: animal record`,
    size: 'wide',
    context: { action: 'pet', name: pet.name },
    body: [record ? record.el : fields.el, holdSet, log.el],
    submitLabel: o.canEdit ? 'Save record and hold' : undefined,
    onSubmit: async (form) => {
      const v = formValues(form);
      /** @type {Record<string, unknown>} */
      const body = {};
      if (!record || record.on()) body.animal = fields.read();
      const u = v['hold.until'] ?? '';
      const r = v['hold.reason'] ?? '';
      if (u || r) {
        if (!u) throw new Error('Choose the hold’s last day, or clear the reason.');
        if (!r) throw new Error('Say why the pet is on hold (quarantine, reserved…).');
        body.hold = { until: u, reason: r };
      } else if (pet.hold) {
        body.hold = null;
      }
      const saved = await api.patch(`/pets/${pet.id}`, body);
      notify(saved?.hold ? `Saved ${pet.name}: on hold until ${dayText(saved.hold.until)}.` : `Saved ${pet.name}.`, 'ok');
    },
  });
}

/**
 * For a pet that is not an animal yet: the record's fields behind a "This is one animal" box.
 * @param {ReturnType<typeof animalFields>} fields
 */
function oneAnimalSwitchFor(fields) {
  const box = /** @type {HTMLInputElement} */ (h('input', { id: uid('is-animal'), type: 'checkbox' }));
  const toggle = () => {
    fields.el.hidden = !box.checked;
    for (const c of fields.el.querySelectorAll('input, select')) /** @type {HTMLInputElement} */ (c).disabled = !box.checked;
  };
  box.addEventListener('change', toggle);
  toggle();
  return {
    el: h('div', { class: 'one-animal' },
      h('div', { class: 'field field-check' }, box, h('label', { for: box.id }, 'This is one animal'),
        h('small', { class: 'hint' }, 'Its stock must then be 0 or 1.')),
      fields.el),
    on: () => box.checked,
  };
}
