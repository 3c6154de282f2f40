// Unit tests of the UI's pure modules (the event-stream parser, the retry timing), in node.
// They are loaded from their source as data: URLs (lib/modules.js).

import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { load } from './lib/modules.js';

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

const { makeRefresher, roleCan } = await load('refresh.js');
const { explain, fieldOf } = await load('messages.js');
const { isLow, mismatch, unlikelyCount } = await load('rules.js');
const { matchesWords } = await load('format.js');

describe('the page refresher', () => {
  it('turns a burst of events into one load', async () => {
    let loads = 0;
    const r = makeRefresher(async () => { loads += 1; }, { quietMs: 20, maxWaitMs: 200 });
    for (let i = 0; i < 30; i += 1) r.soon();
    await new Promise((res) => setTimeout(res, 80));
    assert.equal(loads, 1);
    r.stop();
  });

  it('still loads within the longest wait while events keep coming', async () => {
    let loads = 0;
    const r = makeRefresher(async () => { loads += 1; }, { quietMs: 200, maxWaitMs: 100 });
    const started = Date.now();
    while (Date.now() - started < 600) {
      r.soon();
      await new Promise((res) => setTimeout(res, 20));
    }
    assert.ok(loads >= 2, `loaded ${loads} times in 600 ms of steady events`);
    r.stop();
  });

  it('runs one load at a time and queues exactly one more', async () => {
    let loads = 0;
    let inFlight = 0;
    let most = 0;
    const r = makeRefresher(async () => {
      loads += 1;
      inFlight += 1;
      most = Math.max(most, inFlight);
      await new Promise((res) => setTimeout(res, 20));
      inFlight -= 1;
    });
    await Promise.all([r.now(), r.now(), r.now(), r.now()]);
    assert.equal(most, 1);
    assert.equal(loads, 2);
  });

  it('reports a failed load and keeps working', async () => {
    const seen = [];
    let fail = true;
    const r = makeRefresher(async () => { if (fail) throw new Error('down'); }, { onError: (e) => seen.push(e.message) });
    await r.now();
    fail = false;
    await r.now();
    assert.deepEqual(seen, ['down']);
  });

  it('lets each role do what the server lets it', () => {
    assert.equal(roleCan('readonly', 'read'), true);
    assert.equal(roleCan('readonly', 'sell'), false);
    assert.equal(roleCan('pos', 'sell'), true);
    assert.equal(roleCan('pos', 'stock'), false);
    assert.equal(roleCan('staff', 'edit'), true);
    assert.equal(roleCan('staff', 'admin'), false);
    assert.equal(roleCan('admin', 'admin'), true);
  });
});

describe('messages in plain words', () => {
  const err = (status, code, message, retryAfterMs = null) => ({ status, code, message, retryAfterMs });

  it('names the pet and the figures for too little stock', () => {
    assert.equal(explain(err(409, 'insufficient_stock', 'pet 17 has 52 in stock; 500 requested'), { action: 'order', name: 'Goldfish (common)' }),
      'Only 52 Goldfish (common) in stock.');
    assert.equal(explain(err(409, 'insufficient_stock', 'pet 19 has 2 in stock; 5 requested'), { action: 'adjust', name: 'Betta (female)' }),
      'Only 2 Betta (female) in stock, so you can’t remove 5.');
  });

  it('says what a field needs instead of the parser text', () => {
    assert.equal(explain(err(400, 'bad_request', 'perMinute: invalid value: integer `-5`, expected u64'), { action: 'key' }),
      'Requests a minute must be a whole number of at least 1.');
    assert.equal(explain(err(422, 'validation_failed', 'quantity: must be between 0 and 1000000'), { action: 'set' }),
      'Enter a count from 0 to 1,000,000, in whole units.');
    assert.equal(explain(err(422, 'validation_failed', 'name: must not be empty'), { action: 'category' }),
      'Give the category a name (up to 100 characters).');
    assert.equal(fieldOf('delta: must be a non-zero integer'), 'delta');
  });

  it('gives a ban in minutes with the way out', () => {
    assert.equal(explain(err(429, 'temporarily_banned', 'too many requests over the limit; this caller is banned for 844 more seconds', 844_000)),
      'This device is blocked for 15 minutes because it made too many requests. A manager can lift the ban on the Keys page.');
  });

  it('names the change a rate limit refused, so the clerk knows what to do again', () => {
    assert.match(explain(err(429, 'temporarily_banned', 'banned', 900_000), { action: 'adjust', name: 'Guppy', change: '+1 on Guppy' }),
      /^Not saved: \+1 on Guppy\. This device is blocked for 15 minutes/);
    assert.match(explain(err(429, 'rate_limited', 'slow down'), { action: 'adjust', name: 'Guppy', change: '−1 on Guppy' }),
      /^Not saved: −1 on Guppy\. This device is making too many requests/);
  });

  it('names the category in use and the duplicate', () => {
    assert.equal(explain(err(409, 'category_in_use', 'category 1 still has pets; move or delete them first'), { action: 'category', name: 'Dogs' }),
      'Dogs still has pets. Move them to another category first.');
    assert.equal(explain(err(409, 'duplicate_name', 'a category named "dogs" already exists'), { action: 'category', name: 'Dogs' }),
      'There is already a category called Dogs.');
  });

  it('never shows a role error in developer words', () => {
    const text = explain(err(403, 'forbidden', "this key's role may not do this; it needs the staff role or higher"), { action: 'adjust' });
    assert.equal(text, 'Your sign-in can’t change stock. Ask a manager.');
  });
});

