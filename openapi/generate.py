#!/usr/bin/env python3
"""Writes openapi/openapi.json, the OpenAPI 3.0.3 document the server publishes at /openapi.json.

The document repeats the same headers and error responses on every operation, so it is built
here from a few tables instead of being edited by hand. The committed JSON is what the server
embeds and serves; after editing this file run

    python3 openapi/generate.py          # rewrite openapi/openapi.json
    python3 openapi/generate.py --check  # exit 1 if openapi/openapi.json is out of date

Standard library only, output is deterministic (keys in the order written here).
"""

import json
import sys
from pathlib import Path

OUT = Path(__file__).with_name("openapi.json")

# ---------------------------------------------------------------------------------------------
# Small builders


def ref(kind, name):
    return {"$ref": f"#/components/{kind}/{name}"}


def schema(name):
    return ref("schemas", name)


def param(name):
    return ref("parameters", name)


def header(name):
    return ref("headers", name)


def json_content(schema_obj, merge_patch=False, example=None):
    media = {"schema": schema_obj}
    if example is not None:
        media["example"] = example
    content = {"application/json": media}
    if merge_patch:
        content["application/merge-patch+json"] = dict(media)
    return content


RATE_LIMIT_HEADERS = {
    "X-RateLimit-Limit": header("X-RateLimit-Limit"),
    "X-RateLimit-Remaining": header("X-RateLimit-Remaining"),
    "X-RateLimit-Reset": header("X-RateLimit-Reset"),
    "RateLimit-Policy": header("RateLimit-Policy"),
    "RateLimit": header("RateLimit"),
}


def with_rate_limits(headers=None):
    out = dict(RATE_LIMIT_HEADERS)
    out.update(headers or {})
    return out


def success(description, body=None, headers=None, content=None):
    resp = {"description": description, "headers": with_rate_limits(headers)}
    if content is not None:
        resp["content"] = content
    elif body is not None:
        resp["content"] = json_content(body)
    return resp


def request_body(schema_name, description, merge_patch=False):
    return {
        "description": description,
        "required": True,
        "content": json_content(schema(schema_name), merge_patch=merge_patch),
    }


def errors(*names):
    """Maps component response names to their status codes."""
    return {ERROR_RESPONSES[name][0]: ref("responses", name) for name in names}


# ---------------------------------------------------------------------------------------------
# Errors

ERROR_CODES = [
    ("bad_request", 400, "malformed JSON, wrong JSON type, unknown field, bad or unknown query parameter"),
    ("unauthorized", 401, "no key, unknown key or revoked key"),
    ("forbidden", 403, "the key's role may not do this"),
    ("not_found", 404, "no such record or route (also an id in the path that is not a positive int64)"),
    ("method_not_allowed", 405, "known path, other method"),
    ("request_timeout", 408, "the request took longer than the server's request timeout (30 s)"),
    ("conflict", 409, "the request clashes with current state, e.g. the same Idempotency-Key is still being processed"),
    ("insufficient_stock", 409, "not enough units in stock"),
    ("pet_not_available", 409, "the pet's status is neither `available` nor unset"),
    ("order_already_complete", 409, "a completed order cannot be cancelled or reopened"),
    ("category_in_use", 409, "pets still belong to the category"),
    ("pet_has_open_orders", 409, "the pet still has incomplete orders"),
    ("duplicate_name", 409, "another category already has this name (case-insensitive)"),
    ("gone", 410, "a deprecated operation past its sunset date"),
    ("precondition_failed", 412, "`If-Match` does not match the current `ETag`"),
    ("payload_too_large", 413, "body over 64 KiB"),
    ("unsupported_media_type", 415, "the body is not `application/json` (or `application/merge-patch+json` on PATCH)"),
    ("validation_failed", 422, "missing required field, value out of bounds or outside its enumeration"),
    ("unknown_category", 422, "`categoryId` names no category"),
    ("unknown_pet", 422, "`petId` names no pet"),
    ("idempotency_key_reused", 422, "the same `Idempotency-Key` was used with another body"),
    ("rate_limited", 429, "over the minute or day limit of the plan; see `Retry-After`"),
    ("temporarily_banned", 429, "more than 30 rejections in one minute: banned for 15 minutes; see `Retry-After`"),
    ("internal", 500, "a bug; the message leaks no internals"),
    ("unavailable", 503, "the store cannot serve now (e.g. the database stayed busy past its timeout)"),
]


def error_table():
    rows = ["| status | code | when |", "|---|---|---|"]
    rows += [f"| {status} | `{code}` | {when} |" for code, status, when in ERROR_CODES]
    return "\n".join(rows)


# name -> (status, codes, description)
ERROR_RESPONSES = {
    "BadRequest": ("400", ["bad_request"],
                   "Malformed JSON, a wrong JSON type, an unknown body field, or a bad or unknown "
                   "query parameter. The message names the field or parameter."),
    "Unauthorized": ("401", ["unauthorized"],
                     "No key, an unknown key or a revoked key. Send `X-API-Key: <secret>` or "
                     "`Authorization: Bearer <secret>`."),
    "Forbidden": ("403", ["forbidden"], "The key's role may not do this."),
    "NotFound": ("404", ["not_found"], "No such record."),
    "RequestTimeout": ("408", ["request_timeout"],
                       "The request took longer than the server's request timeout (30 s)."),
    "DuplicateName": ("409", ["duplicate_name"],
                      "Another category already has this name (names are unique, case-insensitive)."),
    "CategoryInUse": ("409", ["category_in_use"], "Pets still belong to this category."),
    "PetHasOpenOrders": ("409", ["pet_has_open_orders"], "The pet still has incomplete orders."),
    "OrderAlreadyComplete": ("409", ["order_already_complete"],
                             "The order is complete: it cannot be cancelled or set back to incomplete."),
    "OrderConflict": ("409", ["pet_not_available", "insufficient_stock", "conflict"],
                      "`pet_not_available`: the pet's status is `pending` or `sold` (checked before "
                      "stock). `insufficient_stock`: fewer units in stock than `quantity`. "
                      "`conflict`: a request with the same `Idempotency-Key` is still being processed."),
    "AdjustmentConflict": ("409", ["insufficient_stock", "conflict"],
                           "`insufficient_stock`: the count would go below 0. `conflict`: a request "
                           "with the same `Idempotency-Key` is still being processed."),
    "PreconditionFailed": ("412", ["precondition_failed"],
                           "`If-Match` does not match the record's current `ETag`: someone else "
                           "changed it. Fetch it again and reapply the change."),
    "PayloadTooLarge": ("413", ["payload_too_large"], "The body is over 64 KiB."),
    "UnsupportedMediaType": ("415", ["unsupported_media_type"],
                             "The body is not `application/json` (PATCH also takes "
                             "`application/merge-patch+json`)."),
    "ValidationFailed": ("422", ["validation_failed"],
                         "A required field is missing, or a value is out of bounds or outside its "
                         "enumeration. The message names the field."),
    "PetValidationFailed": ("422", ["validation_failed", "unknown_category"],
                            "`validation_failed`: a required field is missing or a value is out of "
                            "bounds (the message names it). `unknown_category`: `categoryId` names no "
                            "category."),
    "OrderValidationFailed": ("422", ["validation_failed", "unknown_pet", "idempotency_key_reused"],
                              "`validation_failed`: a required field is missing or a value is out of "
                              "bounds. `unknown_pet`: `petId` names no pet. `idempotency_key_reused`: "
                              "this `Idempotency-Key` was already used with another body."),
    "AdjustmentValidationFailed": ("422", ["validation_failed", "idempotency_key_reused"],
                                   "`validation_failed`: a field is missing or out of bounds, or the "
                                   "count would go above 1,000,000. `idempotency_key_reused`: this "
                                   "`Idempotency-Key` was already used with another body."),
    "TooManyRequests": ("429", ["rate_limited", "temporarily_banned"],
                        "`rate_limited`: over the minute or day limit of the key's plan (or of the "
                        "address, for requests without a valid key). `temporarily_banned`: answered "
                        "429 more than 30 times in one minute, so every request is refused for 15 "
                        "minutes. Wait `Retry-After` seconds, then retry with exponential backoff. A "
                        "rejected request uses no quota."),
    "Unavailable": ("503", ["unavailable"],
                    "The store cannot serve now (e.g. the database stayed busy past its timeout). "
                    "Retry later."),
}

