//! Backups (admin only): the store's backups, newest first, with when each was taken and its
//! size; "Back up now" takes one at once; each can be downloaded to keep a copy off this PC
//! (the README's "Your data" says how to restore one).

import * as api from '../api.js';
import { h, replace, saveBlob } from '../dom.js';
import { notify, notifyError } from '../notify.js';
import { localTime, shortTime } from '../format.js';
import { table, pageHeader, srOnly } from '../widgets.js';

/** @typedef {{ name: string, size: number, createdAt: string }} Backup */

export const title = 'Backups';
/** @type {readonly string[]} */
export const watches = [];

/** "1.4 MB", "820 KB", "512 bytes". @param {number} bytes */
export function fileSize(bytes) {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let n = bytes / 1024;
  let unit = 0;
  while (n >= 1024 && unit < units.length - 1) {
    n /= 1024;
    unit += 1;
  }
  return `${n < 10 ? n.toFixed(1) : Math.round(n)} ${units[unit]}`;
}

/** Saves a backup file on this device. @param {Backup} b */
async function download(b) {
  try {
    const blob = await api.download(`/admin/backups/${encodeURIComponent(b.name)}`, undefined, 'application/octet-stream');
    saveBlob(blob, b.name);
    notify(`Downloading ${b.name}.`, 'ok');
  } catch (err) {
    notifyError(err);
  }
}

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  const results = h('div', { class: 'results' });
  const now = /** @type {HTMLButtonElement} */ (h('button', { type: 'button', class: 'btn btn-primary', 'data-action': 'backup-now' }, 'Back up now'));
  now.addEventListener('click', async () => {
    now.disabled = true;
    now.textContent = 'Backing up…';
    try {
      const taken = /** @type {Backup} */ (await api.post('/admin/backups', undefined));
      notify(`Backed up: ${taken.name} (${fileSize(taken.size)}).`, 'ok');
      await ctx.refresh();
    } catch (err) {
      notifyError(err);
    } finally {
      now.disabled = false;
      now.textContent = 'Back up now';
    }
  });
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Backups',
      h('button', { type: 'button', class: 'btn', onclick: () => ctx.refresh() }, 'Refresh'),
      now,
    ),
    h('p', { class: 'muted' }, 'The store backs itself up while it runs and keeps the newest copies in its backups folder. ' +
      'A copy on this PC is lost with the PC: now and then, download the newest one and keep it somewhere else (a USB stick, another computer).'),
    results,
  );

  /** @param {Backup} b */
  const row = (b) => h('tr', { 'data-backup': b.name },
    h('th', { scope: 'row', class: 'name mono' }, b.name),
    h('td', { class: 'when' }, h('time', { datetime: b.createdAt, title: localTime(b.createdAt) }, shortTime(b.createdAt))),
    h('td', { class: 'num' }, fileSize(b.size)),
    h('td', {}, h('div', { class: 'actions' },
      h('button', { type: 'button', class: 'btn', 'data-focus-key': `backup-${b.name}`, onclick: () => download(b) }, 'Download', srOnly(` ${b.name}`)))),
  );

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    async load() {
      const items = /** @type {Backup[]} */ (await api.listAll('/admin/backups'));
      replace(results,
        table('Backups, newest first', ['Backup', 'Taken', { label: 'Size', class: 'num' }, 'Actions'], items.map(row), 'No backups yet. Choose “Back up now” to take the first.'),
        h('p', { class: 'muted small pager' }, items.length === 1 ? '1 backup' : `${items.length} backups`),
      );
    },
  };
  return view;
}