describe('stock rules', () => {
  it('calls stock low only at or below a reorder point', () => {
    assert.equal(isLow({ quantity: 0 }), false, 'a sold puppy at 0 with no reorder point is no reorder');
    assert.equal(isLow({ quantity: 5, reorderPoint: 5 }), true);
    assert.equal(isLow({ quantity: 6, reorderPoint: 5 }), false);
  });

  it('finds status and stock that disagree', () => {
    assert.equal(mismatch('sold', 2), 'sellable-but-blocked');
    assert.equal(mismatch('available', 0), 'available-but-empty');
    assert.equal(mismatch(undefined, 0), null);
    assert.equal(mismatch('available', 3), null);
  });

  it('asks again about a count far from the old one', () => {
    assert.equal(unlikelyCount(14, 1430), true);
    assert.equal(unlikelyCount(14, 30), false);
    assert.equal(unlikelyCount(0, 400), false);
    assert.equal(unlikelyCount(0, 500), true);
  });

  it('matches every word in any order, in any field', () => {
    assert.equal(matchesWords('puppy beagle', ['Biscuit (Beagle puppy)'], ['Dogs']), true);
    assert.equal(matchesWords('beagle dog', ['Biscuit (Beagle puppy)'], ['Dogs']), true);
    assert.equal(matchesWords('fish', ['Neon tetra'], ['Tropical fish']), true);
    assert.equal(matchesWords('o', ['Biscuit'], ['Dogs']), false, 'inside a category word is no match');
    assert.equal(matchesWords('beagle cats', ['Biscuit (Beagle puppy)'], ['Dogs']), false);
  });
});

const { csvColumn, csvPairs, priceScale } = await load('pricecheck.js');

describe('the import’s price check', () => {
  it('reads one column of RFC 4180 text, quotes and all', () => {
    const text = '\uFEFFname,Price\r\n"Goldfish, fancy",4.50\r\nRex,"27,50"\r\n"Say ""hi""",\r\n';
    assert.deepEqual(csvColumn(text, 'price'), ['4.50', '27,50']);
    assert.deepEqual(csvColumn('name\nRex\n', 'price'), []);
  });

  it('pairs each row’s name with its price, skipping rows without one, for the first few rows', () => {
    const text = 'Price,category,name\r\n4.50,Fish,"Goldfish, fancy"\r\n,Dogs,Rex\r\n"27,50",Dogs,Pug\r\n3,Fish,Guppy\r\n';
    assert.deepEqual(csvPairs(text, 'name', 'price', 2), [['Goldfish, fancy', '4.50'], ['Pug', '27,50']]);
    assert.deepEqual(csvPairs('price\n6\n', 'name', 'price', 3), [['', '6']]);
    assert.deepEqual(csvPairs('name\nRex\n', 'name', 'price', 3), []);
  });

  it('calls prices 30 or more times from the store’s small or large, and others alike', () => {
    assert.equal(priceScale([27, 31, 29], [2700, 3100, 2900])?.scale, 'small');
    assert.equal(priceScale([270000, 310000], [2700, 3100])?.scale, 'large');
    assert.equal(priceScale([2500, 99], [2700, 3100, 2900]), null);
    assert.equal(priceScale([27], []), null, 'nothing to compare with');
    assert.deepEqual(priceScale([0, 27], [2700]), { scale: 'small', fileMedian: 27, storeMedian: 2700 });
  });
});

