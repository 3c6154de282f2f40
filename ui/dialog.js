//! Modal dialogs on the native <dialog> element: Esc closes, Enter in a field submits, focus
//! goes to the first field and back where it was afterwards. A failed save keeps the dialog
//! open with everything the user typed, shows the server's message, and marks the field it
//! names.

import { h, append } from './dom.js';
import { explain, fieldOf } from './messages.js';

/**
 * @typedef {import('./dom.js').Child} Child
 * @typedef {object} DialogOptions
 * @property {string} title
 * @property {Child[]} body                 fields and text
 * @property {string} [submitLabel]          omitted: an information dialog with only "Close"
 * @property {boolean} [danger]              the submit button is red (delete, revoke)
 * @property {string} [cancelLabel]
 * @property {'narrow' | 'wide'} [size]
 * @property {(form: HTMLFormElement) => Promise<unknown>} [onSubmit]  throw to keep it open
 * @property {() => void} [onClose]
 * @property {import('./messages.js').ErrorContext} [context]  what a failure is about, for its message
 */

/**
 * Open a modal dialog. Resolves nothing; returns a handle to close it.
 * @param {DialogOptions} o
 */
export function openDialog(o) {
  const titleId = `dlg-title-${Math.random().toString(36).slice(2)}`;
  const errorBox = h('p', { class: 'form-error', role: 'alert', hidden: true });
  const submit = o.submitLabel
    ? h('button', { type: 'submit', class: o.danger ? 'btn btn-danger' : 'btn btn-primary' }, o.submitLabel)
    : null;
  const cancel = h('button', { type: 'button', class: 'btn', value: 'cancel' }, o.cancelLabel ?? (submit ? 'Cancel' : 'Close'));
  const form = h('form', { class: 'dialog-form' });
  append(form, [
    h('h2', { id: titleId }, o.title),
    h('div', { class: 'dialog-body' }, o.body),
    errorBox,
    h('div', { class: 'dialog-actions' }, cancel, submit),
  ]);
  const dialog = /** @type {HTMLDialogElement} */ (
    h('dialog', { class: `dialog ${o.size ?? ''}`, 'aria-labelledby': titleId }, form)
  );

  const close = () => {
    if (dialog.open) dialog.close();
  };
  dialog.addEventListener('close', () => {
    dialog.remove();
    o.onClose?.();
  });
  cancel.addEventListener('click', close);
  // Enter on a select submits (as in a text field) instead of opening its list; Ctrl+Enter
  // submits from a textarea, where Enter is a new line.
  form.addEventListener('keydown', (e) => {
    const t = /** @type {HTMLElement} */ (e.target);
    if (e.key !== 'Enter' || e.isComposing || !submit) return;
    if (t instanceof HTMLSelectElement || (t instanceof HTMLTextAreaElement && (e.ctrlKey || e.metaKey))) {
      e.preventDefault();
      form.requestSubmit();
    }
  });

  // A refusal is about what was entered then: once something is changed (another file
  // chosen, another option), it no longer stands under the new input.
  form.addEventListener('change', () => { errorBox.hidden = true; });

  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!o.onSubmit || !submit) {
      close();
      return;
    }
    const label = submit.textContent;
    errorBox.hidden = true;
    for (const el of form.querySelectorAll('[aria-invalid]')) el.removeAttribute('aria-invalid');
    submit.disabled = true;
    submit.textContent = 'Saving…';
    form.setAttribute('aria-busy', 'true');
    try {
      await o.onSubmit(form);
      close();
    } catch (err) {
      // A second look asked for (an unlikely count): the dialog shows its own question.
      if (!(err instanceof Error && err.name === 'Confirmation')) showError(form, errorBox, err, o.context ?? {});
    } finally {
      submit.disabled = false;
      submit.textContent = label;
      form.removeAttribute('aria-busy');
    }
  });

  document.body.append(dialog);
  dialog.showModal();
  const first = /** @type {HTMLElement | null} */ (form.querySelector('[autofocus], input, select, textarea'));
  (first ?? submit ?? cancel).focus();
  return { dialog, form, close };
}

/**
 * Show a failure in plain words in the dialog; mark and focus the field it names, if any.
 * @param {HTMLFormElement} form
 * @param {HTMLElement} box
 * @param {unknown} err
 * @param {import('./messages.js').ErrorContext} context
 */
function showError(form, box, err, context) {
  box.textContent = explain(err, context);
  box.hidden = false;
  const raw = err instanceof Error ? err.message : String(err);
  const field = fieldOf(raw)?.toLowerCase() ?? null;
  /** @type {HTMLElement | null} */
  let named = null;
  for (const el of form.querySelectorAll('input[name], select[name], textarea[name]')) {
    const name = /** @type {HTMLInputElement} */ (el).name.toLowerCase();
    if (name === field || new RegExp(`\\b${name}\\b`).test(raw.toLowerCase())) {
      el.setAttribute('aria-invalid', 'true');
      named ??= /** @type {HTMLElement} */ (el);
    }
  }
  named?.focus();
}

/**
 * Ask before doing something that cannot be undone.
 * @param {object} o
 * @param {string} o.title
 * @param {string} o.message
 * @param {string} o.confirmLabel
 * @param {string} [o.cancelLabel]  say what "no" keeps ("Keep order"), never a bare "Cancel" beside "Cancel order"
 * @param {() => Promise<unknown>} o.onConfirm
 * @param {import('./messages.js').ErrorContext} [o.context]
 * @param {import('./dom.js').Child[]} [o.extra]
 * @param {boolean} [o.offer]  an offer, not a risk: a plain button, and the keyboard on "no",
 *   so a scanner's next Enter does not accept it
 */
export function confirmAction(o) {
  const handle = openDialog({
    title: o.title,
    body: [h('p', {}, o.message), ...(o.extra ?? [])],
    submitLabel: o.confirmLabel,
    cancelLabel: o.cancelLabel,
    context: o.context,
    danger: !o.offer,
    size: 'narrow',
    onSubmit: () => o.onConfirm(),
  });
  if (o.offer) /** @type {HTMLElement | null} */ (handle.form.querySelector('button[value="cancel"]'))?.focus();
  return handle;
}

/**
 * Read a form's named controls as strings (trimmed).
 * @param {HTMLFormElement} form
 * @returns {Record<string, string>}
 */
export function formValues(form) {
  /** @type {Record<string, string>} */
  const out = {};
  for (const [k, v] of new FormData(form).entries()) out[k] = String(v).trim();
  return out;
}
