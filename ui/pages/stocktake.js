//! Stocktake, made for a tablet: open a count, scan or search a pet, type what is on the
//! shelf, see the difference from what the store expected, and apply the counts when done.
//! Sales made while counting are kept: the server applies each count plus what moved since.
//!
//! Made for a scanner: Start puts the keyboard in the scan box; after a count is saved it goes
//! back there. A scan that lands in the count box (the clerk typed the count, then scanned the
//! next pet without pressing Enter) is taken as "save this count, then count the scanned pet".
//! A count far from what the store expects (670 for 67) is asked about once before it is saved,
//! and the pets not counted yet are listed.

import * as api from '../api.js';
import { h, field, replace } from '../dom.js';
import { confirmAction } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { explain } from '../messages.js';
import { scanBox } from '../scan.js';
import { table, pageHeader } from '../widgets.js';
import { signed, shortTime, matchesWords } from '../format.js';
import { unlikelyCount } from '../rules.js';

/** The most a count can be (the store's stock bound). */
const COUNT_MAX = 1_000_000;

/**
 * A count box's text read as "count, then a scanned code": the scanner's digits come after
 * what the clerk typed. The code is the longest GTIN-sized tail (8, 12, 13 or 14 digits) that
 * `known` accepts; null when the text is a plain count.
 * @param {string} text
 * @param {(code: string) => boolean} known
 * @returns {{ count: string, code: string } | null}
 */
export function splitScan(text, known) {
  if (!/^\d{8,}$/.test(text)) return null;
  for (const n of [14, 13, 12, 8]) {
    if (text.length < n) continue;
    const code = text.slice(text.length - n);
    if (known(code)) return { count: text.slice(0, text.length - n), code };
  }
  return null;
}

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

  /** The pet with this barcode (or SKU), from the page's list. @param {string} code */
  const byCode = (code) => [...pets.values()].find((p) => p.barcode === code || (p.sku ?? '').toLowerCase() === code.toLowerCase());

  /** @param {Pet} pet */
  async function pick(pet) {
    picked = pet;
    search.value = '';
    replace(matches);
    /** @type {number | undefined} */
    let expected;
    try {
      expected = (await api.get(`/store/inventory/${pet.id}`)).quantity;
    } catch (err) {
      notifyError(err);
    }
    const line = current?.lines.find((l) => l.petId === pet.id);
    const input = /** @type {HTMLInputElement} */ (h('input', {
      id: 'st-counted', type: 'text', inputmode: 'numeric', autocomplete: 'off', class: 'big-number',
      value: line ? String(line.counted) : '', 'aria-describedby': 'st-count-problem',
    }));
    // The refusal or the second look, under the box it is about.
    const problem = h('p', { id: 'st-count-problem', class: 'form-error', role: 'alert', hidden: true });
    /** The count a second look was asked for, so the same number again saves it. */
    let confirmed = '';
    /** @param {string} text */
    const refuse = (text) => {
      problem.textContent = text;
      problem.hidden = false;
      input.setAttribute('aria-invalid', 'true');
      input.focus();
      input.select();
    };
    input.addEventListener('input', () => {
      problem.hidden = true;
      input.removeAttribute('aria-invalid');
    });
    /** Saves the count in the box (or `typed`); then the next scanned pet, if one came. @param {string} [typed] @param {Pet} [next] */
    const save = async (typed, next) => {
      if (!current) return;
      const text = (typed ?? input.value).trim();
      if (text === '' && next) { void pick(next); return; }
      const n = Number(text);
      if (text === '' || !/^\d+$/.test(text) || n > COUNT_MAX) {
        refuse(`A count is a whole number from 0 to ${COUNT_MAX.toLocaleString('en-US')}${text ? `, not ${text.slice(0, 20)}` : ''}.`);
        return;
      }
      if (expected !== undefined && unlikelyCount(expected, n) && confirmed !== text) {
        confirmed = text;
        input.value = text;
        refuse(`${n.toLocaleString('en-US')} is far from the ${expected} the store expects. Check the shelf, then press Save count again to keep it.`);
        return;
      }
      try {
        const saved = /** @type {Line} */ (await api.put(`/store/stocktakes/${current.id}/lines/${pet.id}`, { counted: n }));
        notify(`${pet.name}: counted ${saved.counted}, ${saved.variance === 0 ? 'as expected' : `${signed(saved.variance)} against ${saved.expected} expected`}.`, saved.variance === 0 ? 'ok' : 'info', { group: 'count' });
        picked = null;
        replace(counter);
        await ctx.refresh();
        if (next) void pick(next);
        else scan.input.focus();
      } catch (err) {
        refuse(explain(err, { name: pet.name }));
      }
    };
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      // The next pet scanned into this box: save what was typed before it, then count that pet.
      const scanned = splitScan(input.value.trim(), (code) => Boolean(byCode(code)));
      const next = scanned ? byCode(scanned.code) : undefined;
      if (scanned && next) {
        if (next.id === pet.id) { input.value = scanned.count; return; }
        void save(scanned.count, next);
        return;
      }
      void save();
    });
    replace(counter,
      h('h2', { id: 'st-pet' }, pet.name),
      h('p', { class: 'muted' }, `The store expects ${expected ?? '…'}.${line ? ` Counted ${line.counted} before.` : ''}`),
      field('Counted on the shelf', input),
      problem,
      h('div', { class: 'row-actions' },
        h('button', { type: 'button', class: 'btn btn-primary btn-big', onclick: () => void save() }, 'Save count'),
        h('button', { type: 'button', class: 'btn btn-big', onclick: () => { picked = null; replace(counter); scan.input.focus(); } }, 'Cancel')),
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
      scan.input.focus();
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
    // What is still to count: every pet not counted yet, those the store expects on the shelf first.
    const counted = new Set(st.lines.map((l) => l.petId));
    const left = [...pets.values()].filter((p) => !counted.has(p.id));
    const notYet = left.length === 0 ? h('p', { class: 'muted st-left' }, 'Every pet is counted.')
      : h('details', { class: 'st-left' },
        h('summary', {}, `Not counted yet: ${left.length}`),
        h('ul', { class: 'st-left-list' }, left.slice(0, 500).map((p) => h('li', {},
          h('button', { type: 'button', class: 'btn btn-quiet', onclick: () => pick(p) }, p.name)))));
    replace(results,
      h('p', { class: 'muted' }, `Stocktake #${st.id}, started ${shortTime(st.createdAt)}. ${st.lines.length} counted.`),
      h('div', { class: 'st-find' }, scan.el, field('Or search a pet', search), matches),
      counter,
      table('Counted pets', ['Pet', { label: 'Counted', class: 'num' }, { label: 'Expected', class: 'num' }, { label: 'Difference', class: 'num' }, 'When', 'Recount'], rows, 'Nothing counted yet.'),
      notYet,
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
