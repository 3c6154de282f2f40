//! Printing from the till: a receipt's (or Z report's) HTML goes into a hidden frame whose
//! print dialog then shows just that page, on the narrow paper its own print CSS asks for.

import * as api from '../api.js';

/** @type {HTMLIFrameElement | null} */
let frame = null;

/**
 * Open the browser's print dialog on `html`.
 * @param {string} html  a whole document
 * @returns {Promise<void>}
 */
export function printHtml(html) {
  frame?.remove();
  const f = document.createElement('iframe');
  f.className = 'print-frame';
  f.title = 'Printout';
  f.setAttribute('aria-hidden', 'true');
  f.tabIndex = -1;
  frame = f;
  return new Promise((resolve) => {
    f.addEventListener('load', () => {
      f.contentWindow?.focus();
      f.contentWindow?.print();
      resolve();
    }, { once: true });
    f.srcdoc = html;
    document.body.append(f);
  });
}

/** Print a sale's receipt as the store writes it. @param {number} saleId */
export async function printReceipt(saleId) {
  const blob = await api.download(`/store/sales/${saleId}/receipt`, undefined, 'text/html');
  await printHtml(await blob.text());
}
