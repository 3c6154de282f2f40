//! Care: what care is due and overdue, by animal, for a tablet in the animal room (820×1180,
//! big targets). Each animal's card shows its name, species (its category), age and hold,
//! and each due kind of care with one tap to log it: "Fed" and "Checked" log at once and keep
//! the animal's rhythm (the next due date is as far from today as the last one was from its
//! entry); vaccinations, treatments and weighing open a short form. The page follows the
//! event stream, so a tap on another tablet shows here too.

import * as api from '../api.js';
import { h, field, uid, select, replace } from '../dom.js';
import { openDialog, formValues } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { categoryNames, petsById } from '../lookups.js';
import { pageHeader } from '../widgets.js';
import { holdBadge } from '../animal.js';
import { ageText, dayText, dueText, nextDue, todayIso } from '../animalrules.js';
import { kindLabel, recordCare } from '../carelog.js';

/**
 * @typedef {import('../types.js').DueCare} DueCare
 * @typedef {import('../types.js').CareKind} CareKind
 * @typedef {import('../types.js').Pet} Pet
 */

export const title = 'Care';
/** Care logged anywhere, and pets changed (a hold, a sale), change this page. */
export const watches = ['care.', 'pet.'];

const state = { within: '0' };

/** What one tap logs, by kind: the button's words. Other kinds open a form. */
const ONE_TAP = /** @type {Partial<Record<CareKind, string>>} */ ({ fed: 'Fed', health_check: 'Checked', note: 'Done' });

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  const canLog = ctx.can('stock');
  const within = select({ id: 'care-within' }, [['0', 'Today and overdue'], ['3', 'Next 3 days'], ['7', 'Next 7 days']], state.within);
  within.addEventListener('change', () => {
    state.within = /** @type {HTMLSelectElement} */ (within).value;
    ctx.refresh();
  });
  const results = h('div', { class: 'results care-results' });
  const el = h('section', { class: 'page care-page', 'aria-labelledby': 'page-title' },
    pageHeader('Care'),
    h('div', { class: 'toolbar', role: 'group', 'aria-label': 'Which care' }, field('Show', within)),
    results);

  /** Taps in flight, by `petId kind`, so a second tap does not log twice. */
  const busy = new Set();

  /** @param {DueCare} due @param {Pet | undefined} pet @param {HTMLButtonElement} button */
  async function oneTap(due, pet, button) {
    const key = `${due.petId} ${due.kind}`;
    if (busy.has(key)) return;
    busy.add(key);
    button.disabled = true;
    const next = nextDue(due);
    try {
      await recordCare(due.petId, { kind: due.kind, dueOn: next });
      const item = button.closest('.care-due');
      item?.classList.add('care-done');
      replace(button, `${ONE_TAP[due.kind]} ✓`);
      notify(`${pet?.name ?? due.name}: ${kindLabel(due.kind).toLowerCase()} logged, next due ${dayText(next)}.`, 'ok', { group: `care-${key}` });
      ctx.refresh();
    } catch (err) {
      button.disabled = false;
      notifyError(err, { name: pet?.name ?? due.name });
    } finally {
      busy.delete(key);
    }
  }

  /** A vaccination, treatment or weighing: the short form. @param {DueCare} due @param {Pet | undefined} pet */
  function logForm(due, pet) {
    const name = pet?.name ?? due.name;
    const weighing = due.kind === 'weight';
    const product = weighing ? null : h('input', { id: uid('product'), name: 'product', type: 'text', autocomplete: 'off', maxlength: '100', autofocus: true });
    const grams = weighing ? h('input', { id: uid('grams'), name: 'weightGrams', type: 'number', inputmode: 'numeric', min: '1', max: '200000', step: '1', required: true, autofocus: true }) : null;
    const next = h('input', { id: uid('due'), name: 'dueOn', type: 'date', min: todayIso(), value: nextDue(due) });
    const note = h('input', { id: uid('note'), name: 'note', type: 'text', autocomplete: 'off', maxlength: '1000' });
    openDialog({
      title: `${kindLabel(due.kind)}: ${name}`,
      size: 'narrow',
      context: { name },
      body: [
        product ? field(due.kind === 'vaccination' ? 'Vaccine' : 'Medicine', product, 'Optional.') : null,
        grams ? field('Weight in grams', grams) : null,
        field('Next due', next, 'Empty: not due again.'),
        field('Note', note, 'Optional.'),
      ],
      submitLabel: 'Log it',
      onSubmit: async (form) => {
        const v = formValues(form);
        /** @type {{ kind: CareKind, note?: string, product?: string, weightGrams?: number, dueOn?: string }} */
        const entry = { kind: due.kind };
        if (v.product) entry.product = v.product;
        if (v.weightGrams) entry.weightGrams = Number(v.weightGrams);
        if (v.dueOn) entry.dueOn = v.dueOn;
        if (v.note) entry.note = v.note;
        await recordCare(due.petId, entry);
        notify(`${name}: ${kindLabel(due.kind).toLowerCase()} logged.`, 'ok');
        ctx.refresh();
      },
    });
  }

  /** @param {DueCare} due @param {Pet | undefined} pet */
  function dueItem(due, pet) {
    const tap = ONE_TAP[due.kind];
    const label = tap ?? `Log ${kindLabel(due.kind).toLowerCase()}…`;
    const button = /** @type {HTMLButtonElement} */ (h('button', {
      type: 'button', class: `btn btn-care${tap ? ' btn-primary' : ''}`, 'data-kind': due.kind,
      'aria-label': `${label.replace('…', '')}: ${pet?.name ?? due.name}`,
    }, label));
    button.addEventListener('click', () => (tap ? void oneTap(due, pet, button) : logForm(due, pet)));
    return h('li', { class: `care-due${due.overdueDays > 0 ? ' care-overdue' : ''}`, 'data-kind': due.kind },
      h('span', { class: 'care-due-what' },
        h('strong', {}, kindLabel(due.kind)),
        h('span', { class: `care-due-when${due.overdueDays > 0 ? ' overdue' : ''}` }, dueText(due))),
      canLog ? button : null);
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    focus: () => /** @type {HTMLElement} */ (results.querySelector('button.btn-care') ?? within).focus(),
    async load() {
      const due = /** @type {DueCare[]} */ (await api.get('/store/care/due', { within: state.within }));
      // By animal, in the order the most pressing care comes (the server sorts by dueOn).
      /** @type {Map<number, DueCare[]>} */
      const byPet = new Map();
      for (const d of due) byPet.set(d.petId, [...(byPet.get(d.petId) ?? []), d]);
      const [pets, cats] = await Promise.all([petsById([...byPet.keys()].slice(0, 500)), categoryNames()]);
      const overdue = due.filter((d) => d.overdueDays > 0).length;
      const cards = [...byPet].map(([petId, items]) => {
        const pet = pets.get(petId);
        const age = ageText(pet?.animal?.bornOn);
        const species = pet ? cats.get(pet.categoryId) : undefined;
        return h('article', { class: 'care-card', 'data-pet-id': String(petId), 'aria-labelledby': `care-pet-${petId}` },
          h('header', { class: 'care-card-head' },
            h('h2', { id: `care-pet-${petId}` }, pet?.name ?? items[0].name),
            h('p', { class: 'muted' }, [species, age, pet?.animal?.breed].filter(Boolean).join(' · ')),
            pet ? holdBadge(pet) : null),
          h('ul', { class: 'care-due-list' }, items.map((d) => dueItem(d, pet))));
      });
      replace(results,
        h('p', { class: 'care-summary', 'aria-live': 'polite' },
          due.length === 0
            ? (state.within === '0' ? 'Nothing is due today. Every animal is cared for.' : 'Nothing is due in these days.')
            : `${due.length} to do for ${byPet.size === 1 ? '1 animal' : `${byPet.size} animals`}${overdue ? `, ${overdue} overdue` : ''}.`),
        h('div', { class: 'care-cards' }, cards));
    },
  };
  return view;
}