describe('receiving by scan', async () => {
  const { lineFor, receiptBody } = await load('receipt.js');
  const pets = new Map([[1, { barcode: '2000000000770' }], [2, { sku: 'TETRA-NEON' }], [3, { barcode: '4006381333931', sku: 'X' }]]);

  it('finds the line a scan names by barcode or by SKU, ignoring case and spaces', () => {
    assert.equal(lineFor('2000000000770', [1, 2], pets), 1);
    assert.equal(lineFor(' tetra-neon ', [1, 2], pets), 2);
  });

  it('names no line for a code of a pet that is not on the order, or for nothing', () => {
    assert.equal(lineFor('4006381333931', [1, 2], pets), null);
    assert.equal(lineFor('', [1, 2, 3], pets), null);
  });

  it('sends the lines counted above zero, in the order’s line order', () => {
    assert.deepEqual(receiptBody([2, 1, 3], new Map([[1, 3], [3, 0], [2, 10]])), { lines: [{ petId: 2, quantity: 10 }, { petId: 1, quantity: 3 }] });
    assert.deepEqual(receiptBody([1], new Map()), { lines: [] });
  });
});

const { ageText, nextDue, dueText, todayIso } = await load('animalrules.js');

describe('the animal screens’ rules', () => {
  const now = new Date(2026, 10, 26, 15, 0);

  it('says an animal’s age in days, weeks, months or years as a clerk would', () => {
    assert.equal(ageText(undefined, now), '');
    assert.equal(ageText('2026-11-23', now), '3 days');
    assert.equal(ageText('2026-09-03', now), '12 weeks');
    assert.equal(ageText('2026-05-26', now), '6 months');
    assert.equal(ageText('2026-05-27', now), '5 months');
    assert.equal(ageText('2023-11-26', now), '3 years');
    assert.equal(ageText('2026-12-01', now), '', 'not born yet is no age');
  });

  it('keeps care’s rhythm: next due as far after today as the last due date was after its entry', () => {
    const fedYesterdayForToday = { dueOn: '2026-11-26', lastAt: new Date(2026, 10, 25, 8, 30).toISOString() };
    assert.equal(nextDue(fedYesterdayForToday, now), '2026-11-27');
    const weekly = { dueOn: '2026-11-20', lastAt: new Date(2026, 10, 13, 9, 0).toISOString() };
    assert.equal(nextDue(weekly, now), '2026-12-03', 'a weekly check logged late is due a week later');
    const sameDay = { dueOn: '2026-11-25', lastAt: new Date(2026, 10, 25, 23, 0).toISOString() };
    assert.equal(nextDue(sameDay, now), '2026-11-27', 'at least one day');
    assert.equal(todayIso(now), '2026-11-26');
  });

  it('says how overdue care is, or when it falls due', () => {
    assert.equal(dueText({ dueOn: '2026-11-23', overdueDays: 3 }), 'Overdue 3 days');
    assert.equal(dueText({ dueOn: '2026-11-25', overdueDays: 1 }), 'Overdue 1 day');
    assert.equal(dueText({ dueOn: '2026-11-26', overdueDays: 0 }), 'Due today');
    assert.equal(dueText({ dueOn: '2026-11-27', overdueDays: -1 }), 'Due tomorrow');
  });
});

describe('the animal refusals in plain words', () => {
  it('says a hold’s last day and reason, and an animal’s stock rule, with the pet’s name', () => {
    const held = { status: 409, code: 'on_hold', message: 'pet 42 is on hold until the end of 2026-06-01: Quarantine after arrival' };
    assert.equal(explain(held, { action: 'order', name: 'Biscuit' }),
      'Biscuit is on hold until the end of 2026-06-01: Quarantine after arrival. It can’t be ordered or sold until then, unless a manager clears the hold.');
    const two = { status: 422, code: 'validation_failed', message: 'counted: pet 7 is one individual animal: its stock is 0 or 1, not 2' };
    assert.equal(explain(two, { name: 'Pip' }), 'Pip is one individual animal: its stock can only be 0 or 1.');
    const chip = { status: 422, code: 'validation_failed', message: 'animal.microchip: must be 15 digits' };
    assert.equal(fieldOf(chip.message), 'animal.microchip');
    assert.equal(explain(chip), 'A microchip number is 15 digits.');
    assert.equal(explain({ status: 409, code: 'duplicate_code', message: 'microchip 985112345678901 is on pet 3' }), 'Another animal already has this microchip number.');
  });
});

