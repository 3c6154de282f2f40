//! Stocktake, made for a tablet: open a count, scan or search a pet, type what is on the
//! shelf, see the difference from what the store expected, and apply the counts when done.
//! Sales made while counting are kept: the server applies each count plus what moved since.

import * as api from '../api.js';
import { h, field, replace } from '../dom.js';
import { confirmAction } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { scanBox } from '../scan.js';
import { table, pageHeader } from '../widgets.js';
import { signed, shortTime, matchesWords } from '../format.js';

/**
 * @typedef {import('../types.js').Pet} Pet
 * @typedef {{ petId: number, counted: number, countedAt: string, expected: number, variance: number }} Line
 * @typedef {{ id: number, status: 'open' | 'applied', note: string | null, createdAt: string, appliedAt?: string, lines: Line[] }} Stocktake
 */

export const title = 'Stocktake';
export const watches = ['stocktake.', 'pet.'];

/** The stocktake being counted on this device. */
const state = { id: 0 };

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  /** @type {Stocktake | null} */
  let current = null;
  /** @type {Map<number, Pet>} */
  let pets = new Map();
  /** @type {Pet | null} */
  let picked = null;

  const results = h('div', { class: 'results' });
  const counter = h('div', { class: 'count-panel', 'aria-live': 'polite' });
  const search = /** @type {HTMLInputElement} */ (h('input', { id: 'st-search', type: 'search', autocomplete: 'off', placeholder: 'e.g. neon tetra', 'data-search': true, 'data-focus-key': 'st-search' }));
  const matches = h('div', { class: 'st-matches' });
  search.addEventListener('input', () => drawMatches());
  const scan = scanBox({
    id: 'st-scan',
    label: 'Scan a barcode',
    onFound: (pet) => pick(pet),
    onMissing: (code) => notify(`No pet has the code ${code}. Add it on the Pets page first.`, 'error'),
  });

  const el = h('section', { class: 'page stocktake', 'aria-labelledby': 'page-title' },
    pageHeader('Stocktake'),
    results,
  );

  /** @param {Pet} pet */
  async function pick(pet) {
    picked = pet;
    search.value = '';
    replace(matches);
    let expected = '…';
    try {
      expected = String((await api.get(`/store/inventory/${pet.id}`)).quantity);
    } catch (err) {
      notifyError(err);
    }
    const line = current?.lines.find((l) => l.petId === pet.id);
    const input = /** @type {HTMLInputElement} */ (h('input', {
      id: 'st-counted', type: 'number', inputmode: 'numeric', min: '0', max: '1000000', step: '1',
      value: line ? String(line.counted) : '', autocomplete: 'off', class: 'big-number',
    }));
    const save = async () => {
      if (!current || input.value === '') return;
      try {
        const saved = /** @type {Line} */ (await api.put(`/store/stocktakes/${current.id}/lines/${pet.id}`, { counted: Number(input.value) }));
        notify(`${pet.name}: counted ${saved.counted}, ${saved.variance === 0 ? 'as expected' : `${signed(saved.variance)} against ${saved.expected} expected`}.`, saved.variance === 0 ? 'ok' : 'info', { group: 'count' });
        picked = null;
        replace(counter);
        await ctx.refresh();
        scan.input.focus();
      } catch (err) {
        notifyError(err);
      }
    };
    input.addEventListener('keydown', (e) => { if (e.key === 'Enter') { e.preventDefault(); save(); } });
    replace(counter,
      h('h2', { id: 'st-pet' }, pet.name),
      h('p', { class: 'muted' }, `The store expects ${expected}.${line ? ` Counted ${line.counted} before.` : ''}`),
      field('Counted on the shelf', input),
      h('div', { class: 'row-actions' },
        h('button', { type: 'button', class: 'btn btn-primary btn-big', onclick: save }, 'Save count'),
        h('button', { type: 'button', class: 'btn btn-big', onclick: () => { picked = null; replace(counter); } }, 'Cancel')),
    );
    input.focus();
  }

  function drawMatches() {
    const q = search.value.trim();
    if (!q) return replace(matches);
    const found = [...pets.values()].filter((p) => matchesWords(q, [p.name, p.sku ?? '', p.barcode ?? ''])).slice(0, 8);
    replace(matches, found.length
      ? h('ul', { class: 'match-list' }, found.map((p) => h('li', {}, h('button', { type: 'button', class: 'btn btn-big match', onclick: () => pick(p) }, p.name))))
      : h('p', { class: 'muted' }, 'No pet matches.'));
  }

  async function start() {
    try {
      const created = /** @type {Stocktake} */ (await api.post('/store/stocktakes', {}));
      state.id = created.id;
      notify('Stocktake started: scan or search each pet and type what is on the shelf.', 'ok');
      await ctx.refresh();
    } catch (err) {
      notifyError(err);
    }
  }

  function apply() {
    if (!current) return;
    const st = current;
    confirmAction({
      title: 'Apply the counts?',
      message: `Each of the ${st.lines.length} counted pets gets its count as stock, plus any sales made since it was counted.`,
      confirmLabel: 'Apply counts',
      cancelLabel: 'Keep counting',
      onConfirm: async () => {
        await api.post(`/store/stocktakes/${st.id}/apply`, {});
        state.id = 0;
        notify('Counts applied to the stock.', 'ok');
      },
    });
  }

  function discard() {
    if (!current) return;
    const st = current;
    confirmAction({
      title: 'Discard this stocktake?',
      message: 'The counts are thrown away; the stock does not change.',
      confirmLabel: 'Discard',
      cancelLabel: 'Keep it',
      onConfirm: async () => {
        await api.del(`/store/stocktakes/${st.id}`);
        state.id = 0;
        notify('Stocktake discarded.', 'ok');
      },
    });
  }

  function draw() {
    if (!ctx.can('stock')) {
      replace(results, h('p', {}, 'Counting stock needs a staff key.'));
      return;
    }
    if (!current) {
      replace(results,
        h('p', { class: 'lead' }, 'Count the shelves while the shop keeps selling: sales made during the count are kept.'),
        h('button', { type: 'button', class: 'btn btn-primary btn-big', id: 'st-start', onclick: start }, 'Start a stocktake'));
      return;
    }
    const st = current;
    const rows = [...st.lines].reverse().map((l) => h('tr', {},
      h('th', { scope: 'row' }, pets.get(l.petId)?.name ?? `Pet #${l.petId}`),
      h('td', { class: 'num' }, String(l.counted)),
      h('td', { class: 'num' }, String(l.expected)),
      h('td', { class: `num ${l.variance < 0 ? 'neg' : l.variance > 0 ? 'pos' : ''}` }, signed(l.variance)),
      h('td', { class: 'muted' }, shortTime(l.countedAt)),
      h('td', {}, h('button', { type: 'button', class: 'btn', onclick: () => { const p = pets.get(l.petId); if (p) pick(p); } }, 'Recount')),
    ));
    replace(results,
      h('p', { class: 'muted' }, `Stocktake #${st.id}, started ${shortTime(st.createdAt)}. ${st.lines.length} counted.`),
      h('div', { class: 'st-find' }, scan.el, field('Or search a pet', search), matches),
      counter,
      table('Counted pets', ['Pet', { label: 'Counted', class: 'num' }, { label: 'Expected', class: 'num' }, { label: 'Difference', class: 'num' }, 'When', ''], rows, 'Nothing counted yet.'),
      h('div', { class: 'row-actions' },
        h('button', { type: 'button', class: 'btn btn-primary btn-big', id: 'st-apply', disabled: st.lines.length === 0, onclick: apply }, 'Apply counts'),
        h('button', { type: 'button', class: 'btn btn-danger-quiet btn-big', onclick: discard }, 'Discard')),
    );
    if (picked && !counter.childElementCount) pick(picked);
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    focus: () => (current ? scan.input.focus() : /** @type {HTMLElement | null} */ (el.querySelector('#st-start'))?.focus()),
    async load() {
      if (!ctx.can('stock')) return draw();
      const [list, all] = await Promise.all([api.list('/store/stocktakes', { limit: 20 }), api.listAll('/pets', { sort: 'name' })]);
      pets = new Map(all.map((/** @type {Pet} */ p) => [p.id, p]));
      const open = /** @type {Stocktake[]} */ (list.items).filter((s) => s.status === 'open');
      current = open.find((s) => s.id === state.id) ?? open[0] ?? null;
      if (current) state.id = current.id;
      draw();
    },
  };
  return view;
}
