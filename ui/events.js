//! The live connection: GET /events read with fetch() streaming (EventSource cannot send the
//! X-API-Key header, and secrets never go in URLs). Parses the stream, resumes with
//! Last-Event-ID, reconnects by itself with backoff, and watches heartbeats so a dead
//! connection is noticed.

import { parseRetryAfter, retryDelay, sleep } from './backoff.js';
import { SseParser } from './sse.js';

/** With no bytes (not even a heartbeat) for this long, the connection is taken as dead. */
const SILENCE_MS = 45_000;

/**
 * @typedef {'connecting' | 'live' | 'reconnecting' | 'stopped'} LiveStatus
 * @typedef {import('./types.js').StoreEvent} StoreEvent
 */

/**
 * Open the stream and keep it open until `close()`.
 * @param {object} opts
 * @param {string} opts.key
 * @param {(ev: StoreEvent, id: string) => void} opts.onEvent
 * @param {(status: LiveStatus) => void} opts.onStatus
 * @param {() => void} [opts.onReconnected]  after a gap: the page should re-fetch
 * @param {() => void} [opts.onUnauthorized]
 * @returns {{ close: () => void }}
 */
export function connectEvents({ key, onEvent, onStatus, onReconnected = () => {}, onUnauthorized = () => {} }) {
  let closed = false;
  let lastId = '';
  /** @type {AbortController | null} */
  let current = null;

  async function run() {
    let failures = 0;
    let everConnected = false;
    while (!closed) {
      onStatus(everConnected || failures > 0 ? 'reconnecting' : 'connecting');
      const ctrl = new AbortController();
      current = ctrl;
      /** @type {number | null} */
      let retryAfterMs = null;
      try {
        /** @type {Record<string, string>} */
        const headers = { 'X-API-Key': key, Accept: 'text/event-stream' };
        if (lastId) headers['Last-Event-ID'] = lastId;
        const res = await fetch('/events', { headers, signal: ctrl.signal, cache: 'no-store' });
        if (res.status === 401) {
          onStatus('stopped');
          onUnauthorized();
          return;
        }
        if (!res.ok || !res.body) {
          retryAfterMs = parseRetryAfter(res.headers.get('Retry-After'));
          await res.body?.cancel().catch(() => {});
          throw new Error(`events answered ${res.status}`);
        }
        onStatus('live');
        if (everConnected) onReconnected();
        everConnected = true;
        failures = 0;
        await read(res.body, ctrl, (ev, id) => {
          lastId = id || lastId;
          onEvent(ev, id);
        });
      } catch {
        // Aborted, refused or cut: fall through to the backoff below.
      }
      if (closed) break;
      onStatus('reconnecting');
      await sleep(retryDelay(Math.min(failures, 5), retryAfterMs, { baseMs: 1000 }));
      failures += 1;
    }
    onStatus('stopped');
  }

  run();
  return {
    close() {
      closed = true;
      current?.abort();
    },
  };
}

/**
 * Read the body until it ends, or until it has been silent for too long.
 * @param {ReadableStream<Uint8Array>} body
 * @param {AbortController} ctrl
 * @param {(ev: StoreEvent, id: string) => void} deliver
 */
async function read(body, ctrl, deliver) {
  const parser = new SseParser((msg) => {
    /** @type {StoreEvent} */
    let ev;
    try {
      ev = JSON.parse(msg.data);
    } catch {
      ev = { type: msg.event };
    }
    if (!ev || typeof ev.type !== 'string') ev = { type: msg.event, data: ev };
    deliver(ev, msg.id);
  });
  const reader = /** @type {ReadableStream<string>} */ (body.pipeThrough(/** @type {any} */ (new TextDecoderStream()))).getReader();
  let timer = setTimeout(() => ctrl.abort(), SILENCE_MS);
  try {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) return;
      clearTimeout(timer);
      timer = setTimeout(() => ctrl.abort(), SILENCE_MS);
      parser.push(value);
    }
  } finally {
    clearTimeout(timer);
    reader.releaseLock();
  }
}