EXAMPLE_MESSAGES = {
    "bad_request": "unknown field `colour` in body",
    "unauthorized": "missing API key",
    "forbidden": "role readonly may not do this",
    "not_found": "no pet with id 42",
    "request_timeout": "the request took too long",
    "duplicate_name": "a category named dog already exists",
    "category_in_use": "pets still belong to category 3",
    "pet_has_open_orders": "pet 42 has open orders",
    "order_already_complete": "order 7 is already complete",
    "pet_not_available": "pet 42 is not available",
    "precondition_failed": "If-Match does not match the current ETag",
    "payload_too_large": "the body is over 64 KiB",
    "unsupported_media_type": "expected application/json",
    "validation_failed": "name: must be 1 to 100 characters",
    "insufficient_stock": "only 2 units of pet 42 in stock",
    "rate_limited": "rate limit of 60 requests per minute exceeded",
    "unavailable": "the store is busy, try again",
    "gone": "this operation passed its sunset date; use GET /pets?ids=42",
}


def error_response(name):
    status, codes, description = ERROR_RESPONSES[name]
    headers = dict(RATE_LIMIT_HEADERS)
    if status == "429":
        headers["Retry-After"] = header("Retry-After")
    code = codes[0]
    example = {"code": code, "message": EXAMPLE_MESSAGES[code], "status": int(status)}
    return {
        "description": description,
        "headers": headers,
        "content": json_content(schema("Error"), example=example),
    }


# ---------------------------------------------------------------------------------------------
# Components: schemas

NAME = {
    "type": "string",
    "minLength": 1,
    "maxLength": 100,
    "pattern": "\\S",
    "description": "1 to 100 characters after trimming; stored trimmed.",
}
REASON = {
    "type": "string",
    "minLength": 1,
    "maxLength": 200,
    "pattern": "\\S",
    "description": "Why the stock changed: 1 to 200 characters after trimming; stored trimmed.",
}
ID = {"type": "integer", "format": "int64", "minimum": 1}
STOCK = {"type": "integer", "format": "int32", "minimum": 0, "maximum": 1000000}
ROLE = {
    "type": "string",
    "enum": ["readonly", "pos", "staff", "admin"],
    "description": "`readonly` reads; `pos` also places, completes and cancels orders; `staff` also "
                   "edits pets, categories and stock; `admin` also manages keys.",
}
PLAN = {
    "type": "string",
    "enum": ["free", "pro", "business", "enterprise"],
    "description": "Sets the key's rate limits (see the plans table above).",
}
PER_MINUTE = {"type": "integer", "format": "int64", "minimum": 1, "maximum": 1000000}
PER_DAY = {"type": "integer", "format": "int64", "minimum": 1, "maximum": 100000000}
TIMESTAMP = {"type": "string", "format": "date-time"}


def described(base, description, **extra):
    out = dict(base)
    out["description"] = description
    out.update(extra)
    return out


def nullable(base, description):
    out = dict(base)
    out["nullable"] = True
    out["description"] = description
    if "enum" in out:
        out["enum"] = out["enum"] + [None]
    return out


PET_STATUS_VALUES = ["available", "pending", "sold"]

