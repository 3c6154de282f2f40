//! Small building blocks shared by the pages: tables, paging, status badges, toolbars.

import { h } from './dom.js';
import { statusLabel } from './format.js';

/**
 * A table with a caption (read by screen readers) and a row of column headers.
 * @param {string} caption
 * @param {Array<string | HTMLElement | { label: string, class?: string }>} columns  a ready <th> is used as is
 * @param {HTMLElement[]} rows
 * @param {string} emptyText  shown as one row when there are no rows
 */
export function table(caption, columns, rows, emptyText) {
  const heads = columns.map((c) =>
    c instanceof HTMLElement
      ? c
      : typeof c === 'string'
        ? h('th', { scope: 'col' }, c)
        : h('th', { scope: 'col', class: c.class ?? null }, c.label),
  );
  const body = rows.length
    ? rows
    : [h('tr', { class: 'empty' }, h('td', { colspan: String(columns.length) }, emptyText))];
  return h(
    'div',
    { class: 'table-wrap' },
    h('table', {}, h('caption', { class: 'sr-only' }, caption), h('thead', {}, h('tr', {}, heads)), h('tbody', {}, body)),
  );
}

/**
 * "1–25 of 130" with Previous / Next.
 * @param {object} o
 * @param {number} o.offset
 * @param {number} o.limit
 * @param {number} o.total
 * @param {string} o.label  what is being paged, for screen readers ("pets")
 * @param {(offset: number) => void} o.onChange
 */
export function pager({ offset, limit, total, label, onChange }) {
  const from = total === 0 ? 0 : offset + 1;
  const to = Math.min(offset + limit, total);
  const count = h('span', { class: 'pager-count' }, total === 0 ? '' : `${from}–${to} of ${total}`);
  const onePage = offset === 0 && total <= limit;
  return h(
    'nav',
    { class: 'pager', 'aria-label': `Pages of ${label}` },
    count,
    onePage ? null : h('button', {
      type: 'button', class: 'btn', disabled: offset === 0, 'data-focus-key': `prev-${label}`,
      onclick: () => onChange(Math.max(0, offset - limit)),
    }, '‹ Previous'),
    onePage ? null : h('button', {
      type: 'button', class: 'btn', disabled: offset + limit >= total, 'data-focus-key': `next-${label}`,
      onclick: () => onChange(offset + limit),
    }, 'Next ›'),
  );
}

/** What each status means, for the badge's tooltip. */
const STATUS_MEANS = /** @type {Record<string, string>} */ ({
  available: 'Can be sold',
  pending: 'The last one is on an open order (see Orders); cancelling the order makes it available again',
  sold: 'Sold: tills cannot sell it until its status is set to Available',
  none: 'No status set: it can be sold while in stock',
});

/** @param {string | undefined | null} status */
export function statusBadge(status) {
  return h('span', { class: `badge badge-${status ?? 'none'}`, title: STATUS_MEANS[status ?? 'none'] }, statusLabel(status));
}

/**
 * The stock figure: red at 0, amber when low (by the one rule in stock.js), with the reason
 * in words for screen readers and a tooltip.
 * @param {number | undefined} qty
 * @param {boolean} [low]
 */
export function stockFigure(qty, low = false) {
  if (qty === undefined) return h('span', { class: 'stock stock-unknown' }, '—');
  if (qty === 0) return h('span', { class: 'stock stock-out', title: 'Out of stock' }, '0', srOnly(', out of stock'));
  if (low) return h('span', { class: 'stock stock-low', title: 'At or below its reorder point' }, String(qty), srOnly(', low'));
  return h('span', { class: 'stock' }, String(qty));
}

/**
 * The page heading with its main action on the right.
 * @param {string} title
 * @param {...import('./dom.js').Child} actions
 */
export function pageHeader(title, ...actions) {
  return h('div', { class: 'page-head' }, h('h1', { tabindex: '-1' }, title), h('div', { class: 'page-actions' }, actions));
}

/** A visually hidden but spoken label. @param {string} text */
export function srOnly(text) {
  return h('span', { class: 'sr-only' }, text);
}

/**
 * A column header that sorts by `key` (ascending) and `-key` (descending) when clicked.
 * @param {string} label
 * @param {string} key
 * @param {string} current  the current sort value
 * @param {(sort: string) => void} onSort
 * @param {string} [cls]  a class for the header cell (num: right-aligned)
 */
export function sortHeader(label, key, current, onSort, cls) {
  const dir = current === key ? 'ascending' : current === `-${key}` ? 'descending' : 'none';
  const arrow = dir === 'ascending' ? ' ▲' : dir === 'descending' ? ' ▼' : '';
  return h(
    'th',
    { scope: 'col', 'aria-sort': dir, class: cls ?? null },
    h('button', {
      type: 'button', class: 'th-sort', 'data-focus-key': `sort-${key}`,
      onclick: () => onSort(dir === 'ascending' ? `-${key}` : key),
    }, label, arrow, srOnly(dir === 'none' ? ', click to sort' : '')),
  );
}

/**
 * A table cell holding a row's buttons (a flex box inside, so the cell keeps table layout).
 * @param {...import('./dom.js').Child} buttons
 */
export function actionsCell(...buttons) {
  return h('td', { class: 'actions-cell' }, h('div', { class: 'actions' }, buttons));
}

/** The shop's paw mark, drawn inline (no emoji font is needed). @param {number} [size] */
export function pawMark(size = 24) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', String(size));
  svg.setAttribute('height', String(size));
  svg.setAttribute('aria-hidden', 'true');
  svg.setAttribute('class', 'paw');
  for (const [cx, cy, r] of [[8, 10.5, 3.6], [3, 6, 1.8], [13, 6, 1.8], [5.8, 2.8, 1.7], [10.2, 2.8, 1.7]]) {
    const c = document.createElementNS(ns, 'circle');
    c.setAttribute('cx', String(cx));
    c.setAttribute('cy', String(cy));
    c.setAttribute('r', String(r));
    c.setAttribute('fill', 'currentColor');
    svg.append(c);
  }
  return svg;
}
