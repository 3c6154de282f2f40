// Loads the UI's pure modules in node. The UI is plain browser ES modules with no package.json
// of its own, so a module is loaded from its source as a data: URL. The one thing a pure module
// may import is the contract's generated facts (ui/facts.js), which is loaded the same way.

import { readFileSync } from 'node:fs';

const source = (/** @type {string} */ name) => readFileSync(new URL(`../../../ui/${name}`, import.meta.url), 'utf8');
const asUrl = (/** @type {string} */ text) => 'data:text/javascript,' + encodeURIComponent(text);
const FACTS = asUrl(source('facts.js'));

/** The module `ui/<name>`, its import of the facts pointed at their data: URL. @param {string} name */
export const load = (name) => import(asUrl(source(name).replace(/from '(?:\.\.?\/)+facts\.js'/g, `from ${JSON.stringify(FACTS)}`)));