SCHEMAS = {
    "PetStatus": {
        "type": "string",
        "enum": PET_STATUS_VALUES,
        "description": "Status of a pet. A pet may have no status (the field is omitted); the "
                       "inventory reports such a pet as `available`.",
    },
    "NewPet": {
        "type": "object",
        "description": "The payload for a pet to be created, or to replace a pet (PUT replaces "
                       "the whole record: leaving `status` out clears it).",
        "required": ["name", "categoryId"],
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, "The animal's name: 1 to 100 characters after trimming."),
            "categoryId": described(ID, "ID of the category the animal belongs to."),
            "status": schema("PetStatus"),
        },
        "example": {"name": "Rex", "categoryId": 1, "status": "available"},
    },
    "Pet": {
        "type": "object",
        "description": "An animal for sale. `status` is omitted when the pet has none.",
        "required": ["id", "name", "categoryId"],
        "properties": {
            "id": described(ID, "Unique identifier assigned on creation."),
            "name": described(NAME, "The animal's name."),
            "categoryId": described(ID, "ID of the category the animal belongs to."),
            "status": schema("PetStatus"),
        },
        "example": {"id": 42, "name": "Rex", "categoryId": 1, "status": "available"},
    },
    "PetPatch": {
        "type": "object",
        "description": "A merge patch (RFC 7396) of a pet: fields left out stay as they are; "
                       "`\"status\": null` clears the status.",
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, "The animal's name: 1 to 100 characters after trimming."),
            "categoryId": described(ID, "ID of the category the animal belongs to."),
            "status": nullable(
                {"type": "string", "enum": PET_STATUS_VALUES},
                "A PetStatus value, or `null` to clear the status.",
            ),
        },
        "example": {"status": "sold"},
    },
    "Pets": {
        "type": "array",
        "description": "A page of pets.",
        "items": schema("Pet"),
    },
    "NewCategory": {
        "type": "object",
        "description": "The payload for a category to be created, or to replace one (PUT without "
                       "`description` clears it). Names are unique, case-insensitive.",
        "required": ["name"],
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, "The category name (a kind of animal, e.g. dog, cat, rabbit): "
                                    "1 to 100 characters after trimming."),
            "description": {
                "type": "string",
                "maxLength": 1000,
                "description": "A short description: up to 1,000 characters, stored trimmed; an "
                               "empty one is not stored.",
            },
        },
        "example": {"name": "dog", "description": "Dogs of every size"},
    },
    "Category": {
        "type": "object",
        "description": "A kind of animal. `description` is omitted when empty.",
        "required": ["id", "name"],
        "properties": {
            "id": described(ID, "Unique identifier assigned on creation."),
            "name": described(NAME, "The category name."),
            "description": {"type": "string", "maxLength": 1000,
                            "description": "A short description of the category."},
        },
        "example": {"id": 1, "name": "dog", "description": "Dogs of every size"},
    },
    "CategoryPatch": {
        "type": "object",
        "description": "A merge patch (RFC 7396) of a category: fields left out stay as they are; "
                       "`\"description\": null` clears the description.",
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, "The category name: 1 to 100 characters after trimming."),
            "description": nullable(
                {"type": "string", "maxLength": 1000},
                "Up to 1,000 characters, or `null` to clear it.",
            ),
        },
        "example": {"description": "Dogs, puppies included"},
    },
    "Order": {
        "type": "object",
        "description": "An order for units of one pet. The server assigns `id` and `complete` and "
                       "always sends `id`, `petId`, `quantity` and `complete`; `shipDate` is "
                       "omitted until set. Completing an order sets `shipDate` to the completion "
                       "time when it has none.",
        "properties": {
            "id": described(ID, "Unique order identifier."),
            "petId": described(ID, "ID of the animal in this order."),
            "quantity": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 10000,
                         "description": "Number of units ordered."},
            "shipDate": described(TIMESTAMP, "Expected or actual ship date (RFC 3339)."),
            "complete": {"type": "boolean", "description": "Whether the order has been fulfilled."},
        },
        "example": {"id": 7, "petId": 42, "quantity": 1, "shipDate": "2026-11-23T10:00:00Z",
                    "complete": False},
    },
    "NewOrder": {
        "type": "object",
        "description": "The payload for an order to be placed.",
        "required": ["petId", "quantity"],
        "additionalProperties": False,
        "properties": {
            "petId": described(ID, "ID of the animal to order; its status must be `available` or "
                                   "unset."),
            "quantity": {"type": "integer", "format": "int32", "minimum": 1, "maximum": 10000,
                         "description": "Number of units: 1 to 10,000, at most the stock."},
            "shipDate": described(TIMESTAMP, "Expected ship date (RFC 3339), optional."),
        },
        "example": {"petId": 42, "quantity": 1},
    },
    "OrderPatch": {
        "type": "object",
        "description": "A merge patch of an order. `{\"complete\": true}` marks it complete "
                       "(one-way); `shipDate` sets the ship date.",
        "additionalProperties": False,
        "properties": {
            "complete": {"type": "boolean",
                         "description": "`true` completes the order; `false` on a completed order "
                                        "is 409 `order_already_complete`."},
            "shipDate": described(TIMESTAMP, "Expected or actual ship date (RFC 3339)."),
        },
        "example": {"complete": True},
    },
    "InventoryItem": {
        "type": "object",
        "description": "The stock count of one pet. A pet without a status shows `available`.",
        "required": ["petId", "quantity", "status"],
        "properties": {
            "petId": described(ID, "ID of the animal this entry tracks."),
            "quantity": described(STOCK, "Current stock count: 0 to 1,000,000."),
            "status": schema("PetStatus"),
        },
        "example": {"petId": 42, "quantity": 3, "status": "available"},
    },
    "InventoryUpdate": {
        "type": "object",
        "description": "Sets the stock count of a pet (a `set` entry in the stock history). "
                       "The pet's status does not change.",
        "required": ["quantity"],
        "additionalProperties": False,
        "properties": {
            "quantity": described(STOCK, "The new stock count: 0 to 1,000,000."),
            "reason": REASON,
        },
        "example": {"quantity": 12, "reason": "stock take"},
    },
    "StockAdjustment": {
        "type": "object",
        "description": "Changes the stock count by `delta` atomically (an `adjustment` entry in "
                       "the stock history). A result below 0 is 409 `insufficient_stock`; above "
                       "1,000,000 is 422 `validation_failed`.",
        "required": ["delta"],
        "additionalProperties": False,
        "properties": {
            "delta": {"type": "integer", "format": "int32", "minimum": -1000000, "maximum": 1000000,
                      "not": {"enum": [0]},
                      "description": "A non-zero change: -1,000,000 to 1,000,000."},
            "reason": REASON,
        },
        "example": {"delta": -1, "reason": "damaged"},
    },
    "StockChange": {
        "type": "object",
        "description": "One entry of a pet's stock history.",
        "required": ["id", "petId", "delta", "quantityAfter", "reason", "source", "orderId",
                     "keyName", "at"],
        "properties": {
            "id": described(ID, "Entry id, increasing."),
            "petId": described(ID, "The pet whose stock changed."),
            "delta": {"type": "integer", "format": "int32", "description": "The change in units."},
            "quantityAfter": described(STOCK, "The stock count after the change."),
            "reason": nullable({"type": "string", "maxLength": 200},
                               "The reason given, or `null`."),
            "source": {
                "type": "string",
                "enum": ["order", "cancel", "set", "adjustment"],
                "description": "`order`: an order took units; `cancel`: a cancelled order returned "
                               "them; `set`: PUT /store/inventory/{petId}; `adjustment`: POST "
                               "/store/inventory/{petId}/adjustments.",
            },
            "orderId": nullable(ID, "The order for `order` and `cancel` entries, else `null`."),
            "keyName": nullable({"type": "string"},
                                "Name of the API key that made the change, or `null`."),
            "at": described(TIMESTAMP, "When the change was committed (RFC 3339, UTC)."),
        },
        "example": {"id": 9, "petId": 42, "delta": -1, "quantityAfter": 2, "reason": None,
                    "source": "order", "orderId": 7, "keyName": "till 1",
                    "at": "2026-11-22T09:30:00Z"},
    },
    "UsageWindow": {
        "type": "object",
        "description": "Use of one rate-limit window.",
        "required": ["used", "limit", "remaining", "reset"],
        "properties": {
            "used": {"type": "integer", "format": "int64", "minimum": 0},
            "limit": {"type": "integer", "format": "int64", "minimum": 0},
            "remaining": {"type": "integer", "format": "int64", "minimum": 0},
            "reset": {"type": "integer", "format": "int64",
                      "description": "When the window resets, in Unix seconds."},
        },
    },
    "Usage": {
        "type": "object",
        "description": "A key's current use of its fixed windows: the current UTC minute and the "
                       "current UTC day.",
        "required": ["minute", "day"],
        "properties": {"minute": schema("UsageWindow"), "day": schema("UsageWindow")},
    },
    "ApiKey": {
        "type": "object",
        "description": "An API key as admins see it. The secret is never shown again after "
                       "creation; `prefix` identifies it.",
        "required": ["id", "name", "role", "plan", "perMinute", "perDay", "prefix", "createdAt",
                     "lastUsedAt", "revokedAt", "bannedUntil", "usage"],
        "properties": {
            "id": described(ID, "Key id."),
            "name": described(NAME, "A name for people, e.g. `till 1`."),
            "role": ROLE,
            "plan": PLAN,
            "perMinute": described(PER_MINUTE, "Requests allowed per UTC minute."),
            "perDay": described(PER_DAY, "Requests allowed per UTC day."),
            "prefix": {"type": "string", "description": "The first characters of the secret."},
            "createdAt": TIMESTAMP,
            "lastUsedAt": nullable(TIMESTAMP, "Last authenticated request, or `null`."),
            "revokedAt": nullable(TIMESTAMP, "When the key was revoked, or `null`."),
            "bannedUntil": nullable(TIMESTAMP, "End of a temporary ban, or `null`."),
            "usage": schema("Usage"),
        },
    },
    "NewApiKey": {
        "type": "object",
        "description": "The payload for a key to be created. `perMinute` and `perDay` are required "
                       "with the `enterprise` plan and refused (422) with any other.",
        "required": ["name", "role", "plan"],
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, "1 to 100 characters after trimming."),
            "role": ROLE,
            "plan": PLAN,
            "perMinute": described(PER_MINUTE, "Enterprise only: requests per minute, 1 to "
                                               "1,000,000."),
            "perDay": described(PER_DAY, "Enterprise only: requests per day, 1 to 100,000,000."),
        },
        "example": {"name": "till 1", "role": "pos", "plan": "pro"},
    },
    "ApiKeyPatch": {
        "type": "object",
        "description": "Changes a key: any of the fields. `perMinute` and `perDay` are required "
                       "when the key ends up on `enterprise` and refused (422) otherwise.",
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, "1 to 100 characters after trimming."),
            "role": ROLE,
            "plan": PLAN,
            "perMinute": described(PER_MINUTE, "Enterprise only: 1 to 1,000,000."),
            "perDay": described(PER_DAY, "Enterprise only: 1 to 100,000,000."),
        },
        "example": {"role": "staff"},
    },
    "CreatedApiKey": {
        "type": "object",
        "description": "The answer to creating a key. `secret` is shown here and never again: "
                       "store it now.",
        "required": ["id", "name", "role", "plan", "perMinute", "perDay", "prefix", "createdAt",
                     "secret"],
        "properties": {
            "id": described(ID, "Key id."),
            "name": described(NAME, "A name for people."),
            "role": ROLE,
            "plan": PLAN,
            "perMinute": described(PER_MINUTE, "Requests allowed per UTC minute."),
            "perDay": described(PER_DAY, "Requests allowed per UTC day."),
            "prefix": {"type": "string", "description": "The first characters of the secret."},
            "createdAt": TIMESTAMP,
            "secret": {"type": "string", "minLength": 1,
                       "description": "The key itself: send it as `X-API-Key`."},
        },
    },
    "Health": {
        "type": "object",
        "description": "The server is up.",
        "required": ["status"],
        "properties": {"status": {"type": "string", "enum": ["ok"]}},
    },
    "Error": {
        "type": "object",
        "description": "Every error answer. `status` equals the HTTP status; `code` is stable "
                       "and meant for programs, `message` for people.\n\n" + error_table(),
        "required": ["code", "message", "status"],
        "properties": {
            "code": {"type": "string", "enum": [code for code, _, _ in ERROR_CODES],
                     "description": "A machine-readable error code."},
            "message": {"type": "string", "description": "A human-readable description."},
            "status": {"type": "integer", "minimum": 400, "maximum": 599,
                       "description": "The HTTP status code."},
        },
        "example": {"code": "not_found", "message": "no pet with id 42", "status": 404},
    },
}

