//! Staff (admin only): the shop's people, who sign in with their name and a PIN. Add a
//! member; change their role or PIN; disable them (their sessions end at once) or enable them
//! again; lift the lock that five wrong PINs put on their name (on every device at once). The
//! last enabled admin can be neither disabled nor demoted, so the page offers neither and
//! says why. On a browser (a tablet, a manager's PC) the page also says whether
//! this device's sign-in screen lists the staff's names to tap, and turns that on or off.

import * as api from '../api.js';
import { h, field, uid, select, replace } from '../dom.js';
import { openDialog, confirmAction, formValues } from '../dialog.js';
import { notify } from '../notify.js';
import { localTime, shortTime } from '../format.js';
import { table, actionsCell, pageHeader, srOnly } from '../widgets.js';
import { explain } from '../messages.js';
import * as staffSession from '../staffsession.js';
import { loadSession } from '../session.js';

export const title = 'Staff';
export const watches = ['staff.'];

/** @typedef {import('../staffsession.js').StaffMember} StaffMember */

const ROLES = /** @type {Array<[string, string]>} */ ([
  ['readonly', 'Look only: sees stock and orders'],
  ['staff', 'Staff: sells, and changes pets and stock'],
  ['admin', 'Manager: also keys and staff'],
]);
const roleLabel = (/** @type {string} */ r) => ROLES.find(([k]) => k === r)?.[1].replace(/:.*/, '') ?? r;

/**
 * The sentence for a refused change, in the words of this page.
 * @param {unknown} err
 * @param {string} [name]
 */
function sentence(err, name) {
  if (err instanceof api.ApiError) {
    if (err.code === 'duplicate_name') return `There is already a staff member called ${name ?? 'that'}. Use another name (for example with an initial).`;
    if (err.code === 'conflict' && /admin/i.test(err.message)) return `${name ?? 'This member'} is the only manager who can sign in: make someone else a manager first.`;
    if (/^pin:/.test(err.message)) return 'A PIN is 4 to 8 digits.';
    if (/^name:/.test(err.message)) return 'Give the member a name (up to 100 characters).';
    if (/^role:/.test(err.message)) return 'Choose a role from the list.';
  }
  return explain(err, { name });
}

