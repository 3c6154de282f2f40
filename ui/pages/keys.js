//! Keys (admin only): role, plan, usage this minute and today, banned until; create (the
//! secret is shown once, with a copy button); change plan or role; revoke; lift a ban.

import * as api from '../api.js';
import { h, field, uid, select, replace } from '../dom.js';
import { openDialog, confirmAction, formValues } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { localTime, shortTime } from '../format.js';
import { table, actionsCell, pageHeader, srOnly } from '../widgets.js';

export const title = 'Keys';
export const watches = ['key.'];
/** Usage changes with every request anyone makes, and emits no event: poll while open. */
export const pollMs = 10_000;

const ROLES = /** @type {Array<[string, string]>} */ ([
  ['readonly', 'Read only'], ['pos', 'POS'], ['staff', 'Staff'], ['admin', 'Admin'],
]);
const PLANS = /** @type {Array<[string, string]>} */ ([
  ['free', 'Free (60/min, 1,000/day)'], ['pro', 'Pro (300/min, 10,000/day)'],
  ['business', 'Business (1,000/min, 100,000/day)'], ['enterprise', 'Enterprise (custom limits)'],
]);
const label = (/** @type {Array<[string,string]>} */ list, /** @type {string} */ v) => list.find(([k]) => k === v)?.[1].replace(/ \(.*/, '') ?? v;

/** @param {import('../app.js').PageContext} _ctx */
export function mount(_ctx) {
  const results = h('div', { class: 'results' });
  const updated = h('span', { class: 'muted small', 'aria-live': 'off' });
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Keys',
      updated,
      h('button', { type: 'button', class: 'btn', onclick: () => view.refresh().catch(notifyError) }, 'Refresh'),
      h('button', { type: 'button', class: 'btn btn-primary', onclick: () => openForm(null) }, '+ Create key'),
    ),
    results,
  );

  /**
   * Role, plan and (for enterprise) the two limits. Hidden limit fields are disabled, so they
   * are neither required nor sent.
   * @param {any | null} key
   */
  function limitFields(key) {
    const plan = select({ id: uid('plan'), name: 'plan', required: true }, PLANS, key?.plan ?? 'free');
    const perMinute = h('input', { id: uid('pm'), name: 'perMinute', type: 'number', inputmode: 'numeric', step: '1', required: true, value: key?.plan === 'enterprise' ? key.perMinute : '' });
    const perDay = h('input', { id: uid('pd'), name: 'perDay', type: 'number', inputmode: 'numeric', step: '1', required: true, value: key?.plan === 'enterprise' ? key.perDay : '' });
    const limits = h('div', { class: 'field-row' }, field('Requests a minute', perMinute), field('Requests a day', perDay));
    const sync = () => {
      const on = /** @type {HTMLSelectElement} */ (plan).value === 'enterprise';
      limits.hidden = !on;
      /** @type {HTMLInputElement} */ (perMinute).disabled = !on;
      /** @type {HTMLInputElement} */ (perDay).disabled = !on;
    };
    plan.addEventListener('change', sync);
    sync();
    return [field('Plan', plan), limits];
  }

  /** @param {Record<string,string>} v */
  function limitBody(v) {
    return v.plan === 'enterprise' ? { plan: v.plan, perMinute: Number(v.perMinute), perDay: Number(v.perDay) } : { plan: v.plan };
  }

  /** @param {any | null} key  null: a new key */
  function openForm(key) {
    const name = h('input', { id: uid('name'), name: 'name', type: 'text', required: true, autocomplete: 'off', value: key?.name ?? '', autofocus: true, placeholder: 'Till 2' });
    const role = select({ id: uid('role'), name: 'role', required: true }, ROLES, key?.role ?? 'pos');
    openDialog({
      title: key ? `Change ${key.name}` : 'Create a key',
      body: [field('Name', name, 'Who or what uses it: a till, a tablet, a person.'), field('Role', role), ...limitFields(key)],
      submitLabel: key ? 'Save' : 'Create key',
      onSubmit: async (form) => {
        const v = formValues(form);
        const body = { name: v.name, role: v.role, ...limitBody(v) };
        if (key) {
          await api.patch(`/admin/keys/${key.id}`, body);
          notify(`Saved ${v.name}.`, 'ok');
        } else {
          const created = await api.post('/admin/keys', body);
          showSecret(created);
        }
        view.refresh().catch(notifyError);
      },
    });
  }

  /** The secret, once, with a copy button. @param {any} created */
  function showSecret(created) {
    const secretId = uid('secret');
    const secret = h('input', { id: secretId, class: 'secret', type: 'text', readonly: true, value: created.secret, 'aria-describedby': `${secretId}-hint`, spellcheck: 'false' });
    const copied = h('span', { class: 'copied', role: 'status' });
    const copy = h('button', {
      type: 'button', class: 'btn btn-primary',
      onclick: async () => {
        const input = /** @type {HTMLInputElement} */ (secret);
        try {
          await navigator.clipboard.writeText(input.value);
        } catch {
          // Plain http on the LAN has no clipboard API: fall back to select + copy.
          input.select();
          document.execCommand('copy');
        }
        copied.textContent = 'Copied.';
      },
    }, 'Copy key');
    openDialog({
      title: `Key created: ${created.name}`,
      body: [
        h('p', { id: `${secretId}-hint`, class: 'warning' }, 'Copy this key now and put it into the device. It is shown only once: the store keeps only a fingerprint of it.'),
        h('div', { class: 'field' }, h('label', { for: secretId }, 'Secret key'), h('div', { class: 'copy-row' }, secret, copy)),
        copied,
      ],
      cancelLabel: 'Done',
    });
    /** @type {HTMLInputElement} */ (secret).select();
  }

  /** @param {any} key */
  function revoke(key) {
    confirmAction({
      title: `Revoke ${key.name}?`,
      message: `Devices using ${key.name} (${key.prefix}…) will be refused at once. This cannot be undone.`,
      confirmLabel: 'Revoke',
      onConfirm: async () => {
        await api.del(`/admin/keys/${key.id}`);
        notify(`Revoked ${key.name}.`, 'ok');
        view.refresh().catch(notifyError);
      },
    });
  }

  /** @param {any} key */
  async function liftBan(key) {
    try {
      await api.del(`/admin/keys/${key.id}/ban`);
      notify(`Lifted the ban on ${key.name}.`, 'ok');
      await view.refresh();
    } catch (err) {
      notifyError(err);
    }
  }

  /** @param {{used: number, limit: number} | undefined} u */
  const usage = (u) => {
    if (!u) return h('span', { class: 'muted' }, '—');
    const pct = u.limit > 0 ? u.used / u.limit : 0;
    return h('span', { class: pct >= 1 ? 'usage over' : pct >= 0.8 ? 'usage high' : 'usage' },
      h('strong', {}, u.used.toLocaleString()), ` / ${u.limit.toLocaleString()}`);
  };

  /** @param {any} k */
  function row(k) {
    const banned = k.bannedUntil && new Date(k.bannedUntil).getTime() > Date.now();
    const revoked = Boolean(k.revokedAt);
    return h('tr', { 'data-key-id': String(k.id), class: revoked ? 'revoked' : null },
      h('th', { scope: 'row', class: 'name' }, k.name, h('div', { class: 'mono muted small' }, `${k.prefix}…`)),
      h('td', {}, label(ROLES, k.role)),
      h('td', {}, label(PLANS, k.plan)),
      h('td', { class: 'num', 'data-col': 'minute' }, usage(k.usage?.minute)),
      h('td', { class: 'num', 'data-col': 'day' }, usage(k.usage?.day)),
      h('td', { class: 'when wide-only' }, h('time', { datetime: k.lastUsedAt ?? null, title: localTime(k.lastUsedAt) }, shortTime(k.lastUsedAt))),
      h('td', {}, h('div', { class: 'actions' },
        revoked
          ? h('span', { class: 'badge badge-sold', title: localTime(k.revokedAt) }, 'Revoked')
          : banned
            ? h('span', { class: 'badge badge-banned', title: localTime(k.bannedUntil) }, `Banned until ${shortTime(k.bannedUntil)}`)
            : h('span', { class: 'badge badge-available' }, 'Active'),
        banned && !revoked ? h('button', { type: 'button', class: 'btn btn-primary', 'data-focus-key': `key-${k.id}-ban`, onclick: () => liftBan(k) }, 'Lift ban', srOnly(` on ${k.name}`)) : null,
      )),
      revoked
        ? h('td', {})
        : actionsCell(
            h('button', { type: 'button', class: 'btn', 'data-focus-key': `key-${k.id}-edit`, onclick: () => openForm(k) }, 'Change', srOnly(` ${k.name}`)),
            h('button', { type: 'button', class: 'btn btn-danger-quiet', 'data-focus-key': `key-${k.id}-revoke`, onclick: () => revoke(k) }, 'Revoke', srOnly(` ${k.name}`)),
          ),
    );
  }

  const view = {
    el,
    async refresh() {
      // A shop has a handful of keys: all of them on one page, revoked ones last.
      const items = await api.listAll('/admin/keys');
      const live = items.filter((k) => !k.revokedAt);
      const revoked = items.filter((k) => k.revokedAt);
      replace(results,
        table('API keys', ['Name', 'Role', 'Plan', { label: 'This minute', class: 'num' }, { label: 'Today', class: 'num' }, { label: 'Last used', class: 'wide-only' }, 'State', 'Actions'],
          [...live, ...revoked].map(row), 'No keys.'),
        h('p', { class: 'muted small pager' }, `${live.length} active, ${revoked.length} revoked`),
      );
      updated.textContent = `Usage as of ${new Date().toLocaleTimeString()}`;
    },
  };
  return view;
}