# ---------------------------------------------------------------------------------------------
# Components: headers and parameters

HEADERS = {
    "X-RateLimit-Limit": {
        "description": "The limit of the window that binds first (the one with fewer requests "
                       "left; the minute on a tie).",
        "required": True, "schema": {"type": "integer", "minimum": 0},
    },
    "X-RateLimit-Remaining": {
        "description": "Requests left in that window.",
        "required": True, "schema": {"type": "integer", "minimum": 0},
    },
    "X-RateLimit-Reset": {
        "description": "When that window resets, in Unix seconds.",
        "required": True, "schema": {"type": "integer", "minimum": 0},
    },
    "RateLimit-Policy": {
        "description": "The key's quota policies as in the IETF RateLimit header fields draft, "
                       "e.g. `\"minute\";q=60;w=60, \"day\";q=1000;w=86400`.",
        "required": True, "schema": {"type": "string", "minLength": 1},
    },
    "RateLimit": {
        "description": "Each window's state as in the IETF RateLimit header fields draft: "
                       "remaining requests `r` and seconds to reset `t`, e.g. "
                       "`\"minute\";r=59;t=42, \"day\";r=998;t=3600`.",
        "required": True, "schema": {"type": "string", "minLength": 1},
    },
    "Retry-After": {
        "description": "Whole seconds until the window (or the ban) ends. Retry after it, with "
                       "exponential backoff.",
        "required": True, "schema": {"type": "integer", "minimum": 0},
    },
    "ETag": {
        "description": "Strong entity tag of the record. Send it back in `If-Match` to change the "
                       "record only if nobody else has.",
        "required": True, "schema": {"type": "string", "pattern": "^\"[^\"]*\"$"},
    },
    "Idempotent-Replayed": {
        "description": "`true` when this answer is the replay of an earlier request with the same "
                       "`Idempotency-Key`: nothing was done again.",
        "schema": {"type": "string", "enum": ["true"]},
    },
    "Location": {
        "description": "Path of the created record.",
        "required": True, "schema": {"type": "string", "minLength": 1},
    },
    "X-Total-Count": {
        "description": "Number of records matching the filters, over all pages.",
        "required": True, "schema": {"type": "integer", "minimum": 0},
    },
    "Link": {
        "description": "RFC 8288 links to the `rel=\"next\"` and `rel=\"prev\"` pages, where there "
                       "are such pages.",
        "schema": {"type": "string"},
    },
    "Deprecation": {
        "description": "RFC 9745: the operation is deprecated (`@` and Unix seconds).",
        "required": True, "schema": {"type": "string", "pattern": "^@-?[0-9]+$"},
    },
    "Sunset": {
        "description": "RFC 8594: the HTTP-date after which the operation answers 410 `gone` "
                       "(a setting; default Wed, 30 Jun 2027 00:00:00 GMT).",
        "required": True,
        "schema": {"type": "string",
                   "pattern": "^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} "
                              "[0-9]{2}:[0-9]{2}:[0-9]{2} GMT$"},
    },
    "Link-Successor": {
        "description": "The successor operation: `</pets?ids={petId}>; rel=\"successor-version\"`.",
        "required": True,
        "schema": {"type": "string", "pattern": "rel=\"?successor-version\"?"},
    },
    "X-Stability-Beta": {
        "description": "The operation is `beta`: it may still change.",
        "required": True, "schema": {"type": "string", "enum": ["beta"]},
    },
    "X-Stability-Experimental": {
        "description": "The operation is `experimental`: it may change or go away.",
        "required": True, "schema": {"type": "string", "enum": ["experimental"]},
    },
}


