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
 * @property {Animal} [animal]     interface 1.2: the individual animal this pet is
 * @property {Hold} [hold]         interface 1.2: held back from orders and sales (never an ended one)
 */

/**
 * An individual animal's record (interface 1.2). Dates are `YYYY-MM-DD`.
 * @typedef {object} Animal
 * @property {'male' | 'female' | 'unknown'} sex
 * @property {string} [bornOn]
 * @property {string} [breed]
 * @property {string} [colour]
 * @property {string} [microchip]
 * @property {string} [source]
 * @property {string} [arrivedOn]
 */

/**
 * @typedef {object} Hold
 * @property {string} until   the last day of the hold, included
 * @property {string} reason
 */

/**
 * @typedef {'fed' | 'health_check' | 'vaccination' | 'treatment' | 'weight' | 'note'} CareKind
 */

/**
 * One entry of an animal's care log (interface 1.2).
 * @typedef {object} CareEntry
 * @property {number} id
 * @property {number} petId
 * @property {CareKind} kind
 * @property {string} [note]
 * @property {string} [product]
 * @property {number} [weightGrams]
 * @property {string} [dueOn]
 * @property {string} at
 * @property {string} [keyName]
 * @property {number} [staffId]
 */

/**
 * Care that falls due (`GET /store/care/due`).
 * @typedef {object} DueCare
 * @property {number} petId
 * @property {string} name
 * @property {CareKind} kind
 * @property {string} dueOn
 * @property {number} overdueDays  negative while it is still ahead
 * @property {string} lastAt
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
 * @property {number} [saleId]       interface 1.2: the sale this order is a line of
 * @property {string} [petName]      the pet's name when the order was placed (beta)
 */

/**
 * An order that was cancelled (`GET /store/cancelled-orders`, beta): gone from the orders,
 * kept for the record.
 * @typedef {object} CancelledOrder
 * @property {number} id
 * @property {number} petId
 * @property {string} [petName]
 * @property {number} quantity
 * @property {number} [unitPrice]
 * @property {number} [total]
 * @property {string} placedAt
 * @property {string} cancelledAt
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
