//! The records the staff UI reads from the server, as JSDoc types (checked by
//! `tsc --checkJs --noEmit` in the UI suite, no build step). Field names and optionality follow
//! the OpenAPI document: an absent field is `undefined`, never `null`. Later interface
//! versions add optional fields; a page that uses one checks it is there.

/**
 * @typedef {'available' | 'pending' | 'sold'} PetStatus
 * @typedef {'readonly' | 'pos' | 'staff' | 'admin'} Role
 * @typedef {'free' | 'pro' | 'business' | 'enterprise'} Plan
 */

/**
 * @typedef {object} Pet
 * @property {number} id
 * @property {string} name
 * @property {number} categoryId
 * @property {PetStatus} [status]   absent: the pet has no status (the inventory reports it available)
 * @property {string} [sku]        interface 1.1
 * @property {string} [barcode]    interface 1.1
 * @property {number} [price]      interface 1.1, in the currency's minor unit
 */

/**
 * @typedef {object} Category
 * @property {number} id
 * @property {string} name
 * @property {string} [description]
 */

/**
 * @typedef {object} Order
 * @property {number} id
 * @property {number} petId
 * @property {number} quantity
 * @property {string} [shipDate]
 * @property {boolean} complete
 * @property {string} [placedAt]     interface 1.1
 * @property {string} [completedAt]  interface 1.1
 * @property {number} [unitPrice]    interface 1.1
 * @property {number} [total]        interface 1.1
 */

/**
 * @typedef {object} InventoryItem
 * @property {number} petId
 * @property {number} quantity
 * @property {PetStatus} status
 * @property {number} [reorderPoint]  interface 1.1: low when quantity is at or below it
 */

/**
 * One line of a pet's stock history.
 * @typedef {object} StockChange
 * @property {number} id
 * @property {number} petId
 * @property {number} delta
 * @property {number} quantityAfter
 * @property {string} [reason]
 * @property {string} source  order, cancel, set, adjustment (1.1: count, import)
 * @property {number} [orderId]
 * @property {string} [keyName]
 * @property {string} at
 */

/**
 * @typedef {object} Usage
 * @property {number} used
 * @property {number} limit
 */

/**
 * An API key as the Keys page lists it (the secret only in the answer that creates it).
 * @typedef {object} Key
 * @property {number} id
 * @property {string} name
 * @property {Role} role
 * @property {Plan} plan
 * @property {number} perMinute
 * @property {number} perDay
 * @property {string} prefix
 * @property {string} createdAt
 * @property {string} [lastUsedAt]
 * @property {string} [revokedAt]
 * @property {string} [bannedUntil]
 * @property {{ minute?: Usage, day?: Usage }} [usage]
 * @property {string} [secret]
 */

/**
 * A change as the event stream delivers it.
 * @typedef {object} StoreEvent
 * @property {string} type  pet.created, order.completed, inventory.updated, …
 * @property {string} [at]
 * @property {any} [data]   the record as it now is
 */

export {};