def path_id(name, what):
    return {
        "name": name, "in": "path", "required": True,
        "description": f"ID of the {what}. An id that is not a positive int64 answers 404.",
        "schema": dict(ID),
    }


PARAMETERS = {
    "PetId": path_id("petId", "pet"),
    "CategoryId": path_id("categoryId", "category"),
    "OrderId": path_id("orderId", "order"),
    "KeyId": path_id("keyId", "API key"),
    "Limit": {
        "name": "limit", "in": "query",
        "description": "Page size: 1 to 500.",
        "schema": {"type": "integer", "minimum": 1, "maximum": 500, "default": 50},
    },
    "Offset": {
        "name": "offset", "in": "query",
        "description": "Number of records to skip.",
        "schema": {"type": "integer", "format": "int64", "minimum": 0, "default": 0},
    },
    "IfMatch": {
        "name": "If-Match", "in": "header",
        "description": "Apply the change only if the record's current `ETag` is this one "
                       "(412 `precondition_failed` otherwise). Recommended for every edit from a "
                       "shared till.",
        "schema": {"type": "string"},
    },
    "IdempotencyKey": {
        "name": "Idempotency-Key", "in": "header",
        "description": "Makes a retry safe: up to 255 characters, quoted or not, scoped to the "
                       "calling API key. Repeating the request with the same key and body within "
                       "24 hours replays the first answer (status and body) without acting again; "
                       "the same key with another body is 422 `idempotency_key_reused`; a repeat "
                       "while the first is still being processed is 409 `conflict`.",
        "schema": {"type": "string", "minLength": 1, "maxLength": 255},
    },
    "LastEventId": {
        "name": "Last-Event-ID", "in": "header",
        "description": "Resume after this event id: the events committed since are sent first.",
        "schema": {"type": "string"},
    },
}

PAGING_DOC = ("Paged with `limit` (1 to 500, default 50) and `offset`; `X-Total-Count` gives the "
              "number of matches and `Link` the next and previous pages.")

LIST_HEADERS = {"X-Total-Count": header("X-Total-Count"), "Link": header("Link")}
RECORD_HEADERS = {"ETag": header("ETag")}
CREATED_HEADERS = {"Location": header("Location"), "ETag": header("ETag")}
REPLAYED = {"Idempotent-Replayed": header("Idempotent-Replayed")}
BETA = {"X-Stability": header("X-Stability-Beta")}
EXPERIMENTAL = {"X-Stability": header("X-Stability-Experimental")}
DEPRECATION_HEADERS = {
    "Deprecation": header("Deprecation"),
    "Sunset": header("Sunset"),
    "Link": header("Link-Successor"),
}

# Error responses shared by every interface operation, by least role.
COMMON = ["BadRequest", "Unauthorized", "RequestTimeout", "TooManyRequests", "Unavailable"]
BODY = ["PayloadTooLarge", "UnsupportedMediaType"]


def responses(ok, *error_names, forbidden=True):
    names = list(COMMON) + list(error_names)
    if forbidden:
        names.append("Forbidden")
    merged = dict(ok)
    merged.update(errors(*names))
    return {status: merged[status] for status in sorted(merged)}


def query(name, description, schema_obj, **extra):
    p = {"name": name, "in": "query", "description": description, "schema": schema_obj}
    p.update(extra)
    return p


def comma_list(name, description, items, **bounds):
    s = {"type": "array", "items": items, "minItems": 1}
    s.update(bounds)
    return query(name, description, s, style="form", explode=False)


PAGING = [param("Limit"), param("Offset")]

# ---------------------------------------------------------------------------------------------
# Paths


def op(tag, operation_id, summary, description, resps, parameters=None, body=None, **extensions):
    o = {"tags": [tag], "operationId": operation_id, "summary": summary,
         "description": description}
    if parameters:
        o["parameters"] = parameters
    if body:
        o["requestBody"] = body
    o["responses"] = resps
    o.update(extensions)
    return o


NO_CONTENT = "Done; no body."

