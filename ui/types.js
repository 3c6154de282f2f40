//! The records the staff UI reads from the server, as JSDoc types (checked by
//! `tsc --checkJs --noEmit` in the UI suite, no build step). Field names and optionality follow
//! the OpenAPI document: an absent field is `undefined`, never `null`. Later interface
//! versions add optional fields; a page that uses one checks it is there.

/**
 * The schemas of the OpenAPI document, as `ui/openapi.d.ts` types them (generated with it by
 * openapi/generate.py: never restated here).
 * @typedef {import('./openapi.js').PetStatus} PetStatus
 * @typedef {import('./openapi.js').Role} Role
 * @typedef {import('./openapi.js').Plan} Plan
 * @typedef {import('./openapi.js').Pet} Pet
 * @typedef {import('./openapi.js').Animal} Animal
 * @typedef {import('./openapi.js').Hold} Hold
 * @typedef {import('./openapi.js').CareEntry} CareEntry
 * @typedef {CareEntry['kind']} CareKind
 * @typedef {import('./openapi.js').CareDue} DueCare
 * @typedef {import('./openapi.js').Category} Category
 * @typedef {import('./openapi.js').Order} Order
 * @typedef {import('./openapi.js').CancelledOrder} CancelledOrder
 * @typedef {import('./openapi.js').InventoryItem} InventoryItem
 * @typedef {import('./openapi.js').StockChange} StockChange
 * @typedef {import('./openapi.js').UsageWindow} Usage
 * @typedef {import('./openapi.js').ApiKey & { secret?: string }} Key  an API key as the Keys page lists it (the secret only in the answer that creates it)
 */

/**
 * A change as the event stream delivers it.
 * @typedef {object} StoreEvent
 * @property {string} type  pet.created, order.completed, inventory.updated, …
 * @property {string} [at]
 * @property {any} [data]   the record as it now is
 */

export {};