/** Turns a refusal into the page's own sentence (the dialog shows it and stays open). @param {unknown} err @param {string} [name] */
function refused(err, name) {
  return new Error(sentence(err, name));
}

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  /** @type {StaffMember[]} */
  let members = [];
  const enabledAdmins = () => members.filter((m) => !m.disabledAt && m.role === 'admin');
  /** Whether `m` is the only enabled manager. @param {StaffMember} m */
  const lastAdmin = (m) => !m.disabledAt && m.role === 'admin' && enabledAdmins().length === 1;
  const results = h('div', { class: 'results' });
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Staff',
      h('button', { type: 'button', class: 'btn btn-primary', onclick: () => openAdd() }, '+ Add staff member'),
    ),
    h('p', { class: 'muted page-intro' }, 'Staff sign in on the counter PC and on tablets with their name and PIN. The stock history then says who changed what.'),
    results,
  );
  // The counter PC's window always lists its staff; a browser lists them once a manager has
  // signed in on it, unless the manager turns that off here (a PC others use, say).
  const onDesktop = Boolean(loadSession()?.desktop);
  const deviceNote = h('div', { class: 'device-names', hidden: onDesktop });
  el.append(deviceNote);
  function drawDeviceNote() {
    const on = staffSession.deviceListsNames();
    replace(deviceNote,
      h('h2', {}, 'This device’s sign-in screen'),
      h('p', { class: 'muted' }, on
        ? 'It lists the names of the staff who can sign in, so each person taps their name and types their PIN. Nobody without a key or a PIN can read the names from the server.'
        : 'It lists only the names of people who signed in on it before; others type their name.'),
      h('button', {
        type: 'button', class: 'btn', 'data-focus-key': 'device-names',
        onclick: () => {
          staffSession.setDeviceListsNames(!on, members);
          notify(on ? 'This device no longer lists the staff’s names.' : 'This device lists the staff’s names on its sign-in screen.', 'ok');
          drawDeviceNote();
        },
      }, on ? 'Stop listing names on this device' : 'List the staff’s names on this device'),
    );
  }
  drawDeviceNote();

  /** @param {string} [hint] */
  const pinInput = (hint) => {
    const pin = h('input', { id: uid('pin'), name: 'pin', type: 'password', inputmode: 'numeric', autocomplete: 'new-password', required: true, maxlength: '8' });
    return field('PIN', pin, hint ?? '4 to 8 digits. Tell it to the person; it is never shown again.');
  };

  function openAdd() {
    // Once a store has staff, the counter PC asks who is there: the first person added is a
    // manager (the owner, as a rule), so the shop's management stays reachable at the counter.
    const first = enabledAdmins().length === 0;
    const name = h('input', { id: uid('name'), name: 'name', type: 'text', required: true, autocomplete: 'off', autofocus: true, maxlength: '100', placeholder: first ? 'Your name' : 'Sam' });
    const role = select({ id: uid('role'), name: 'role', required: true }, ROLES, first ? 'admin' : 'staff');
    openDialog({
      title: first ? 'Add the first staff member: a manager' : 'Add a staff member',
      body: [
        first ? h('p', { class: 'status-note' }, 'Add yourself first, as a manager. Once the store has staff, the counter PC asks who is there, and only a manager can open Keys, Staff and Backups.') : null,
        field('Name', name, 'What they type (or tap) to sign in. Each name is used once.'),
        field('Role', role, first ? 'The first person must be a manager.' : undefined),
        pinInput(),
      ],
      submitLabel: 'Add staff member',
      onSubmit: async (form) => {
        const v = formValues(form);
        if (first && v.role !== 'admin') {
          throw new Error('The first person added must be a manager, or nobody could manage the store at the counter PC. Add yourself as a manager first, then your staff.');
        }
        try {
          const m = /** @type {StaffMember} */ (await api.post('/admin/staff', { name: v.name, role: v.role, pin: v.pin }));
          notify(`Added ${m.name}. They can sign in now.`, 'ok');
          void ctx.refresh();
        } catch (err) {
          throw refused(err, v.name);
        }
      },
    });
  }

  /** @param {StaffMember} m */
  function openChange(m) {
    const only = lastAdmin(m);
    const name = h('input', { id: uid('name'), name: 'name', type: 'text', required: true, autocomplete: 'off', value: m.name, maxlength: '100' });
    const role = select({ id: uid('role'), name: 'role', required: true }, only ? ROLES.filter(([r]) => r === 'admin') : ROLES, m.role);
    const pin = h('input', { id: uid('pin'), name: 'pin', type: 'password', inputmode: 'numeric', autocomplete: 'new-password', maxlength: '8' });
    openDialog({
      title: `Change ${m.name}`,
      context: { name: m.name },
      body: [
        field('Name', name),
        field('Role', role, only ? `${m.name} is the only manager who can sign in, so stays a manager.` : undefined),
        field('New PIN', pin, 'Leave empty to keep the PIN. 4 to 8 digits.'),
      ],
      submitLabel: 'Save',
      onSubmit: async (form) => {
        const v = formValues(form);
        /** @type {Record<string, string>} */
        const body = {};
        if (v.name !== m.name) body.name = v.name;
        if (v.role !== m.role) body.role = v.role;
        if (v.pin) body.pin = v.pin;
        if (Object.keys(body).length === 0) return;
        try {
          await api.patch(`/admin/staff/${m.id}`, body);
        } catch (err) {
          throw refused(err, v.name);
        }
        notify(body.pin ? `Saved ${v.name}, with the new PIN.` : `Saved ${v.name}.`, 'ok');
        void ctx.refresh();
      },
    });
  }

  /** @param {StaffMember} m */
  function disable(m) {
    confirmAction({
      title: `Disable ${m.name}?`,
      message: `${m.name} is signed out everywhere at once and cannot sign in until enabled again. Their history stays.`,
      confirmLabel: 'Disable',
      cancelLabel: `Keep ${m.name}`,
      onConfirm: async () => {
        try {
          await api.patch(`/admin/staff/${m.id}`, { disabled: true });
        } catch (err) {
          throw refused(err, m.name);
        }
        notify(`Disabled ${m.name}.`, 'ok');
        void ctx.refresh();
      },
    });
  }

  /** A member locked out by wrong PINs (theirs, or someone's guesses) may sign in again at once. @param {StaffMember} m */
  async function unlock(m) {
    try {
      await api.del(`/admin/staff/${m.id}/lock`);
      notify(`${m.name} can try their PIN again now, on every device.`, 'ok');
    } catch (err) {
      notify(sentence(err, m.name), 'error');
    }
  }

  /** @param {StaffMember} m */
  async function enable(m) {
    try {
      await api.patch(`/admin/staff/${m.id}`, { disabled: false });
      notify(`${m.name} can sign in again.`, 'ok');
      await ctx.refresh();
    } catch (err) {
      notify(sentence(err, m.name), 'error');
    }
  }

  /** @param {StaffMember} m */
  function row(m) {
    const off = Boolean(m.disabledAt);
    const only = lastAdmin(m);
    return h('tr', { 'data-staff-id': String(m.id), class: off ? 'revoked' : null },
      h('th', { scope: 'row', class: 'name' }, m.name),
      h('td', {}, roleLabel(m.role)),
      h('td', { class: 'when wide-only' }, h('time', { datetime: m.createdAt, title: localTime(m.createdAt) }, shortTime(m.createdAt))),
      h('td', {}, off
        ? h('span', { class: 'badge badge-sold', title: localTime(m.disabledAt) }, 'Disabled')
        : h('span', { class: 'badge badge-available' }, 'Can sign in')),
      actionsCell(
        h('button', { type: 'button', class: 'btn', 'data-focus-key': `staff-${m.id}-change`, onclick: () => openChange(m) }, 'Change', srOnly(` ${m.name}`)),
        off ? null : h('button', { type: 'button', class: 'btn', 'data-focus-key': `staff-${m.id}-unlock`, title: 'After five wrong PINs a name is locked for 15 minutes; this lets them try again now', onclick: () => unlock(m) }, 'Unlock PIN', srOnly(` of ${m.name}`)),
        off
          ? h('button', { type: 'button', class: 'btn', 'data-focus-key': `staff-${m.id}-enable`, onclick: () => enable(m) }, 'Enable', srOnly(` ${m.name}`))
          : only
            ? h('span', { class: 'muted small' }, 'Only manager')
            : h('button', { type: 'button', class: 'btn btn-danger-quiet', 'data-focus-key': `staff-${m.id}-disable`, onclick: () => disable(m) }, 'Disable', srOnly(` ${m.name}`)),
      ),
    );
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    async load() {
      const items = /** @type {StaffMember[]} */ (await api.listAll('/admin/staff'));
      members = items;
      if (!onDesktop) staffSession.keepDeviceNames(items);
      const on = items.filter((m) => !m.disabledAt);
      const off = items.filter((m) => m.disabledAt);
      replace(results,
        table('Staff members', ['Name', 'Role', { label: 'Added', class: 'wide-only' }, 'State', 'Actions'],
          [...on, ...off].map(row), 'No staff members yet. Add one, and they can sign in with their name and PIN.'),
        h('p', { class: 'muted small pager' }, `${on.length} can sign in, ${off.length} disabled`),
      );
    },
  };
  return view;
}