PATHS = {
    "/pets": {
        "get": op(
            "Pets", "listPets", "List pets",
            "Pets sorted by `sort` (default `id`). " + PAGING_DOC + " Filters combine with AND; "
            "a pet with no status matches no `status` filter. Role: readonly.",
            responses({"200": success("A page of pets.", schema("Pets"), LIST_HEADERS)},
                      forbidden=False),
            parameters=[
                comma_list("status", "Only pets with one of these statuses (comma-separated).",
                           schema("PetStatus")),
                query("categoryId", "Only pets of this category.", dict(ID)),
                query("q", "Only pets whose name contains this text (case-insensitive).",
                      {"type": "string"}),
                comma_list("ids", "Only these pets (comma-separated, 1 to 100 ids). The successor "
                                  "of GET /pets/{petId}.",
                           dict(ID), maxItems=100),
                query("sort", "Sort order; `-` for descending.",
                      {"type": "string", "enum": ["id", "name", "-id", "-name"], "default": "id"}),
            ] + PAGING,
        ),
        "post": op(
            "Pets", "createPet", "Create a pet",
            "Creates a pet and its inventory item at quantity 0 (no stock history entry). "
            "Role: staff.",
            responses({"201": success("The created pet.", schema("Pet"), CREATED_HEADERS)},
                      *BODY, "PetValidationFailed"),
            body=request_body("NewPet", "The new pet."),
        ),
    },
    "/pets/{petId}": {
        "parameters": [param("PetId")],
        "get": op(
            "Pets", "getPetById", "Get a pet (deprecated)",
            "**Deprecated**: use `GET /pets?ids={petId}`. Answers with `Deprecation`, `Sunset` and "
            "a `Link` to the successor; after the sunset date it answers 410 `gone` with the same "
            "headers. Role: readonly.",
            responses({
                "200": success("The pet.", schema("Pet"),
                               dict(RECORD_HEADERS, **DEPRECATION_HEADERS)),
                "404": ref("responses", "NotFound"),
                "410": ref("responses", "Gone"),
            }, forbidden=False),
            deprecated=True,
        ),
        "put": op(
            "Pets", "replacePet", "Replace a pet",
            "Replaces the whole pet: a body without `status` clears it. Honours `If-Match`. "
            "Role: staff.",
            responses({"200": success("The pet as stored.", schema("Pet"), RECORD_HEADERS)},
                      "NotFound", "PreconditionFailed", *BODY, "PetValidationFailed"),
            parameters=[param("IfMatch")],
            body=request_body("NewPet", "The whole pet."),
        ),
        "patch": op(
            "Pets", "updatePet", "Update a pet",
            "Merge patch (RFC 7396) of `name`, `categoryId`, `status`; `\"status\": null` clears "
            "the status. Staff may set any status; it does not change the stock. Honours "
            "`If-Match`. Role: staff.",
            responses({"200": success("The pet as stored.", schema("Pet"), RECORD_HEADERS)},
                      "NotFound", "PreconditionFailed", *BODY, "PetValidationFailed"),
            parameters=[param("IfMatch")],
            body=request_body("PetPatch", "The fields to change.", merge_patch=True),
        ),
        "delete": op(
            "Pets", "deletePet", "Delete a pet",
            "Deletes the pet and its inventory item. Refused with 409 `pet_has_open_orders` while "
            "it has incomplete orders. Honours `If-Match`. Role: staff.",
            responses({"204": success(NO_CONTENT)},
                      "NotFound", "PetHasOpenOrders", "PreconditionFailed"),
            parameters=[param("IfMatch")],
        ),
    },
    "/categories": {
        "get": op(
            "Pets", "listCategories", "List categories",
            "Categories sorted by id. " + PAGING_DOC + " Role: readonly.",
            responses({"200": success("A page of categories.",
                                      {"type": "array", "items": schema("Category")},
                                      LIST_HEADERS)}, forbidden=False),
            parameters=[query("q", "Only categories whose name contains this text "
                                   "(case-insensitive).", {"type": "string"})] + PAGING,
        ),
        "post": op(
            "Pets", "createCategory", "Create a category",
            "Names are unique, case-insensitive: a taken name is 409 `duplicate_name`. "
            "Role: staff.",
            responses({"201": success("The created category.", schema("Category"),
                                      CREATED_HEADERS)},
                      "DuplicateName", *BODY, "ValidationFailed"),
            body=request_body("NewCategory", "The new category."),
        ),
    },
    "/categories/{categoryId}": {
        "parameters": [param("CategoryId")],
        "get": op(
            "Pets", "getCategory", "Get a category", "Role: readonly.",
            responses({"200": success("The category.", schema("Category"), RECORD_HEADERS),
                       "404": ref("responses", "NotFound")}, forbidden=False),
        ),
        "put": op(
            "Pets", "replaceCategory", "Replace a category",
            "Replaces the whole category: a body without `description` clears it. Honours "
            "`If-Match`. Role: staff.",
            responses({"200": success("The category as stored.", schema("Category"),
                                      RECORD_HEADERS)},
                      "NotFound", "DuplicateName", "PreconditionFailed", *BODY,
                      "ValidationFailed"),
            parameters=[param("IfMatch")],
            body=request_body("NewCategory", "The whole category."),
        ),
        "patch": op(
            "Pets", "updateCategory", "Update a category",
            "Merge patch (RFC 7396) of `name` and `description`; `\"description\": null` clears "
            "it. Honours `If-Match`. Role: staff.",
            responses({"200": success("The category as stored.", schema("Category"),
                                      RECORD_HEADERS)},
                      "NotFound", "DuplicateName", "PreconditionFailed", *BODY,
                      "ValidationFailed"),
            parameters=[param("IfMatch")],
            body=request_body("CategoryPatch", "The fields to change.", merge_patch=True),
        ),
        "delete": op(
            "Pets", "deleteCategory", "Delete a category",
            "Refused with 409 `category_in_use` while pets belong to it. Honours `If-Match`. "
            "Role: staff.",
            responses({"204": success(NO_CONTENT)},
                      "NotFound", "CategoryInUse", "PreconditionFailed"),
            parameters=[param("IfMatch")],
        ),
    },
    "/store/orders": {
        "get": op(
            "Store", "listOrders", "List orders",
            "Orders, newest first (id descending). " + PAGING_DOC + " Cancelled orders are gone "
            "and not listed. The test panel of this operation is disabled in this reference. "
            "Role: readonly.",
            responses({"200": success("A page of orders.",
                                      {"type": "array", "items": schema("Order")},
                                      LIST_HEADERS)}, forbidden=False),
            parameters=[
                query("complete", "Only complete (`true`) or open (`false`) orders.",
                      {"type": "boolean"}),
                query("petId", "Only orders for this pet.", dict(ID)),
            ] + PAGING,
            **{"x-try-it": False},
        ),
        "post": op(
            "Store", "placeOrder", "Place an order",
            "Places an order with `complete: false` and takes its units out of stock in the same "
            "transaction.\n\n"
            "- The pet must exist (else 422 `unknown_pet`) and its status must be `available` or "
            "unset (else 409 `pet_not_available`); then the stock must cover `quantity` (else 409 "
            "`insufficient_stock`).\n"
            "- When the order takes the last unit, the pet becomes `pending`.\n"
            "- N parallel orders against stock S succeed exactly min(N, S) times.\n\n"
            "Send an `Idempotency-Key` so that a retry after a lost answer cannot order twice. "
            "Role: pos.",
            responses({"201": success("The placed order (or the replay of the first answer).",
                                      schema("Order"), dict(CREATED_HEADERS, **REPLAYED))},
                      "OrderConflict", *BODY, "OrderValidationFailed"),
            parameters=[param("IdempotencyKey")],
            body=request_body("NewOrder", "The order."),
        ),
    },
    "/store/orders/{orderId}": {
        "parameters": [param("OrderId")],
        "get": op(
            "Store", "getOrder", "Get an order",
            "A cancelled order is gone: 404. Role: readonly.",
            responses({"200": success("The order.", schema("Order"), RECORD_HEADERS),
                       "404": ref("responses", "NotFound")}, forbidden=False),
        ),
        "patch": op(
            "Store", "updateOrder", "Complete an order or set its ship date",
            "`{\"complete\": true}` marks the order complete; completion is one-way: "
            "`{\"complete\": false}` on a completed order is 409 `order_already_complete`, "
            "`{\"complete\": true}` on it is a 200 that changes nothing. Completing sets `shipDate` "
            "to now when it has none. When the last open order of a pet with no stock left is "
            "completed, the pet becomes `sold`. Honours `If-Match`. Role: pos.",
            responses({"200": success("The order as stored.", schema("Order"), RECORD_HEADERS)},
                      "NotFound", "OrderAlreadyComplete", "PreconditionFailed", *BODY,
                      "ValidationFailed"),
            parameters=[param("IfMatch")],
            body=request_body("OrderPatch", "The change.", merge_patch=True),
        ),
        "delete": op(
            "Store", "cancelOrder", "Cancel an order",
            "Cancels an incomplete order: its units return to stock (a `cancel` entry in the stock "
            "history) and a `pending` pet becomes `available` again. The order is gone afterwards "
            "(GET answers 404). A completed order is 409 `order_already_complete`. Honours "
            "`If-Match`. Role: pos.",
            responses({"204": success(NO_CONTENT)},
                      "NotFound", "OrderAlreadyComplete", "PreconditionFailed"),
            parameters=[param("IfMatch")],
        ),
    },
    "/store/inventory": {
        "get": op(
            "Store", "listInventory", "List stock counts",
            "Stock per pet, sorted by `petId`. A pet without a status shows and matches "
            "`available`. " + PAGING_DOC + " Role: readonly.",
            responses({"200": success("A page of inventory items.",
                                      {"type": "array", "items": schema("InventoryItem")},
                                      LIST_HEADERS)}, forbidden=False),
            parameters=[
                comma_list("status", "Only pets with one of these statuses (comma-separated).",
                           schema("PetStatus")),
                query("below", "Only items whose quantity is less than this.",
                      {"type": "integer", "format": "int64", "minimum": 0}),
            ] + PAGING,
        ),
    },
    "/store/inventory/{petId}": {
        "parameters": [param("PetId")],
        "get": op(
            "Store", "getInventoryItem", "Get a pet's stock count", "Role: readonly.",
            responses({"200": success("The inventory item.", schema("InventoryItem"),
                                      RECORD_HEADERS),
                       "404": ref("responses", "NotFound")}, forbidden=False),
        ),
        "put": op(
            "Store", "setInventory", "Set a pet's stock count",
            "Sets the count (a `set` entry in the stock history, with the optional `reason`). "
            "The pet's status does not change. Honours `If-Match` (the inventory item's `ETag`). "
            "Role: staff.",
            responses({"200": success("The inventory item as stored.", schema("InventoryItem"),
                                      RECORD_HEADERS)},
                      "NotFound", "PreconditionFailed", *BODY, "ValidationFailed"),
            parameters=[param("IfMatch")],
            body=request_body("InventoryUpdate", "The new count."),
        ),
    },
    "/store/inventory/{petId}/adjustments": {
        "parameters": [param("PetId")],
        "get": op(
            "Store", "listStockChanges", "List a pet's stock history",
            "Every change of the pet's stock, newest first: orders, cancellations, counts set and "
            "adjustments, with the quantity after each. " + PAGING_DOC + " Role: readonly.",
            responses({"200": success("A page of stock history entries.",
                                      {"type": "array", "items": schema("StockChange")},
                                      dict(LIST_HEADERS, **BETA)),
                       "404": ref("responses", "NotFound")}, forbidden=False),
            parameters=PAGING,
            **{"x-stability": "beta"},
        ),
        "post": op(
            "Store", "adjustInventory", "Adjust a pet's stock count",
            "Adds `delta` (negative to remove) atomically: an `adjustment` entry in the stock "
            "history. A result below 0 is 409 `insufficient_stock`, above 1,000,000 is 422. "
            "The pet's status does not change. Honours `Idempotency-Key` like POST /store/orders. "
            "Role: staff.",
            responses({"200": success("The inventory item after the change.",
                                      schema("InventoryItem"),
                                      dict(RECORD_HEADERS, **BETA, **REPLAYED))},
                      "NotFound", "AdjustmentConflict", *BODY, "AdjustmentValidationFailed"),
            parameters=[param("IdempotencyKey")],
            body=request_body("StockAdjustment", "The change."),
            **{"x-stability": "beta"},
        ),
    },
    "/admin/keys": {
        "get": op(
            "Admin", "listKeys", "List API keys",
            "All keys, revoked ones included (with `revokedAt`), with their current usage. "
            "Secrets are never listed. " + PAGING_DOC + " Role: admin.",
            responses({"200": success("A page of keys.",
                                      {"type": "array", "items": schema("ApiKey")},
                                      dict(LIST_HEADERS, **BETA))}),
            parameters=PAGING,
            **{"x-stability": "beta"},
        ),
        "post": op(
            "Admin", "createKey", "Create an API key",
            "Creates a key and answers its secret, once: it is stored only as a hash. "
            "Role: admin.",
            responses({"201": success("The created key, with its secret.",
                                      schema("CreatedApiKey"),
                                      {"Location": header("Location"), **BETA})},
                      *BODY, "ValidationFailed"),
            body=request_body("NewApiKey", "The new key."),
            **{"x-stability": "beta"},
        ),
    },
    "/admin/keys/{keyId}": {
        "parameters": [param("KeyId")],
        "patch": op(
            "Admin", "updateKey", "Change an API key",
            "Changes name, role, plan or custom limits. Takes effect on the key's next request. "
            "Role: admin.",
            responses({"200": success("The key as stored.", schema("ApiKey"), BETA)},
                      "NotFound", *BODY, "ValidationFailed"),
            body=request_body("ApiKeyPatch", "The fields to change.", merge_patch=True),
            **{"x-stability": "beta"},
        ),
        "delete": op(
            "Admin", "revokeKey", "Revoke an API key",
            "Revokes the key: its requests get 401 from now on. It stays listed with `revokedAt`. "
            "Role: admin.",
            responses({"204": success(NO_CONTENT, headers=BETA)}, "NotFound"),
            **{"x-stability": "beta"},
        ),
    },
    "/admin/keys/{keyId}/ban": {
        "parameters": [param("KeyId")],
        "delete": op(
            "Admin", "liftBan", "Lift a temporary ban",
            "Lifts the key's temporary ban and clears its count of rejections. Role: admin.",
            responses({"204": success(NO_CONTENT, headers=BETA)}, "NotFound"),
            **{"x-stability": "beta"},
        ),
    },
    "/events": {
        "get": op(
            "Store", "streamEvents", "Stream changes (Server-Sent Events)",
            "Every change as it commits, as Server-Sent Events. Each message has an increasing "
            "`id:`, an `event:` (`pet.created`, `pet.updated`, `pet.deleted`, `category.created`, "
            "`category.updated`, `category.deleted`, `order.created`, `order.completed`, "
            "`order.cancelled`, `inventory.updated`) and `data:` holding "
            "`{\"type\", \"at\", \"data\"}` with the record as it now is. After a dropped "
            "connection, reconnect with `Last-Event-ID` to get what was missed. Role: readonly.",
            responses({"200": success(
                "An endless event stream.", headers=EXPERIMENTAL,
                content={"text/event-stream": {
                    "schema": {"type": "string"},
                    "example": "id: 12\nevent: pet.updated\ndata: {\"type\":\"pet.updated\","
                               "\"at\":\"2026-11-22T09:30:00Z\",\"data\":{\"id\":42,\"name\":"
                               "\"Rex\",\"categoryId\":1,\"status\":\"pending\"}}\n\n",
                }})}, forbidden=False),
            parameters=[param("LastEventId")],
            **{"x-stability": "experimental"},
        ),
    },
    "/health": {
        "get": {
            "tags": ["Admin"],
            "operationId": "health",
            "summary": "Health check",
            "description": "Answers 200 while the server runs. Needs no key and is not rate "
                           "limited.",
            "security": [],
            "responses": {
                "200": {"description": "The server is up and its store answers.",
                        "content": json_content(schema("Health"))},
                "503": {"description": "The store cannot serve now (`unavailable`).",
                        "content": json_content(schema("Error"))},
            },
        },
    },
}

