//! Whether an import file's prices look 100 times off: the file's cells of one column read
//! from CSV text, and their typical size compared with the prices already in the store. Pure
//! functions (no imports), so they are tested in node.

/**
 * The rows of RFC 4180 text, the header first.
 * @param {string} text
 * @returns {string[][]}
 */
function csvRows(text) {
  /** @type {string[][]} */
  const rows = [];
  /** @type {string[]} */
  let row = [];
  let cell = '';
  let quoted = false;
  const body = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < body.length; i += 1) {
    const c = body[i];
    if (quoted) {
      if (c === '"' && body[i + 1] === '"') { cell += '"'; i += 1; }
      else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') { row.push(cell); cell = ''; }
    else if (c === '\n' || c === '\r') {
      if (c === '\r' && body[i + 1] === '\n') i += 1;
      row.push(cell); rows.push(row); row = []; cell = '';
    } else cell += c;
  }
  if (cell !== '' || row.length) { row.push(cell); rows.push(row); }
  return rows;
}

/**
 * Where column `name` is in a header (matched case-insensitively), or -1.
 * @param {string[] | undefined} header @param {string} name
 */
const columnAt = (header, name) => (header ?? []).findIndex((h) => h.trim().toLowerCase() === name.toLowerCase());

/**
 * The cells of column `name` (header matched case-insensitively), from RFC 4180 text.
 * @param {string} text
 * @param {string} name
 * @returns {string[]}
 */
export function csvColumn(text, name) {
  const [header, ...data] = csvRows(text);
  const at = columnAt(header, name);
  if (at < 0) return [];
  return data.map((r) => (r[at] ?? '').trim()).filter((c) => c !== '');
}

/**
 * The first `n` rows with a cell in column `value`, as [cell of `label`, cell of `value`]:
 * what the import dialog shows to say how a file's prices are read.
 * @param {string} text
 * @param {string} label
 * @param {string} value
 * @param {number} n
 * @returns {Array<[string, string]>}
 */
export function csvPairs(text, label, value, n) {
  const [header, ...data] = csvRows(text);
  const a = columnAt(header, label);
  const b = columnAt(header, value);
  if (b < 0) return [];
  return data
    .map((r) => /** @type {[string, string]} */ ([(a < 0 ? '' : r[a] ?? '').trim(), (r[b] ?? '').trim()]))
    .filter(([, v]) => v !== '')
    .slice(0, n);
}

/** @param {number[]} values */
function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/**
 * How a file's prices compare with the store's, both in minor units: `small` or `large` when
 * their medians are 30 or more times apart (prices typed in cents, or 100 times too high),
 * with the two medians; `null` when they look alike or there is nothing to compare.
 * @param {number[]} file
 * @param {number[]} store
 * @returns {{ scale: 'small' | 'large', fileMedian: number, storeMedian: number } | null}
 */
export function priceScale(file, store) {
  const f = file.filter((p) => Number.isFinite(p) && p > 0);
  const s = store.filter((p) => Number.isFinite(p) && p > 0);
  if (f.length === 0 || s.length === 0) return null;
  const fileMedian = median(f);
  const storeMedian = median(s);
  if (fileMedian * 30 <= storeMedian) return { scale: 'small', fileMedian, storeMedian };
  if (fileMedian >= storeMedian * 30) return { scale: 'large', fileMedian, storeMedian };
  return null;
}
