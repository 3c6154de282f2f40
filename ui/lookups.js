//! Reads that several pages join against: category names, pet names by id, stock by pet id.

import * as api from './api.js';

/** @type {Promise<Map<number, string>> | null} */
let categoryCache = null;

/**
 * Category names, fetched once and kept until a category event (or a reconnect) says they
 * changed: a sale elsewhere does not re-read them.
 * @returns {Promise<Map<number, string>>} category id → name
 */
export function categoryNames() {
  if (!categoryCache) {
    const p = api.listAll('/categories').then((cats) => new Map(cats.map((/** @type {import('./types.js').Category} */ c) => [c.id, c.name])));
    categoryCache = p;
    p.catch(() => { if (categoryCache === p) categoryCache = null; });
  }
  return categoryCache;
}

/** Forget the cached category names (a category changed). */
export function invalidateCategories() {
  categoryCache = null;
}

/**
 * Pets by id (GET /pets?ids=…, up to 100 ids a call).
 * @param {number[]} ids
 * @returns {Promise<Map<number, import('./types.js').Pet>>}
 */
export async function petsById(ids) {
  const unique = [...new Set(ids)];
  /** @type {Map<number, import('./types.js').Pet>} */
  const out = new Map();
  for (let i = 0; i < unique.length; i += 100) {
    const chunk = unique.slice(i, i + 100);
    const { items } = await api.list('/pets', { ids: chunk.join(','), limit: 100 });
    for (const p of items) out.set(p.id, p);
  }
  return out;
}

/**
 * Inventory items for the given pets. The inventory is sorted by petId, so pages are read only
 * until the highest id wanted has been passed (one call for a shop of up to 500 pets).
 * @param {number[]} ids
 * @returns {Promise<Map<number, import('./types.js').InventoryItem>>} pet id → item
 */
export async function inventoryFor(ids) {
  /** @type {Map<number, import('./types.js').InventoryItem>} */
  const out = new Map();
  if (ids.length === 0) return out;
  const want = new Set(ids);
  const maxId = Math.max(...ids);
  for (let offset = 0; ; offset += 500) {
    const { items, total } = await api.list('/store/inventory', { limit: 500, offset });
    for (const it of items) if (want.has(it.petId)) out.set(it.petId, it);
    const last = items[items.length - 1];
    if (!last || last.petId >= maxId || offset + items.length >= total) break;
  }
  return out;
}

/**
 * Stock for the given pets.
 * @param {number[]} ids
 * @returns {Promise<Map<number, number>>} pet id → quantity
 */
export async function stockFor(ids) {
  const items = await inventoryFor(ids);
  return new Map([...items].map(([id, it]) => [id, it.quantity]));
}
