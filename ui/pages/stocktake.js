//! Stocktake, made for a tablet: open a count, scan or search a pet, type what is on the
//! shelf, see the difference from what the store expected, and apply the counts when done.
//! Sales made while counting are kept: the server applies each count plus what moved since,
//! and the table says what Apply will set, kept current by the store's events.
//!
//! Made for a scanner, so a scan never becomes a count:
//! - Start puts the keyboard in the scan box. A code the page already holds is found at once,
//!   so the count typed right after the scan lands in the count box.
//! - A scan that lands in the count box (the clerk typed the count, then scanned the next pet
//!   without pressing Enter) is taken as "save this count, then count the scanned pet"; a code
//!   no pet has is named at the box, and the count typed before it is kept.
//! - A saved count moves the keyboard on at once (to the next pet, or back to the scan box);
//!   the count is sent in the background, one at a time, and a refusal names the pet.
//! - A redraw (another till's sale, a pet changed) never moves the boxes, so the keyboard
//!   stays where the clerk is typing.
//! A count far from what the store expects (670 for 67) is asked about once before it is
//! saved, a refused count is shown at its highlighted box, and the pets not counted yet are
//! listed.

import * as api from '../api.js';
import { h, field, replace } from '../dom.js';
import { confirmAction } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { explain } from '../messages.js';
import { scanBox } from '../scan.js';
import { table, pageHeader } from '../widgets.js';
import { signed, shortTime, matchesWords } from '../format.js';
import { unlikelyCount } from '../rules.js';
import { readCountBox } from '../countscan.js';
import { stockFor } from '../lookups.js';
import { BOUNDS } from '../facts.js';

/** The most a count can be (the store's stock bound). */
const COUNT_MAX = BOUNDS.stock.max;

/**
 * @typedef {import('../types.js').Pet} Pet
 * @typedef {{ petId: number, counted: number, countedAt: string, expected: number, variance: number }} Line
 * @typedef {{ id: number, status: 'open' | 'applied', note: string | null, createdAt: string, appliedAt?: string, lines: Line[] }} Stocktake
 */

export const title = 'Stocktake';
export const watches = ['stocktake.', 'pet.', 'inventory.'];

