//! Reads that several pages join against: category names, pet names by id, stock by pet id.

import * as api from './api.js';

/** @returns {Promise<Map<number, string>>} category id → name */
export async function categoryNames() {
  const cats = await api.listAll('/categories');
  return new Map(cats.map((c) => [c.id, c.name]));
}

/**
 * Pets by id (GET /pets?ids=…, up to 100 ids a call).
 * @param {number[]} ids
 * @returns {Promise<Map<number, any>>}
 */
export async function petsById(ids) {
  const unique = [...new Set(ids)];
  /** @type {Map<number, any>} */
  const out = new Map();
  for (let i = 0; i < unique.length; i += 100) {
    const chunk = unique.slice(i, i + 100);
    const { items } = await api.list('/pets', { ids: chunk.join(','), limit: 100 });
    for (const p of items) out.set(p.id, p);
  }
  return out;
}

/**
 * Stock for the given pets. The inventory is sorted by petId, so pages are read only until the
 * highest id wanted has been passed (one call for a shop of up to 500 pets).
 * @param {number[]} ids
 * @returns {Promise<Map<number, number>>} pet id → quantity
 */
export async function stockFor(ids) {
  /** @type {Map<number, number>} */
  const out = new Map();
  if (ids.length === 0) return out;
  const want = new Set(ids);
  const maxId = Math.max(...ids);
  for (let offset = 0; ; offset += 500) {
    const { items, total } = await api.list('/store/inventory', { limit: 500, offset });
    for (const it of items) if (want.has(it.petId)) out.set(it.petId, it.quantity);
    const last = items[items.length - 1];
    if (!last || last.petId >= maxId || offset + items.length >= total) break;
  }
  return out;
}