# ---------------------------------------------------------------------------------------------
# The document

INFO_DESCRIPTION = """\
The pet store's JSON API: pets, their categories, orders and stock counts, for tills (POS), \
staff tools and the staff web UI.

## Keys and roles
Send a key as `X-API-Key: <secret>` or `Authorization: Bearer <secret>`. Each key has a role: \
`readonly` reads, `pos` also places, completes and cancels orders, `staff` also edits pets, \
categories and stock, `admin` also manages keys. `GET /health` needs no key.

## Plans and rate limits
| Plan | Requests per minute | Requests per day |
|---|---|---|
| Free | 60 | 1,000 |
| Pro | 300 | 10,000 |
| Business | 1,000 | 100,000 |
| Enterprise | Custom (set on the key) | Custom (set on the key) |

Windows are fixed: the current UTC minute and the current UTC day. Requests without a valid key \
are counted per client address under the Free plan. Every response carries `X-RateLimit-Limit`, \
`X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds) of the window that binds first, \
and the same as `RateLimit-Policy` and `RateLimit` fields. Over a limit: 429 `rate_limited` with \
`Retry-After`; back off and retry after it, with exponential backoff. Answered 429 more than 30 \
times in one minute, a key (or address) is banned for 15 minutes (429 `temporarily_banned`); an \
admin can lift the ban.

## Lists
Lists answer a JSON array, paged with `limit` (1 to 500, default 50) and `offset` (default 0). \
`X-Total-Count` gives the number of matches; `Link` carries `rel="next"` and `rel="prev"` where \
there is such a page. An unknown query parameter is 400 `bad_request`, so a typo never widens a \
list.

## Changing records safely
- Single records carry a strong `ETag`; PUT, PATCH and DELETE honour `If-Match` (412 \
`precondition_failed` when someone else changed the record).
- `POST /store/orders` and `POST /store/inventory/{petId}/adjustments` honour `Idempotency-Key`: \
retry with the same key and body to get the first answer again without acting twice.
- Bodies are `application/json` (PATCH also `application/merge-patch+json`), at most 64 KiB. \
Malformed JSON, a wrong type or an unknown field is 400; a missing field or a value out of \
bounds is 422 `validation_failed`. Names and descriptions are stored trimmed.

## Errors
Every error is `{"code", "message", "status"}`; see the `Error` schema for all codes.

## Stability
`GET /pets/{petId}` is deprecated (use `GET /pets?ids={petId}`) and answers 410 after its sunset \
date. Operations marked `x-stability` (`beta` or `experimental`) send the same value in \
`X-Stability`.
"""

