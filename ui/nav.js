//! The header's page navigation: the pages of a shop's day on one line, the rest under a
//! "More" button, grouped (the stockroom's pages, then a manager's). It fits a tablet held
//! upright (820 px) and a 1280 px screen without scrolling sideways, however many pages a role
//! has. "More" is a disclosure button (aria-expanded), not an ARIA menu: its links follow it in
//! the tab order, Escape closes it and gives the focus back, and it closes when the focus or a
//! click goes elsewhere. The current page is marked with aria-current wherever its link is;
//! when it is under More, the button says which page it is.

import { h } from './dom.js';

/** The pages always on the band, when the role has them: a shop's day. */
export const PRIMARY_PAGES = ['pets', 'till', 'care', 'inventory', 'orders', 'sales', 'stocktake', 'reports'];

/** The groups under More, in order: [heading, pages]. A page in none goes in the last one. */
/** @type {Array<[string, string[]]>} */
export const MORE_GROUPS = [
  ['Stockroom', ['categories', 'purchasing', 'suppliers']],
  ['Manager', ['keys', 'staff', 'backups', 'network', 'restore']],
];

/**
 * @typedef {object} PageNav
 * @property {HTMLElement} el  the `<nav>`
 * @property {(name: string) => void} mark  marks the page shown, and closes More
 */

/**
 * @param {string[]} names  the pages this role may open, in the order of the app's table
 * @param {(name: string) => string} titleOf
 * @returns {PageNav}
 */
export function pageNav(names, titleOf) {
  const link = (/** @type {string} */ n) => h('a', { href: `#/${n}`, 'data-page': n }, titleOf(n));
  const primary = names.filter((n) => PRIMARY_PAGES.includes(n));
  const rest = names.filter((n) => !PRIMARY_PAGES.includes(n));
  /** @type {Array<[string, string[]]>} */
  const grouped = MORE_GROUPS.map(([heading, pages], i) => /** @type {[string, string[]]} */ ([heading,
    rest.filter((n) => pages.includes(n) || (i === MORE_GROUPS.length - 1 && !MORE_GROUPS.some(([, g]) => g.includes(n))))]));
  const groups = grouped.filter(([, pages]) => pages.length > 0);

  const nav = h('nav', { class: 'nav', 'aria-label': 'Pages' }, primary.map(link));
  if (groups.length === 0) return { el: nav, mark: (name) => markLinks(nav, name) };

  const label = h('span', {}, 'More');
  const button = h('button', { type: 'button', class: 'nav-more-button', 'aria-expanded': 'false', 'aria-controls': 'nav-more-panel' },
    label, h('span', { class: 'nav-more-caret', 'aria-hidden': 'true' }, '▾'));
  const panel = h('div', { class: 'nav-more-panel', id: 'nav-more-panel', hidden: true },
    groups.map(([heading, pages], i) => h('div', { class: 'nav-group', role: 'group', 'aria-labelledby': `nav-group-${i}` },
      h('span', { class: 'nav-group-heading', id: `nav-group-${i}` }, heading),
      pages.map(link))));
  const more = h('div', { class: 'nav-more' }, button, panel);
  nav.append(more);

  const open = (/** @type {boolean} */ yes) => {
    panel.hidden = !yes;
    button.setAttribute('aria-expanded', String(yes));
  };
  button.addEventListener('click', () => open(panel.hidden));
  more.addEventListener('keydown', (e) => {
    if (e.key !== 'Escape' || panel.hidden) return;
    e.preventDefault();
    open(false);
    button.focus();
  });
  // Closed when the focus leaves it (Tab past the last link) or a click lands elsewhere.
  more.addEventListener('focusout', (e) => {
    const to = /** @type {Node | null} */ (e.relatedTarget);
    if (to && !more.contains(to)) open(false);
  });
  document.addEventListener('pointerdown', (e) => {
    if (!panel.hidden && !more.contains(/** @type {Node} */ (e.target))) open(false);
  });
  panel.addEventListener('click', (e) => { if (/** @type {HTMLElement} */ (e.target).closest('a')) open(false); });

  return {
    el: nav,
    mark(name) {
      open(false);
      markLinks(nav, name);
      const inside = rest.includes(name);
      button.classList.toggle('has-current', inside);
      label.textContent = inside ? `More: ${titleOf(name)}` : 'More';
    },
  };
}

/** @param {HTMLElement} nav @param {string} name */
function markLinks(nav, name) {
  for (const a of nav.querySelectorAll('a')) {
    if (a.dataset.page === name) a.setAttribute('aria-current', 'page');
    else a.removeAttribute('aria-current');
  }
}
