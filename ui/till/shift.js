//! The till's shift (its cash drawer): opened with the float counted into the drawer, closed
//! with the cash counted out of it, and the store's Z report shown and printable. The till's
//! name is the paired key's name, or chosen once on this device.

import * as api from '../api.js';
import { h, field, uid } from '../dom.js';
import { openDialog, formValues } from '../dialog.js';
import { formatPrice, parsePrice } from '../money.js';
import { localTime } from '../format.js';
import { loadSession, pairedAs } from '../session.js';
import { printHtml } from './print.js';

const TILL_NAME = 'petstore.till-name';

/** This device's till name: the paired key's name, else the one chosen here, else null. */
export function tillName() {
  const s = loadSession();
  const paired = s && !s.desktop ? pairedAs(s.key) : null;
  return paired ?? localStorage.getItem(TILL_NAME);
}

/** The open shift of `till`, or null. @param {string} till */
export async function openShiftOf(till) {
  const { items } = await api.list('/store/shifts', { till, status: 'open', limit: 1 });
  return items[0] ?? null;
}

/**
 * A money field for the shift dialogs.
 * @param {string} name
 * @param {string} label
 * @param {string} [hint]
 */
function moneyField(name, label, hint) {
  const input = h('input', { id: uid(name), name, type: 'text', inputmode: 'decimal', autocomplete: 'off', required: true, class: 'till-money-input' });
  return field(label, input, hint);
}

/** @param {string} text @param {string} what */
function amountOf(text, what) {
  const v = parsePrice(text);
  if (v === null || Number.isNaN(v)) throw new Error(`Type the ${what} as an amount, like 100 or 100.00.`);
  return v;
}

/**
 * Ask for the float (and the till's name, the first time on a device without one) and open
 * the shift.
 * @param {(shift: any) => void} onOpened
 */
export function openShiftDialog(onOpened) {
  const named = tillName();
  const nameInput = h('input', { id: uid('till-name'), name: 'till', type: 'text', maxlength: '40', required: true, autocomplete: 'off', value: 'Counter' });
  openDialog({
    title: 'Open the shift',
    size: 'narrow',
    body: [
      named ? h('p', {}, 'Till: ', h('strong', {}, named)) : field('This till’s name', nameInput, 'Chosen once on this device; the shift and its sales carry it.'),
      moneyField('openingCash', 'Cash in the drawer (the float)', 'Count the notes and coins you start with.'),
    ],
    submitLabel: 'Open shift',
    onSubmit: async (form) => {
      const v = formValues(form);
      const till = named ?? v.till;
      if (!till) throw new Error('Give this till a name.');
      const openingCash = amountOf(v.openingCash, 'float');
      const shift = await api.post('/store/shifts', { till, openingCash });
      if (!named) localStorage.setItem(TILL_NAME, till);
      onOpened(shift);
    },
  });
}

/**
 * Ask for the cash counted and close the shift; then show its Z report.
 * @param {any} shift
 * @param {(closed: any) => void} onClosed
 */
export function closeShiftDialog(shift, onClosed) {
  openDialog({
    title: 'Close the shift',
    size: 'narrow',
    body: [
      h('p', {}, `Till ${shift.till}, open since ${localTime(shift.openedAt)}.`),
      moneyField('countedCash', 'Cash counted in the drawer', 'Count everything in the drawer, the float included.'),
    ],
    submitLabel: 'Close shift',
    onSubmit: async (form) => {
      const countedCash = amountOf(formValues(form).countedCash, 'cash counted');
      const closed = await api.post(`/store/shifts/${shift.id}/close`, { countedCash });
      onClosed(closed);
      // After this dialog has closed, so the report's dialog is the one on top.
      setTimeout(() => showZReport(closed), 0);
    },
  });
}

/** The Z report's rows: [label, amount in minor units or a count]. @param {any} z */
function zRows(z) {
  const by = z.sales?.byMethod ?? {};
  return /** @type {Array<[string, string]>} */ ([
    ['Float', formatPrice(z.openingCash)],
    ['Sales', `${z.sales?.count ?? 0}`],
    ['Sales total', formatPrice(z.sales?.total ?? 0)],
    ['Tax in sales', formatPrice(z.sales?.tax ?? 0)],
    ['Cash (less change)', formatPrice(by.cash ?? 0)],
    ['Card', formatPrice(by.card ?? 0)],
    ['Other', formatPrice(by.other ?? 0)],
    ['Refunds', `${z.refunds?.count ?? 0} · ${formatPrice(z.refunds?.amount ?? 0)}`],
    ['Expected in the drawer', formatPrice(z.expectedCash)],
    ['Counted', formatPrice(z.countedCash)],
    ['Difference', `${z.difference > 0 ? '+' : ''}${formatPrice(z.difference)}${z.difference < 0 ? ' (short)' : z.difference > 0 ? ' (over)' : ''}`],
  ]);
}

/** The Z report as a table. @param {any} z */
function zTable(z) {
  return h('table', { class: 'zreport' },
    h('caption', {}, `Z report: ${z.till}`),
    h('tbody', {}, zRows(z).map(([k, v]) => h('tr', { class: k === 'Difference' ? (z.difference === 0 ? 'z-even' : 'z-off') : null }, h('th', { scope: 'row' }, k), h('td', {}, v)))));
}

/** The Z report as a printable page for narrow paper. @param {any} z */
export function zReportHtml(z) {
  const doc = h('html', { lang: 'en' },
    h('head', {}, h('meta', { charset: 'utf-8' }), h('title', {}, `Z report ${z.till}`),
      h('style', {}, '@page { size: 80mm auto; margin: 4mm; } body { font: 12px/1.35 monospace; width: 72mm; margin: 0; } table { width: 100%; border-collapse: collapse; } caption { font-weight: bold; text-align: left; } th { text-align: left; font-weight: normal; } td { text-align: right; }')),
    h('body', {},
      h('p', {}, `Opened ${localTime(z.openedAt)}`, h('br'), `Closed ${z.closedAt ? localTime(z.closedAt) : '—'}`),
      zTable(z)));
  return '<!doctype html>\n' + doc.outerHTML;
}

/** Show a closed shift's Z report, with Print. @param {any} z */
export function showZReport(z) {
  const print = h('button', { type: 'button', class: 'btn btn-primary', onclick: () => { void printHtml(zReportHtml(z)); } }, 'Print Z report');
  const d = openDialog({
    title: `Shift closed: ${z.till}`,
    body: [
      h('p', { class: 'z-diff' }, z.difference === 0 ? 'The drawer is right.' : z.difference < 0 ? `The drawer is short by ${formatPrice(-z.difference)}.` : `The drawer is over by ${formatPrice(z.difference)}.`),
      zTable(z),
      print,
    ],
  });
  d.dialog.classList.add('zreport-dialog');
  print.focus();
}