DOCUMENT = {
    "openapi": "3.0.3",
    "info": {
        "title": "Pet Store",
        "version": "1.0.0",
        "description": INFO_DESCRIPTION,
        "license": {"name": "MIT"},
    },
    "servers": [{"url": "/", "description": "This store (same address as this page)"}],
    "tags": [
        {"name": "Pets", "description": "Animals for sale and their categories."},
        {"name": "Store", "description": "Orders, stock counts and the change stream."},
        {"name": "Admin", "description": "API keys, their plans and bans; health."},
    ],
    "security": [{"ApiKeyHeader": []}, {"BearerAuth": []}],
    "paths": PATHS,
    "components": {
        "securitySchemes": {
            "ApiKeyHeader": {"type": "apiKey", "in": "header", "name": "X-API-Key",
                             "description": "The key's secret."},
            "BearerAuth": {"type": "http", "scheme": "bearer",
                           "description": "The key's secret as a bearer token."},
        },
        "schemas": SCHEMAS,
        "parameters": PARAMETERS,
        "headers": HEADERS,
        "responses": dict(
            {name: error_response(name) for name in ERROR_RESPONSES},
            Gone={
                "description": "The operation passed its sunset date: use its successor "
                               "(`GET /pets?ids={petId}`).",
                "headers": with_rate_limits(DEPRECATION_HEADERS),
                "content": json_content(schema("Error"), example={
                    "code": "gone", "message": EXAMPLE_MESSAGES["gone"], "status": 410}),
            },
        ),
    },
}


def render():
    return json.dumps(DOCUMENT, indent=2, ensure_ascii=False) + "\n"


def main(argv):
    text = render()
    if argv[1:] == ["--check"]:
        if not OUT.exists() or OUT.read_text(encoding="utf-8") != text:
            print(f"{OUT} is out of date: run python3 openapi/generate.py", file=sys.stderr)
            return 1
        print(f"{OUT.name} is up to date")
        return 0
    if argv[1:]:
        print("usage: generate.py [--check]", file=sys.stderr)
        return 2
    OUT.write_text(text, encoding="utf-8")
    print(f"wrote {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
