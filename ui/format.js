//! Formatting for people: local times, statuses, counts.

const dateTime = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const timeOnly = new Intl.DateTimeFormat(undefined, { timeStyle: 'medium' });

/**
 * An RFC 3339 time in the device's local time; '—' when there is none.
 * @param {string | null | undefined} iso
 */
export function localTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateTime.format(d);
}

const shortDate = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/**
 * Compact local time for dense tables: "14:05" today, "Nov 21, 14:05" otherwise.
 * @param {string | null | undefined} iso
 */
export function shortTime(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const today = new Date().toDateString() === d.toDateString();
  return today ? timeShort.format(d) : `${shortDate.format(d)}, ${timeShort.format(d)}`;
}

const timeShort = new Intl.DateTimeFormat(undefined, { timeStyle: 'short' });

/** @param {string | null | undefined} iso */
export function localClock(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : timeOnly.format(d);
}

/** @param {string | undefined | null} status */
export function statusLabel(status) {
  if (status === 'available') return 'Available';
  if (status === 'pending') return 'Pending';
  if (status === 'sold') return 'Sold';
  return 'No status';
}

/** @param {number} delta */
export function signed(delta) {
  return delta > 0 ? `+${delta}` : delta < 0 ? `−${Math.abs(delta)}` : '0';
}

/** @param {number} n @param {string} one @param {string} [many] */
export function plural(n, one, many = one + 's') {
  return `${n} ${n === 1 ? one : many}`;
}

/**
 * Fold text for matching: lower case, accents removed.
 * @param {string} s
 */
export function fold(s) {
  return s.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').toLocaleLowerCase();
}

/**
 * Whether every word of `query` matches, in any order: found anywhere in one of `anywhere`
 * (a name, a code), or at the start of a word of one of `wordStarts` (a category). The same
 * rule as the server's pet search.
 * @param {string} query
 * @param {string[]} anywhere
 * @param {string[]} [wordStarts]
 */
export function matchesWords(query, anywhere, wordStarts = []) {
  const hay = anywhere.map(fold);
  const words = wordStarts.flatMap((f) => fold(f).split(/\s+/));
  return fold(query).split(/\s+/).filter(Boolean)
    .every((w) => hay.some((f) => f.includes(w)) || words.some((f) => f.startsWith(w)));
}
