//! The interface's facts the staff UI needs. Written by openapi/generate.py from openapi/facts.json: do not edit; change src/contract.rs.

/** The plans a key may have; `perMinute` and `perDay` are `null` for a plan whose limits are set on the key. */
export const PLANS = /** @type {const} */ ([
  {
    "name": "free",
    "perMinute": 60,
    "perDay": 1000
  },
  {
    "name": "pro",
    "perMinute": 300,
    "perDay": 10000
  },
  {
    "name": "business",
    "perMinute": 1000,
    "perDay": 100000
  },
  {
    "name": "enterprise",
    "perMinute": null,
    "perDay": null
  }
]);

/** The roles from least to most: each may do everything the ones before it may. */
export const ROLES = /** @type {const} */ (["readonly", "pos", "staff", "admin"]);

/** Every bound the server enforces and the document publishes (`min` and `max` included). */
export const BOUNDS = /** @type {const} */ ({
  "name": {
    "min": 1,
    "max": 100
  },
  "description": {
    "min": 0,
    "max": 1000
  },
  "reason": {
    "min": 0,
    "max": 200
  },
  "stock": {
    "min": 0,
    "max": 1000000
  },
  "delta": {
    "min": -1000000,
    "max": 1000000
  },
  "quantity": {
    "min": 1,
    "max": 10000
  },
  "limit": {
    "min": 1,
    "max": 500
  },
  "limitDefault": 50,
  "ids": {
    "min": 1,
    "max": 100
  },
  "idempotencyKey": {
    "min": 1,
    "max": 255
  },
  "idempotencyHours": 24,
  "perMinute": {
    "min": 1,
    "max": 1000000
  },
  "perDay": {
    "min": 1,
    "max": 100000000
  },
  "bodyBytes": {
    "min": 0,
    "max": 65536
  },
  "pin": {
    "min": 4,
    "max": 8
  },
  "sessionIdleHours": 12,
  "pinFailures": 5,
  "pinLockMinutes": 15,
  "sku": {
    "min": 1,
    "max": 64
  },
  "price": {
    "min": 0,
    "max": 100000000
  },
  "reorderPoint": {
    "min": 0,
    "max": 1000000
  },
  "reportDays": {
    "min": 1,
    "max": 366
  },
  "reportDaysDefault": 30,
  "importBytes": {
    "min": 0,
    "max": 5242880
  },
  "search": {
    "min": 0,
    "max": 200
  },
  "taxRate": {
    "min": 0,
    "max": 10000
  },
  "reorderQuantity": {
    "min": 1,
    "max": 1000000
  },
  "cash": {
    "min": 0,
    "max": 1000000000000
  },
  "labelPets": {
    "min": 1,
    "max": 200
  },
  "labelCopies": {
    "min": 1,
    "max": 50
  },
  "labels": {
    "min": 1,
    "max": 1000
  },
  "breed": {
    "min": 0,
    "max": 100
  },
  "animalSource": {
    "min": 0,
    "max": 200
  },
  "holdReason": {
    "min": 1,
    "max": 200
  },
  "careNote": {
    "min": 0,
    "max": 1000
  },
  "careProduct": {
    "min": 0,
    "max": 100
  },
  "weightGrams": {
    "min": 1,
    "max": 200000
  },
  "careWithin": {
    "min": 0,
    "max": 60
  },
  "careWithinDefault": 7,
  "saleLines": {
    "min": 1,
    "max": 100
  },
  "payments": {
    "min": 1,
    "max": 5
  },
  "paymentAmount": {
    "min": 0,
    "max": 1000000000000000
  },
  "till": {
    "min": 1,
    "max": 40
  },
  "saleNote": {
    "min": 0,
    "max": 500
  },
  "phone": {
    "min": 0,
    "max": 40
  },
  "email": {
    "min": 0,
    "max": 254
  },
  "refundLines": {
    "min": 1,
    "max": 100
  },
  "refundReason": {
    "min": 1,
    "max": 200
  },
  "purchaseLines": {
    "min": 1,
    "max": 200
  },
  "purchaseNote": {
    "min": 0,
    "max": 1000
  },
  "contact": {
    "min": 0,
    "max": 100
  }
});
