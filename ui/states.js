//! How a page looks while its list loads (grey skeleton rows, announced as loading) and when
//! it cannot load (an inline panel with the reason in plain words and "Try again"), so that
//! neither ever looks like an empty list.

import { h } from './dom.js';

/** Skeleton rows in the shape of a table. @param {number} [rows] */
export function skeleton(rows = 6) {
  return h('div', { class: 'skeleton', role: 'status', 'aria-label': 'Loading…' },
    h('span', { class: 'sr-only' }, 'Loading…'),
    Array.from({ length: rows }, () => h('div', { class: 'skeleton-row', 'aria-hidden': 'true' })));
}

/**
 * @param {string} message  plain words
 * @param {() => unknown} retry
 */
export function errorPanel(message, retry) {
  return h('div', { class: 'error-panel', role: 'alert' },
    h('p', {}, h('strong', {}, 'This list could not be loaded. '), message),
    h('button', { type: 'button', class: 'btn btn-primary', onclick: retry }, 'Try again'));
}
