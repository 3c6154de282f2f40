//! A tiny DOM helper. Every string becomes a text node: names typed on POS devices are never
//! parsed as HTML, so no escaping is needed anywhere else in the UI.

/**
 * @typedef {Record<string, unknown>} Props
 * Attributes to set. `class` sets className, `text` sets textContent, `value`/`checked`/
 * `disabled`/`selected`/`hidden` set the property, `on<event>` adds a listener, `true` sets an
 * empty attribute, `null`/`undefined`/`false` are skipped.
 */

/** @typedef {Node | string | number | null | undefined | false | Array<any>} Child  arrays are flattened */

/**
 * Create an element.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Props | null} [props]
 * @param {...Child} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, props, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(props ?? {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k.startsWith('on') && typeof v === 'function') {
      el.addEventListener(k.slice(2).toLowerCase(), /** @type {EventListener} */ (v));
    } else if (k === 'class') {
      el.className = String(v);
    } else if (k === 'text') {
      el.textContent = String(v);
    } else if (k === 'value' || k === 'checked' || k === 'disabled' || k === 'selected' || k === 'hidden') {
      /** @type {any} */ (el)[k] = k === 'value' ? String(v) : Boolean(v);
    } else {
      el.setAttribute(k, v === true ? '' : String(v));
    }
  }
  append(el, children);
  return el;
}

/**
 * Append children (flattened; strings as text nodes).
 * @param {Element | DocumentFragment} el
 * @param {Child[]} children
 */
export function append(el, children) {
  for (const c of children.flat(Infinity)) {
    if (c === null || c === undefined || c === false) continue;
    el.append(c instanceof Node ? c : String(c));
  }
}

/**
 * Replace all children of `el`.
 * @param {Element} el
 * @param {...Child} children
 */
export function replace(el, ...children) {
  el.replaceChildren();
  append(el, children);
}

/**
 * A labelled form field: <label for> + control (+ optional hint). Returns the wrapper.
 * @param {string} label
 * @param {HTMLElement} control  must have an id
 * @param {string} [hint]
 */
export function field(label, control, hint) {
  const hintEl = hint ? h('small', { class: 'hint', id: `${control.id}-hint` }, hint) : null;
  if (hintEl) control.setAttribute('aria-describedby', hintEl.id);
  return h('div', { class: 'field' }, h('label', { for: control.id }, label), control, hintEl);
}

let seq = 0;
/** A unique id for label/control pairs. @param {string} prefix */
export function uid(prefix) {
  seq += 1;
  return `${prefix}-${seq}`;
}

/**
 * A <select> from [value, label] pairs.
 * @param {Props} props
 * @param {Array<[string, string, boolean?]>} options  value, label, disabled
 * @param {string} [selected]
 */
export function select(props, options, selected) {
  return h(
    'select',
    props,
    options.map(([value, label, disabled]) =>
      h('option', { value, selected: value === selected, disabled: disabled ?? false }, label),
    ),
  );
}

/**
 * Saves `blob` on this device as the file `name` (a hidden link clicked once; the object URL
 * is let go a little later, when the browser has started the download).
 * @param {Blob} blob @param {string} name
 */
export function saveBlob(blob, name) {
  const url = URL.createObjectURL(blob);
  const a = /** @type {HTMLAnchorElement} */ (h('a', { href: url, download: name, hidden: true }));
  document.body.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
