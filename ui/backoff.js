//! Retry timing shared by the API client and the event stream: honour the server's
//! Retry-After, then grow exponentially, with jitter so that many tills do not retry in step.

/**
 * Parse a Retry-After header (whole seconds or an HTTP date) into milliseconds.
 * @param {string | null} value
 * @param {number} [now] ms since the epoch
 * @returns {number | null}
 */
export function parseRetryAfter(value, now = Date.now()) {
  if (value === null || value.trim() === '') return null;
  const trimmed = value.trim();
  if (/^\d+$/.test(trimmed)) return Number(trimmed) * 1000;
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? null : Math.max(0, date - now);
}

/**
 * How long to wait before retry number `attempt` (0 for the first retry).
 * The wait is at least Retry-After, and at least base·2^attempt (capped), plus up to 25 % jitter.
 * @param {number} attempt
 * @param {number | null} retryAfterMs
 * @param {{ baseMs?: number, capMs?: number, random?: () => number }} [opts]
 */
export function retryDelay(attempt, retryAfterMs, opts = {}) {
  const { baseMs = 500, capMs = 30_000, random = Math.random } = opts;
  const exp = Math.min(capMs, baseMs * 2 ** attempt);
  const floor = Math.max(retryAfterMs ?? 0, exp);
  return Math.round(floor + random() * 0.25 * exp);
}

/** @param {number} ms */
export function sleep(ms) {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
