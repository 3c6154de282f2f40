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

/**
 * A row's less used actions behind one "More" button: a small panel of buttons that opens
 * under it (over the rows below, not inside the row, so the row stays one line tall), closes
 * on Escape, on a click elsewhere, on scrolling, or once an action is chosen.
 * @param {string} name  what the row is about, for the button's accessible name
 * @param {Array<HTMLElement | null>} items  the actions (null ones are left out)
 */
export function rowMenu(name, items) {
  const actions = /** @type {HTMLElement[]} */ (items.filter(Boolean));
  const id = `menu-${Math.random().toString(36).slice(2)}`;
  const panel = h('div', { class: 'row-menu-panel', id, hidden: true, role: 'group', 'aria-label': `More for ${name}` }, actions);
  const button = /** @type {HTMLButtonElement} */ (h('button', {
    type: 'button', class: 'btn row-menu-button', 'aria-expanded': 'false', 'aria-controls': id,
  }, 'More', h('span', { class: 'sr-only' }, ` for ${name}`), h('span', { 'aria-hidden': 'true', class: 'row-menu-caret' }, '▾')));
  /** @param {boolean} [refocus] */
  const close = (refocus = false) => {
    if (panel.hidden) return;
    panel.hidden = true;
    button.setAttribute('aria-expanded', 'false');
    document.removeEventListener('pointerdown', outside, true);
    window.removeEventListener('scroll', onScroll, true);
    if (refocus) button.focus();
  };
  /** @param {Event} e */
  const outside = (e) => { if (!wrap.contains(/** @type {Node} */ (e.target))) close(); };
  const onScroll = () => close();
  const open = () => {
    const r = button.getBoundingClientRect();
    panel.hidden = false;
    const w = panel.offsetWidth;
    const below = r.bottom + panel.offsetHeight + 8 <= window.innerHeight;
    panel.style.left = `${Math.max(8, Math.min(r.right - w, window.innerWidth - w - 8))}px`;
    panel.style.top = below ? `${r.bottom + 4}px` : `${Math.max(8, r.top - panel.offsetHeight - 4)}px`;
    button.setAttribute('aria-expanded', 'true');
    document.addEventListener('pointerdown', outside, true);
    /** @type {HTMLElement | undefined} */ (panel.querySelector('button'))?.focus({ preventScroll: true });
    // Showing the panel may itself scroll its table into place: only a scroll after that
    // closes it.
    requestAnimationFrame(() => requestAnimationFrame(() => { if (!panel.hidden) window.addEventListener('scroll', onScroll, true); }));
  };
  button.addEventListener('click', () => (panel.hidden ? open() : close(true)));
  panel.addEventListener('keydown', (e) => { if (/** @type {KeyboardEvent} */ (e).key === 'Escape') { e.stopPropagation(); e.preventDefault(); close(true); } });
  panel.addEventListener('click', (e) => { if (/** @type {HTMLElement} */ (e.target).closest('button')) close(); });
  const wrap = h('div', { class: 'row-menu' }, button, panel);
  return wrap;
}
