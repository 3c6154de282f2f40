//! What the till keeps on the device, in IndexedDB (it outlives a reload, a closed tab and a
//! lost connection): `outbox`, the sales not yet acknowledged by the store, in the order they
//! were rung up; `kv`, the catalogue copy and the store profile.

const DB = 'petstore-till';
const VERSION = 1;

/** @type {Promise<IDBDatabase> | null} */
let opening = null;

function open() {
  if (!opening) {
    opening = new Promise((resolve, reject) => {
      const req = indexedDB.open(DB, VERSION);
      req.onupgradeneeded = () => {
        const db = req.result;
        if (!db.objectStoreNames.contains('outbox')) db.createObjectStore('outbox', { keyPath: 'seq', autoIncrement: true });
        if (!db.objectStoreNames.contains('kv')) db.createObjectStore('kv');
      };
      req.onsuccess = () => resolve(req.result);
      req.onerror = () => { opening = null; reject(req.error); };
    });
  }
  return opening;
}

/**
 * One request in its own transaction, as a promise that settles when the transaction is
 * committed (a sale is on disk before the clerk is told it is kept).
 * @template T
 * @param {'outbox' | 'kv'} store
 * @param {IDBTransactionMode} mode
 * @param {(s: IDBObjectStore) => IDBRequest<T>} fn
 * @returns {Promise<T>}
 */
async function run(store, mode, fn) {
  const db = await open();
  return new Promise((resolve, reject) => {
    const tx = db.transaction(store, mode);
    const req = fn(tx.objectStore(store));
    tx.oncomplete = () => resolve(req.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

/** @param {string} key */
export function kvGet(key) {
  return run('kv', 'readonly', (s) => s.get(key));
}

/** @param {string} key @param {unknown} value */
export function kvSet(key, value) {
  return run('kv', 'readwrite', (s) => s.put(value, key));
}

/**
 * A sale waiting for the store, or one it refused (kept for the clerk to see).
 * @typedef {object} OutboxEntry
 * @property {number} [seq]     the order it was rung up in (given by the store)
 * @property {string} key       its Idempotency-Key, the same on every try
 * @property {any} body         the sale exactly as sent, `soldAt` included
 * @property {'waiting' | 'refused' | 'held'} state  held: the store no longer takes its key
 * @property {string} [error]   why the store refused it
 * @property {string} [auth]    the API key it was rung up under, kept only until the store answers
 */

/** @param {OutboxEntry} entry @returns {Promise<number>} its seq */
export async function outboxAdd(entry) {
  return /** @type {number} */ (await run('outbox', 'readwrite', (s) => s.add(entry)));
}

/** @param {OutboxEntry} entry */
export function outboxPut(entry) {
  return run('outbox', 'readwrite', (s) => s.put(entry));
}

/** @param {number} seq */
export function outboxDelete(seq) {
  return run('outbox', 'readwrite', (s) => s.delete(seq));
}

/** Every entry, oldest first. @returns {Promise<OutboxEntry[]>} */
export function outboxAll() {
  return run('outbox', 'readonly', (s) => s.getAll());
}
