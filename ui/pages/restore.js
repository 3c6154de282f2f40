//! Restore (desktop window only, admins): put a backup in place of the shop's data. Choose a
//! backup from the backups folder (or any file, with the system's file dialog), confirm in
//! plain words, and the desktop shell stops the server, restores with the library's restore
//! (which keeps the replaced store beside it), starts the server again and says what happened.

import * as api from '../api.js';
import { h, replace } from '../dom.js';
import { openDialog } from '../dialog.js';
import { explain } from '../messages.js';
import { localTime } from '../format.js';
import { pageHeader, table } from '../widgets.js';

export const title = 'Restore';
/** @type {readonly string[]} */
export const watches = [];

/**
 * @typedef {object} RestoreOutcome
 * @property {boolean} restored  the backup is now the store
 * @property {string} message    what happened, in words for the shop
 * @property {string | null} kept  where the replaced store was kept
 * @property {boolean} serving   the store is open and served again
 */

/** The desktop shell's commands, present only inside the desktop window. */
function shell() {
  const tauri = /** @type {any} */ (window).__TAURI__;
  return tauri?.core?.invoke ? /** @type {(cmd: string, args?: object) => Promise<any>} */ (tauri.core.invoke) : null;
}

/** Whether this page can work here. */
export function available() {
  return shell() !== null;
}

/** @param {number} bytes */
function size(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / (1024 * 1024)).toFixed(1)} MB` : `${Math.max(1, Math.round(bytes / 1024))} KB`;
}

/** @param {import('../refresh.js').PageContext} _ctx */
export function mount(_ctx) {
  const invoke = shell();
  const results = h('div', { class: 'results' });
  const outcome = h('div', { class: 'restore-outcome', role: 'status', 'aria-live': 'polite' });
  const other = h('button', { type: 'button', class: 'btn' }, 'Choose another file…');

  /**
   * Ask in plain words, then restore.
   * @param {string} file  a backup's name, or the path the file dialog answered
   * @param {string} when  how the backup is described to the person
   */
  function confirmRestore(file, when) {
    openDialog({
      title: 'Restore this backup?',
      size: 'narrow',
      danger: true,
      submitLabel: 'Restore this backup',
      cancelLabel: 'Keep the data as it is',
      body: [
        h('p', {}, `The shop's data will become the backup ${when}.`),
        h('p', {}, 'Anything done since then (sales, stock counts, new pets) will not be in the store.'),
        h('p', {}, 'The data you have now is not deleted: it is kept as a file beside the store.'),
        h('p', {}, 'Tills and tablets cannot use the store for a few seconds while it restarts.'),
      ],
      onSubmit: async () => {
        if (!invoke) return;
        replace(outcome, h('p', {}, 'Restoring… the store is stopped for a moment.'));
        const done = /** @type {RestoreOutcome} */ (await invoke('restore_backup', { file }));
        showOutcome(done);
      },
    });
  }

  /** @param {RestoreOutcome} done */
  function showOutcome(done) {
    replace(outcome,
      h('div', { class: done.restored ? 'restore-done' : 'form-error', role: 'alert' },
        h('h2', {}, done.restored ? 'The backup is restored' : 'Nothing was restored'),
        h('p', {}, done.message),
        done.kept ? h('p', {}, 'The replaced data: ', h('code', { class: 'restore-kept' }, done.kept)) : null,
        done.serving
          ? h('button', { type: 'button', class: 'btn btn-primary', onclick: () => location.reload() }, done.restored ? 'Show the restored data' : 'Back to the store')
          : null));
  }

  other.addEventListener('click', async () => {
    if (!invoke) return;
    const path = /** @type {string | null} */ (await invoke('choose_backup_file'));
    if (path) confirmRestore(path, `in the file ${path}`);
  });

  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Restore'),
    h('p', { class: 'muted page-intro' }, 'Put a backup in place of the shop\'s data, for example after a mistake or on a new PC. Choose one of this PC\'s backups, or another backup file.'),
    outcome,
    results,
    h('div', { class: 'toolbar' }, other),
  );

  return {
    el,
    results,
    focus: () => other.focus(),
    async load() {
      /** @type {{name: string, size: number, createdAt: string}[]} */
      let backups = [];
      try {
        backups = /** @type {any} */ (await api.get('/admin/backups'));
      } catch (err) {
        replace(results, h('p', { class: 'form-error', role: 'alert' }, explain(err)));
        return;
      }
      replace(results, table('Backups on this PC, newest first',
        ['Taken', 'File', 'Size', h('th', { scope: 'col' }, h('span', { class: 'sr-only' }, 'Actions'))],
        backups.map((b) => h('tr', { 'data-backup': b.name },
          h('td', {}, localTime(b.createdAt)),
          h('td', {}, h('code', {}, b.name)),
          h('td', {}, size(b.size)),
          h('td', {}, h('button', { type: 'button', class: 'btn', onclick: () => confirmRestore(b.name, `taken ${localTime(b.createdAt)}`) }, 'Restore…')))),
        'No backups on this PC yet. The store backs itself up every day; an admin can also take one on the Backups page.'));
    },
  };
}
