//! Keys (admin only): role, plan, usage this minute and today, banned until; create (the
//! secret is shown once, with a copy button); change plan or role; revoke; lift a ban. A new
//! key's plan follows its role (a staff screen re-reads lists all day and must not be slowed
//! down by the tills' sales); the last admin key cannot be revoked or demoted, and revoking
//! the key this screen uses says so. "Pair a till" gives a till its own key by QR code
//! (`../pairing.js`); over HTTPS the page shows the store's certificate fingerprint.

import * as api from '../api.js';
import { h, field, uid, select, replace } from '../dom.js';
import { openDialog, confirmAction, formValues } from '../dialog.js';
import { notify, notifyError } from '../notify.js';
import { localTime, shortTime } from '../format.js';
import { table, actionsCell, pageHeader, srOnly } from '../widgets.js';
import { openPairing, certificateNote, planChoices } from '../pairing.js';
import { PLANS as PLAN_LIMITS } from '../facts.js';

export const title = 'Keys';
export const watches = ['key.'];
/** Usage changes with every request anyone makes, and emits no event: poll while open. */
export const pollMs = 10_000;

const ROLES = /** @type {Array<[string, string]>} */ ([
  ['readonly', 'Read only'], ['pos', 'POS'], ['staff', 'Staff'], ['admin', 'Admin'],
]);
const PLANS = planChoices(PLAN_LIMITS.map((p) => p.name));
/** The plan a new key gets for its role: staff screens re-read every list, tills only sell. */
const PLAN_FOR_ROLE = /** @type {Record<string, string>} */ ({ readonly: 'pro', pos: 'pro', staff: 'business', admin: 'business' });
const label = (/** @type {Array<[string,string]>} */ list, /** @type {string} */ v) => list.find(([k]) => k === v)?.[1].replace(/[:(].*/, '').trim() ?? v;

/** @param {import('../refresh.js').PageContext} ctx */
export function mount(ctx) {
  /** @type {import('../types.js').Key[]} */
  let keys = [];
  /** Active admin keys other than `k`. @param {import('../types.js').Key} k */
  const otherAdmins = (k) => keys.filter((o) => o.id !== k.id && !o.revokedAt && o.role === 'admin').length;
  const results = h('div', { class: 'results' });
  const updated = h('span', { class: 'muted small', 'aria-live': 'off' });
  const el = h('section', { class: 'page', 'aria-labelledby': 'page-title' },
    pageHeader('Keys',
      updated,
      h('button', { type: 'button', class: 'btn', onclick: () => ctx.refresh() }, 'Refresh'),
      h('button', { type: 'button', class: 'btn', 'data-action': 'pair', onclick: () => openPairing(() => void ctx.refresh()) }, 'Pair a till'),
      h('button', { type: 'button', class: 'btn btn-primary', onclick: () => openForm(null) }, '+ Create key'),
    ),
    results,
  );

  /**
   * Role, plan and (for enterprise) the two limits. Hidden limit fields are disabled, so they
   * are neither required nor sent.
   * @param {import('../types.js').Key | null} key
   * @param {HTMLSelectElement} role  a new key's plan follows its role until the plan is chosen
   */
  function limitFields(key, role) {
    const plan = /** @type {HTMLSelectElement} */ (select({ id: uid('plan'), name: 'plan', required: true }, PLANS, key?.plan ?? PLAN_FOR_ROLE[role.value]));
    let planChosen = Boolean(key);
    plan.addEventListener('change', () => { planChosen = true; });
    role.addEventListener('change', () => { if (!planChosen) { plan.value = PLAN_FOR_ROLE[role.value]; sync(); } });
    const perMinute = h('input', { id: uid('pm'), name: 'perMinute', type: 'number', inputmode: 'numeric', step: '1', min: '1', required: true, value: key?.plan === 'enterprise' ? key.perMinute : '' });
    const perDay = h('input', { id: uid('pd'), name: 'perDay', type: 'number', inputmode: 'numeric', step: '1', min: '1', required: true, value: key?.plan === 'enterprise' ? key.perDay : '' });
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

  /** @param {import('../types.js').Key | null} key  null: a new key */
  function openForm(key) {
    const name = h('input', { id: uid('name'), name: 'name', type: 'text', required: true, autocomplete: 'off', value: key?.name ?? '', autofocus: true, placeholder: 'Till 2' });
    // The last admin key keeps its role: without it nobody could manage keys from here.
    const lastAdmin = key !== null && key.role === 'admin' && otherAdmins(key) === 0;
    const role = /** @type {HTMLSelectElement} */ (select({ id: uid('role'), name: 'role', required: true }, lastAdmin ? ROLES.filter(([r]) => r === 'admin') : ROLES, key?.role ?? 'pos'));
    openDialog({
      title: key ? `Change ${key.name}` : 'Create a key',
      context: { action: 'key', name: key?.name },
      body: [
        field('Name', name, 'Who or what uses it: a till, a tablet, a person.'),
        field('Role', role, lastAdmin ? 'This is the only admin key, so it stays admin.' : undefined),
        ...limitFields(key, role),
      ],
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
      },
    });
  }

  /** The secret, once, with a copy button. @param {import("../types.js").Key} created */
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

  /** @param {import('../types.js').Key} key */
  function revoke(key) {
    const own = ctx.isOwnKey(key.prefix);
    confirmAction({
      title: `Revoke ${key.name}?`,
      message: own
        ? `${key.name} is the key this screen is signed in with: revoking it signs this screen out at once, and other devices using it are refused. This cannot be undone.`
        : `Devices using ${key.name} (${key.prefix}…) will be refused at once. This cannot be undone.`,
      confirmLabel: own ? 'Revoke and sign out' : 'Revoke',
      cancelLabel: 'Keep key',
      context: { action: 'key', name: key.name },
      onConfirm: async () => {
        await api.del(`/admin/keys/${key.id}`);
        notify(`Revoked ${key.name}.`, 'ok');
      },
    });
  }

  /** @param {import('../types.js').Key} key */
  async function liftBan(key) {
    try {
      await api.del(`/admin/keys/${key.id}/ban`);
      notify(`Lifted the ban on ${key.name}.`, 'ok');
      await ctx.refresh();
    } catch (err) {
      notifyError(err, { action: 'key', name: key.name });
    }
  }

  /** @param {{used: number, limit: number} | undefined} u */
  const usage = (u) => {
    if (!u) return h('span', { class: 'muted' }, '—');
    const pct = u.limit > 0 ? u.used / u.limit : 0;
    return h('span', { class: pct >= 1 ? 'usage over' : pct >= 0.8 ? 'usage high' : 'usage' },
      h('strong', {}, u.used.toLocaleString()), ` / ${u.limit.toLocaleString()}`);
  };

  /** @param {import('../types.js').Key} k */
  function row(k) {
    const lastAdmin = k.role === 'admin' && !k.revokedAt && otherAdmins(k) === 0;
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
            lastAdmin
              ? h('span', { class: 'muted small' }, 'Only admin key')
              : h('button', { type: 'button', class: 'btn btn-danger-quiet', 'data-focus-key': `key-${k.id}-revoke`, onclick: () => revoke(k) }, 'Revoke', srOnly(` ${k.name}`)),
          ),
    );
  }

  /** @type {import('../refresh.js').PageView} */
  const view = {
    el,
    results,
    async load() {
      // A shop has a handful of keys: all of them on one page, revoked ones last.
      const items = /** @type {import('../types.js').Key[]} */ (await api.listAll('/admin/keys'));
      keys = items;
      const cert = await certificateNote();
      const live = items.filter((k) => !k.revokedAt);
      const revoked = items.filter((k) => k.revokedAt);
      replace(results,
        table('API keys', ['Name', 'Role', 'Plan', { label: 'This minute', class: 'num' }, { label: 'Today', class: 'num' }, { label: 'Last used', class: 'wide-only' }, 'State', 'Actions'],
          [...live, ...revoked].map(row), 'No keys.'),
        h('p', { class: 'muted small pager' }, `${live.length} active, ${revoked.length} revoked`),
        cert,
      );
      updated.textContent = `Usage as of ${new Date().toLocaleTimeString()}`;
    },
  };
  return view;
}
