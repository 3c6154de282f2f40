// A POS-style API client: plain fetch from node, the way a till or tablet app talks to the store.

/**
 * @param {string} base
 * @param {string} key
 */
export function client(base, key) {
  /**
   * @param {string} method
   * @param {string} path
   * @param {unknown} [body]
   */
  async function call(method, path, body) {
    const res = await fetch(base + path, {
      method,
      headers: { 'X-API-Key': key, ...(body === undefined ? {} : { 'Content-Type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    let json = null;
    try { json = text ? JSON.parse(text) : null; } catch { json = text; }
    if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
    return json;
  }
  return {
    get: (/** @type {string} */ p) => call('GET', p),
    post: (/** @type {string} */ p, /** @type {unknown} */ b) => call('POST', p, b),
    put: (/** @type {string} */ p, /** @type {unknown} */ b) => call('PUT', p, b),
    patch: (/** @type {string} */ p, /** @type {unknown} */ b) => call('PATCH', p, b),
    status: async (/** @type {string} */ p) => (await fetch(base + p, { headers: { 'X-API-Key': key } })).status,
  };
}