/** The stocktake being counted on this device. */
const state = { id: 0 };

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  /** @type {Stocktake | null} */
  let current = null;
  /** @type {Map<number, Pet>} */
  let pets = new Map();
  /** Stock now, by pet id, for the pets counted and the one being counted; events keep it current. */
  /** @type {Map<number, number>} */
  const stock = new Map();
  /** Counts accepted here and still on their way to the server, by pet id. */
  /** @type {Map<number, number>} */
  const sending = new Map();
  /** The counts' requests, one after another, so a recount never overtakes the count before it. */
  let queue = Promise.resolve();
  /** @type {Pet | null} */
  let picked = null;
  /** Which pick is the newest: an older one that finishes late draws nothing. */
  let picks = 0;
  /** Tells the count box that the stock of its pet moved. */
  let stockMoved = () => {};
  /**
   * Each pet's last stock event, numbered in the order they came: a figure read from the store
   * loses to an event that came after it was asked for, as the read may have left before the
   * sale the event tells of.
   */
  let seen = 0;
  /** @type {Map<number, { at: number, quantity: number }>} */
  const moved = new Map();
  /** Keeps a figure read from the store, or the event's if one came since. @param {number} petId @param {number} quantity @param {number} asked  `seen` when it was asked for */
  const readStock = (petId, quantity, asked) => {
    const last = moved.get(petId);
    stock.set(petId, last && last.at > asked ? last.quantity : quantity);
  };

  const results = h('div', { class: 'results' });
  const counter = h('div', { class: 'count-panel', 'aria-live': 'polite' });
  const search = /** @type {HTMLInputElement} */ (h('input', { id: 'st-search', type: 'search', autocomplete: 'off', placeholder: 'e.g. neon tetra', 'data-search': true, 'data-focus-key': 'st-search' }));
  const matches = h('div', { class: 'st-matches' });
  search.addEventListener('input', () => drawMatches());

  /** The pet with this barcode (or SKU, in any case), from the page's list. @param {string} code */
  const byCode = (code) => {
    const c = code.trim().toLowerCase();
    return c ? [...pets.values()].find((p) => p.barcode === c || (p.sku ?? '').toLowerCase() === c) : undefined;
  };
  const scan = scanBox({
    id: 'st-scan',
    label: 'Scan a barcode',
    local: byCode,
    onFound: (pet) => pick(pet),
    onMissing: (code) => notify(`No pet has the code ${code}. Add it on the Pets page first.`, 'error'),
  });

  // The parts of the page, made once: a redraw changes what is in them, never where they are.
  const summary = h('p', { class: 'muted', id: 'st-summary' });
  const linesBox = h('div', { class: 'st-lines' });
  const leftSummary = h('summary', {});
  const leftList = h('ul', { class: 'st-left-list' });
  const left = h('details', { class: 'st-left' }, leftSummary, leftList);
  const allCounted = h('p', { class: 'muted st-left' }, 'Every pet is counted.');
  const applyButton = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'btn btn-primary btn-big', id: 'st-apply', onclick: apply }, 'Apply counts'));
  const counting = h('div', { class: 'st-counting' },
    summary,
    h('div', { class: 'st-find' }, scan.el, field('Or search a pet', search), matches),
    counter,
    linesBox,
    left,
    allCounted,
    h('div', { class: 'row-actions' },
      applyButton,
      h('button', { type: 'button', class: 'btn btn-danger-quiet btn-big', onclick: discard }, 'Discard')));
  const starting = h('div', { class: 'st-starting' },
    h('p', { class: 'lead' }, 'Count the shelves while the shop keeps selling: sales made during the count are kept.'),
    h('button', { type: 'button', class: 'btn btn-primary btn-big', id: 'st-start', onclick: start }, 'Start a stocktake'));
  const noRole = h('p', {}, 'Counting stock needs a staff key.');

  const el = h('section', { class: 'page stocktake', 'aria-labelledby': 'page-title' },
    pageHeader('Stocktake'),
    results,
  );

  /** Closes the count box (a pick still loading is dropped). */
  function closeCounter() {
    picks += 1;
    picked = null;
    stockMoved = () => {};
    replace(counter);
  }

  /**
   * Opens the count box for a pet, with the keyboard in it at once; the store's figure follows.
   * @param {Pet} pet
   */
  function pick(pet) {
    const mine = ++picks;
    picked = pet;
    search.value = '';
    replace(matches);
    const before = current?.lines.find((l) => l.petId === pet.id)?.counted ?? sending.get(pet.id);
    /** What the store expects on the shelf: its stock now. */
    let expected = /** @type {number | undefined} */ (undefined);
    let moved = false;
    const expects = h('p', { class: 'muted', id: 'st-expects' });
    const drawExpects = () => {
      expects.textContent = `The store expects ${expected ?? '…'}.${moved ? ' It changed while you counted: a sale or a delivery.' : ''}${before !== undefined ? ` Counted ${before} before.` : ''}`;
    };
    drawExpects();
    const asked = seen;
    const ready = api.get(`/store/inventory/${pet.id}`).then((/** @type {{ quantity: number }} */ it) => {
      readStock(pet.id, it.quantity, asked);
      if (mine !== picks) return;
      expected = stock.get(pet.id) ?? it.quantity;
      drawExpects();
    }, (/** @type {unknown} */ err) => { if (mine === picks) notifyError(err); });
    stockMoved = () => {
      const now = stock.get(pet.id);
      if (expected === undefined || now === undefined || now === expected) return;
      expected = now;
      moved = true;
      drawExpects();
    };

    const input = /** @type {HTMLInputElement} */ (h('input', {
      id: 'st-counted', type: 'text', inputmode: 'numeric', autocomplete: 'off', class: 'big-number',
      value: before !== undefined ? String(before) : '', 'aria-describedby': 'st-count-problem',
    }));
    // The refusal or the second look, under the box it is about.
    const problem = h('p', { id: 'st-count-problem', class: 'form-error', role: 'alert', hidden: true });
    /** The count a second look was asked for, so the same number again saves it. */
    let confirmed = '';
    /** @param {string} text @param {string} [keep]  what the box keeps */
    const refuse = (text, keep) => {
      if (keep !== undefined) input.value = keep;
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

    /** Takes the count typed (or `typed`); then counts the next scanned pet, if one came. @param {string} [typed] @param {Pet} [next] */
    const save = async (typed, next) => {
      if (!current || mine !== picks) return;
      const st = current;
      const text = (typed ?? input.value).trim();
      if (text === '' && next) { pick(next); return; }
      const n = Number(text);
      if (text === '' || !/^\d+$/.test(text) || n > COUNT_MAX) {
        refuse(`A count is a whole number from 0 to ${COUNT_MAX.toLocaleString('en-US')}${text ? `, not ${text.slice(0, 20)}` : ''}.`, text);
        return;
      }
      if (pet.animal && n > 1) {
        refuse(`${pet.name} is one animal: count 1 if it is here, 0 if not.`, text);
        return;
      }
      // The second look needs the store's figure: wait for it (it is on its way).
      await ready;
      if (mine !== picks) return;
      if (expected !== undefined && unlikelyCount(expected, n) && confirmed !== text) {
        confirmed = text;
        refuse(`${n.toLocaleString('en-US')} is far from the ${expected} the store expects. Check the shelf, then press Save count again to keep it.`, text);
        return;
      }
      // Accepted: the keyboard moves on now, and the count follows to the server.
      closeCounter();
      send(st, pet, n);
      draw();
      if (next) pick(next);
      else scan.input.focus();
    };
    input.addEventListener('keydown', (e) => {
      if (e.key !== 'Enter' || e.isComposing) return;
      e.preventDefault();
      const read = readCountBox(input.value, (code) => Boolean(byCode(code)));
      if (read.kind === 'next') {
        const next = /** @type {Pet} */ (byCode(read.code));
        // The same pet scanned again: the count typed stays, nothing else happens.
        if (next.id === pet.id) { input.value = read.count; return; }
        void save(read.count, next);
        return;
      }
      if (read.kind === 'unknown') {
        refuse(`No pet has the code ${read.code}, so it is not a count.${read.count ? ` The count ${read.count} of ${pet.name} is kept: press Enter to save it.` : ` Type the count of ${pet.name}.`}`, read.count);
        return;
      }
      void save();
    });
    replace(counter,
      h('h2', { id: 'st-pet' }, pet.name),
      expects,
      field('Counted on the shelf', input),
      problem,
      h('div', { class: 'row-actions' },
        h('button', { type: 'button', class: 'btn btn-primary btn-big', onclick: () => void save() }, 'Save count'),
        h('button', { type: 'button', class: 'btn btn-big', onclick: () => { closeCounter(); scan.input.focus(); } }, 'Cancel')),
    );
    input.focus();
    input.select();
  }

  /**
   * Sends a count, after those before it. A refusal names the pet and the count, and offers
   * to count it again.
   * @param {Stocktake} st @param {Pet} pet @param {number} n
   */
  function send(st, pet, n) {
    sending.set(pet.id, n);
    queue = queue.then(async () => {
      try {
        const asked = seen;
        const saved = /** @type {Line} */ (await api.put(`/store/stocktakes/${st.id}/lines/${pet.id}`, { counted: n }));
        // The stocktake as the page holds it now (a reload may have replaced the object).
        const held = current?.id === st.id ? current : st;
        held.lines = [...held.lines.filter((l) => l.petId !== pet.id), saved];
        readStock(pet.id, saved.expected, asked);
        notify(`${pet.name}: counted ${saved.counted}, ${saved.variance === 0 ? 'as expected' : `${signed(saved.variance)} against ${saved.expected} expected`}.`, saved.variance === 0 ? 'ok' : 'info', { group: 'count' });
      } catch (err) {
        notify(`${pet.name}: the count of ${n} was not saved. ${explain(err, { name: pet.name })}`, 'error', { action: { label: 'Count again', run: () => pick(pet) } });
      } finally {
        if (sending.get(pet.id) === n) sending.delete(pet.id);
      }
      draw();
      void ctx.refresh();
    });
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
      current = { ...created, lines: created.lines ?? [] };
      draw();
      scan.input.focus();
      notify('Stocktake started: scan or search each pet and type what is on the shelf.', 'ok');
      void ctx.refresh();
    } catch (err) {
      notifyError(err);
    }
  }

  function apply() {
    if (!current) return;
    const st = current;
    confirmAction({
      title: 'Apply the counts?',
      message: `Each of the ${new Set([...st.lines.map((l) => l.petId), ...sending.keys()]).size} counted pets gets its count as stock, plus any sales made since it was counted.`,
      confirmLabel: 'Apply counts',
      cancelLabel: 'Keep counting',
      onConfirm: async () => {
        // Every count taken here reaches the server before the stocktake is applied.
        await queue;
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
        await queue;
        await api.del(`/store/stocktakes/${st.id}`);
        state.id = 0;
        notify('Stocktake discarded.', 'ok');
      },
    });
  }

  /** The counted pets, newest first, with what Apply will set for each. @param {Stocktake} st */
  function drawLines(st) {
    /** @type {Array<Line & { saving?: boolean }>} */
    const lines = st.lines.filter((l) => !sending.has(l.petId));
    for (const [petId, counted] of sending) {
      const now = stock.get(petId) ?? 0;
      lines.push({ petId, counted, countedAt: '', expected: now, variance: counted - now, saving: true });
    }
    // Newest first: those on their way, then by time counted (the later saved first within a second).
    lines.reverse().sort((a, b) => (a.saving === b.saving ? b.countedAt.localeCompare(a.countedAt) : a.saving ? -1 : 1));
    const rows = lines.map((l) => {
      const now = stock.get(l.petId);
      // What moved since the count (sales, deliveries) is kept on top of it.
      const since = now === undefined ? 0 : now - l.expected;
      return h('tr', { 'data-pet-id': String(l.petId) },
        h('th', { scope: 'row' }, pets.get(l.petId)?.name ?? `Pet #${l.petId}`),
        h('td', { class: 'num' }, String(l.counted)),
        h('td', { class: 'num' }, String(l.expected)),
        h('td', { class: `num ${l.variance < 0 ? 'neg' : l.variance > 0 ? 'pos' : ''}` }, signed(l.variance)),
        h('td', { class: 'num st-after' }, String(Math.max(0, l.counted + since)), since ? h('small', { class: 'muted' }, ` (${signed(since)} since)`) : null),
        h('td', { class: 'muted' }, l.saving ? 'Saving…' : shortTime(l.countedAt)),
        h('td', {}, h('button', { type: 'button', class: 'btn', onclick: () => { const p = pets.get(l.petId); if (p) pick(p); } }, 'Recount')),
      );
    });
    replace(linesBox,
      table('Counted pets', ['Pet', { label: 'Counted', class: 'num' }, { label: 'Expected', class: 'num' }, { label: 'Difference', class: 'num' }, { label: 'After apply', class: 'num' }, 'When', 'Recount'], rows, 'Nothing counted yet.'),
      lines.length ? h('p', { class: 'muted st-after-note' }, 'After apply: the count, plus what was sold or received since it was counted.') : null);
    return lines.length;
  }

  function draw() {
    const show = !ctx.can('stock') ? noRole : current ? counting : starting;
    // Swapped only when it changes, so a box being typed in keeps the keyboard across redraws.
    if (results.childElementCount !== 1 || results.firstElementChild !== show) replace(results, show);
    if (!current) {
      if (picked) closeCounter();
      return;
    }
    const st = current;
    const shown = drawLines(st);
    summary.textContent = `Stocktake #${st.id}, started ${shortTime(st.createdAt)}. ${shown} counted.`;
    // What is still to count: every pet not counted yet.
    const counted = new Set([...st.lines.map((l) => l.petId), ...sending.keys()]);
    const notYet = [...pets.values()].filter((p) => !counted.has(p.id));
    left.hidden = notYet.length === 0;
    allCounted.hidden = notYet.length > 0;
    leftSummary.textContent = `Not counted yet: ${notYet.length}`;
    replace(leftList, notYet.slice(0, 500).map((p) => h('li', {},
      h('button', { type: 'button', class: 'btn btn-quiet', onclick: () => pick(p) }, p.name))));
    applyButton.disabled = shown === 0;
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    focus: () => (current ? scan.input.focus() : /** @type {HTMLElement | null} */ (el.querySelector('#st-start'))?.focus()),
    /** A stock change is drawn here (what Apply will set, what the store expects): no fetch. */
    affects(ev) {
      if (!ev.type.startsWith('inventory.')) return true;
      const it = ev.data;
      if (it && typeof it.petId === 'number' && typeof it.quantity === 'number') {
        // Noted for every pet: a figure for it may be on its way.
        seen += 1;
        moved.set(it.petId, { at: seen, quantity: it.quantity });
        if (stock.has(it.petId)) {
          stock.set(it.petId, it.quantity);
          stockMoved();
          if (current) draw();
        }
      }
      return false;
    },
    async load() {
      if (!ctx.can('stock')) return draw();
      const [list, all] = await Promise.all([api.list('/store/stocktakes', { limit: 20 }), api.listAll('/pets', { sort: 'name' })]);
      pets = new Map(all.map((/** @type {Pet} */ p) => [p.id, p]));
      const open = /** @type {Stocktake[]} */ (list.items).filter((s) => s.status === 'open');
      const found = open.find((s) => s.id === state.id) ?? open[0] ?? null;
      if (found) {
        const asked = seen;
        const now = await stockFor(found.lines.map((l) => l.petId));
        for (const [id, q] of now) readStock(id, q, asked);
        // Counts saved here since the list was read stay in it.
        const mine = current?.id === found.id ? current.lines.filter((l) => !found.lines.some((f) => f.petId === l.petId)) : [];
        found.lines = [...found.lines, ...mine];
      }
      current = found;
      if (current) state.id = current.id;
      draw();
    },
  };
  return view;
}
