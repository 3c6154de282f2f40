//! A parser for the text/event-stream format (the WHATWG "event stream interpretation"),
//! fed with decoded text chunks as they arrive. Pure: no DOM, no fetch, so it is unit-tested
//! in node.

/**
 * @typedef {object} SseMessage
 * @property {string} id     the last event id seen so far ('' when none)
 * @property {string} event  the event type ('message' when none given)
 * @property {string} data   the data lines joined with '\n'
 */

export class SseParser {
  /**
   * @param {(msg: SseMessage) => void} onMessage
   * @param {(comment: string) => void} [onComment]  heartbeats arrive here
   */
  constructor(onMessage, onComment = () => {}) {
    this.onMessage = onMessage;
    this.onComment = onComment;
    this.buffer = '';
    /** @type {string[]} */
    this.data = [];
    this.event = '';
    this.lastId = '';
  }

  /** Feed the next chunk of text. @param {string} chunk */
  push(chunk) {
    this.buffer += chunk;
    for (;;) {
      const m = /\r\n|\r|\n/.exec(this.buffer);
      if (!m) break;
      // A lone '\r' at the very end may be the first half of '\r\n': wait for more.
      if (m[0] === '\r' && m.index === this.buffer.length - 1) break;
      const line = this.buffer.slice(0, m.index);
      this.buffer = this.buffer.slice(m.index + m[0].length);
      this.line(line);
    }
  }

  /** @param {string} line */
  line(line) {
    if (line === '') {
      this.dispatch();
      return;
    }
    if (line.startsWith(':')) {
      this.onComment(line.slice(1).trim());
      return;
    }
    const colon = line.indexOf(':');
    const name = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (name === 'data') this.data.push(value);
    else if (name === 'event') this.event = value;
    else if (name === 'id' && !value.includes('\0')) this.lastId = value;
    // 'retry' and unknown fields are ignored: reconnect timing is ours.
  }

  dispatch() {
    if (this.data.length > 0) {
      this.onMessage({ id: this.lastId, event: this.event || 'message', data: this.data.join('\n') });
    }
    this.data = [];
    this.event = '';
  }
}
