// Unit tests of the UI's pure modules (the event-stream parser, the retry timing), in node.
// The UI is plain browser ES modules with no package.json of its own, so they are loaded from
// their source as data: URLs; neither imports anything.

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const load = (/** @type {string} */ name) =>
  import('data:text/javascript,' + encodeURIComponent(readFileSync(new URL(`../../ui/${name}`, import.meta.url), 'utf8')));

const { SseParser } = await load('sse.js');
const { parseRetryAfter, retryDelay } = await load('backoff.js');

/** @param {string[]} chunks */
function parse(chunks) {
  /** @type {any[]} */
  const messages = [];
  /** @type {string[]} */
  const comments = [];
  const p = new SseParser((/** @type {any} */ m) => messages.push(m), (/** @type {string} */ c) => comments.push(c));
  for (const c of chunks) p.push(c);
  return { messages, comments };
}

describe('the event-stream parser', () => {
  it('reads id, event and data, and ends a message at a blank line', () => {
    const { messages } = parse(['id: 7\nevent: pet.created\ndata: {"type":"pet.created"}\n\n']);
    assert.deepEqual(messages, [{ id: '7', event: 'pet.created', data: '{"type":"pet.created"}' }]);
  });

  it('joins a message split across chunks at any byte, with CRLF line ends', () => {
    const text = 'id: 1\r\nevent: order.created\r\ndata: {"a":1}\r\n\r\nid: 2\r\ndata: x\r\n\r\n';
    for (let cut = 1; cut < text.length; cut += 1) {
      const { messages } = parse([text.slice(0, cut), text.slice(cut)]);
      assert.equal(messages.length, 2, `cut at ${cut}`);
      assert.deepEqual(messages[1], { id: '2', event: 'message', data: 'x' });
    }
  });

  it('passes heartbeats as comments and dispatches nothing for them', () => {
    const { messages, comments } = parse([': heartbeat\n\n', ':\n\n']);
    assert.deepEqual(messages, []);
    assert.deepEqual(comments, ['heartbeat', '']);
  });

  it('keeps the last id for messages that carry none, and joins multi-line data', () => {
    const { messages } = parse(['id: 41\ndata: a\n\ndata: b\ndata: c\n\n']);
    assert.deepEqual(messages.map((m) => [m.id, m.data]), [['41', 'a'], ['41', 'b\nc']]);
  });

  it('does not dispatch a message that has not ended', () => {
    const { messages } = parse(['id: 3\ndata: half']);
    assert.deepEqual(messages, []);
  });
});

describe('retry timing', () => {
  it('reads Retry-After as seconds or as an HTTP date', () => {
    assert.equal(parseRetryAfter('3'), 3000);
    assert.equal(parseRetryAfter(null), null);
    assert.equal(parseRetryAfter('soon'), null);
    const now = Date.parse('2026-01-01T00:00:00Z');
    assert.equal(parseRetryAfter('Thu, 01 Jan 2026 00:00:05 GMT', now), 5000);
  });

  it('waits at least Retry-After, then grows exponentially with bounded jitter', () => {
    const none = () => 0;
    const most = () => 0.999;
    assert.equal(retryDelay(0, 2000, { random: none }), 2000);
    assert.equal(retryDelay(0, null, { random: none }), 500);
    assert.equal(retryDelay(3, null, { random: none }), 4000);
    assert.equal(retryDelay(20, null, { random: none }), 30000, 'capped');
    assert.ok(retryDelay(2, null, { random: most }) <= 2000 * 1.25);
    assert.ok(retryDelay(2, null, { random: most }) > 2000);
  });
});