describe('the refund preview', async () => {
  const { refundShare, refundedByPet } = await load('refund.js');
  const none = { quantity: 0, amount: 0, tax: 0 };

  it('gives the rounded share, and the refund that empties a line gives exactly what is left', () => {
    // 3 × 333 = 999 with 167 tax (the server's own table test): 333/56, 333/56, then 333/55.
    const line = { total: 999, tax: 167, quantity: 3 };
    assert.deepEqual(refundShare(line, none, 1), { amount: 333, tax: 56 });
    assert.deepEqual(refundShare(line, { quantity: 2, amount: 666, tax: 112 }, 1), { amount: 333, tax: 55 });
    assert.deepEqual(refundShare(line, none, 3), { amount: 999, tax: 167 });
  });

  it('never gives more than is left, and refuses more units than may still be refunded', () => {
    // Ten units of a 5-cent line: 0.5 rounds to 1, until nothing is left.
    const line = { total: 5, tax: 0, quantity: 10 };
    assert.deepEqual(refundShare(line, { quantity: 5, amount: 5, tax: 0 }, 1), { amount: 0, tax: 0 });
    assert.equal(refundShare(line, none, 11), null);
    assert.equal(refundShare(line, none, 0), null);
    assert.equal(refundShare(line, none, 1.5), null);
  });

  it('is exact for the largest line the bounds allow', () => {
    const line = { total: 2_000_000_000_000, tax: 333_333_333_333, quantity: 10_000 };
    assert.deepEqual(refundShare(line, none, 9_999), { amount: 1_999_800_000_000, tax: 333_300_000_000 });
  });

  it('adds up what earlier refunds took back, by pet', () => {
    const back = refundedByPet([
      { lines: [{ petId: 1, quantity: 1, amount: 10, tax: 2 }, { petId: 2, quantity: 2, amount: 30, tax: 5 }] },
      { lines: [{ petId: 1, quantity: 2, amount: 20, tax: 3 }] },
    ]);
    assert.deepEqual(back.get(1), { quantity: 3, amount: 30, tax: 5 });
    assert.deepEqual(back.get(2), { quantity: 2, amount: 30, tax: 5 });
  });
});

describe('a stocktake’s count box', async () => {
  const { readCountBox, gtinValid } = await load('countscan.js');
  const codes = new Set(['2000000000029', '96385074', 'bud-1']);
  const known = (/** @type {string} */ c) => codes.has(c.toLowerCase());

  it('reads a count as a count, whatever the store’s codes', () => {
    assert.deepEqual(readCountBox(' 55 ', known), { kind: 'count', count: '55' });
    assert.deepEqual(readCountBox('1000000', known), { kind: 'count', count: '1000000' });
    assert.deepEqual(readCountBox('5x', known), { kind: 'count', count: '5x' });
  });

  it('splits a count from the next pet’s barcode or SKU scanned after it', () => {
    assert.deepEqual(readCountBox('552000000000029', known), { kind: 'next', count: '55', code: '2000000000029' });
    assert.deepEqual(readCountBox('2000000000029', known), { kind: 'next', count: '', code: '2000000000029' });
    assert.deepEqual(readCountBox('396385074', known), { kind: 'next', count: '3', code: '96385074' });
    assert.deepEqual(readCountBox('12BUD-1', known), { kind: 'next', count: '12', code: 'BUD-1' });
  });

  it('names a scanned code no pet has by its check digit, and keeps the count before it', () => {
    assert.deepEqual(readCountBox('125012345678900', known), { kind: 'unknown', count: '12', code: '5012345678900' });
    assert.deepEqual(readCountBox('99999999999', known), { kind: 'unknown', count: '', code: '99999999999' });
  });

  it('checks a GTIN’s check digit', () => {
    assert.equal(gtinValid('4006381333931'), true);
    assert.equal(gtinValid('4006381333932'), false);
    assert.equal(gtinValid('96385074'), true);
    assert.equal(gtinValid('1234567'), false);
  });
});
