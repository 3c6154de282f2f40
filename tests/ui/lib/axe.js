// axe-core over a page, for the browser tests that check a screen has no accessibility
// violation: the WCAG 2.2 A/AA rules and axe's best practices, each violation named with its
// first three elements.

import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations on the page, as `rule (impact): selectors`. @param {import('playwright-core').Page} page */
export async function violations(page) {
  if (!(await page.evaluate(() => 'axe' in window))) await page.addScriptTag({ content: AXE });
  return /** @type {string[]} */ (await page.evaluate(async () => {
    const res = await /** @type {any} */ (window).axe.run(document, {
      resultTypes: ['violations'],
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] },
    });
    return res.violations.map((/** @type {any} */ v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((/** @type {any} */ n) => n.target.join(' ')).join(' | ')}`);
  }));
}
