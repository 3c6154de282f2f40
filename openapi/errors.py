"""The error codes, the reusable error responses, and the per-operation error lists."""

from parts import RATE_LIMIT_HEADERS, header, json_content, ref, schema

ERROR_CODES = [
    (
        "bad_request",
        400,
        "malformed JSON, wrong JSON type, unknown field, bad or unknown query parameter",
    ),
    ("unauthorized", 401, "no key, unknown key or revoked key"),
    ("forbidden", 403, "the key's role may not do this"),
    (
        "not_found",
        404,
        "no such record or route (also an id in the path that is not a positive int64)",
    ),
    ("method_not_allowed", 405, "known path, other method"),
    ("request_timeout", 408, "the request took longer than the server's request timeout (30 s)"),
    (
        "conflict",
        409,
        "the request clashes with current state, e.g. the same Idempotency-Key is still being "
        "processed",
    ),
    ("insufficient_stock", 409, "not enough units in stock"),
    ("pet_not_available", 409, "the pet's status is neither `available` nor unset"),
    ("order_already_complete", 409, "a completed order cannot be cancelled or reopened"),
    ("category_in_use", 409, "pets still belong to the category"),
    ("pet_has_open_orders", 409, "the pet still has incomplete orders"),
    ("duplicate_name", 409, "another category already has this name (case-insensitive)"),
    ("gone", 410, "a deprecated operation past its sunset date"),
    ("precondition_failed", 412, "`If-Match` does not match the current `ETag`"),
    ("payload_too_large", 413, "body over 64 KiB"),
    (
        "unsupported_media_type",
        415,
        "the body is not `application/json` (or `application/merge-patch+json` on PATCH)",
    ),
    (
        "validation_failed",
        422,
        "missing required field, value out of bounds or outside its enumeration",
    ),
    ("unknown_category", 422, "`categoryId` names no category"),
    ("unknown_pet", 422, "`petId` names no pet"),
    ("idempotency_key_reused", 422, "the same `Idempotency-Key` was used with another body"),
    ("rate_limited", 429, "over the minute or day limit of the plan; see `Retry-After`"),
    (
        "temporarily_banned",
        429,
        "more than 30 rejections in one minute: banned for 15 minutes; see `Retry-After`",
    ),
    ("internal", 500, "a bug; the message leaks no internals"),
    (
        "unavailable",
        503,
        "the store cannot serve now (e.g. the database stayed busy past its timeout)",
    ),
]


def error_table():
    rows = ["| status | code | when |", "|---|---|---|"]
    rows += [f"| {status} | `{code}` | {when} |" for code, status, when in ERROR_CODES]
    return "\n".join(rows)


# name -> (status, codes, description)
ERROR_RESPONSES = {
    "BadRequest": (
        "400",
        ["bad_request"],
        "Malformed JSON, a wrong JSON type, an unknown body field, or a bad or unknown "
        "query parameter. The message names the field or parameter.",
    ),
    "Unauthorized": (
        "401",
        ["unauthorized"],
        "No key, an unknown key or a revoked key. Send `X-API-Key: <secret>` or "
        "`Authorization: Bearer <secret>`.",
    ),
    "Forbidden": ("403", ["forbidden"], "The key's role may not do this."),
    "NotFound": ("404", ["not_found"], "No such record."),
    "RequestTimeout": (
        "408",
        ["request_timeout"],
        "The request took longer than the server's request timeout (30 s).",
    ),
    "DuplicateName": (
        "409",
        ["duplicate_name"],
        "Another category already has this name (names are unique, case-insensitive).",
    ),
    "CategoryInUse": ("409", ["category_in_use"], "Pets still belong to this category."),
    "PetHasOpenOrders": ("409", ["pet_has_open_orders"], "The pet still has incomplete orders."),
    "OrderAlreadyComplete": (
        "409",
        ["order_already_complete"],
        "The order is complete: it cannot be cancelled or set back to incomplete.",
    ),
    "OrderConflict": (
        "409",
        ["pet_not_available", "insufficient_stock", "conflict"],
        "`pet_not_available`: the pet's status is `pending` or `sold` (checked before "
        "stock). `insufficient_stock`: fewer units in stock than `quantity`. "
        "`conflict`: a request with the same `Idempotency-Key` is still being processed.",
    ),
    "AdjustmentConflict": (
        "409",
        ["insufficient_stock", "conflict"],
        "`insufficient_stock`: the count would go below 0. `conflict`: a request "
        "with the same `Idempotency-Key` is still being processed.",
    ),
    "PreconditionFailed": (
        "412",
        ["precondition_failed"],
        "`If-Match` does not match the record's current `ETag`: someone else "
        "changed it. Fetch it again and reapply the change.",
    ),
    "PayloadTooLarge": ("413", ["payload_too_large"], "The body is over 64 KiB."),
    "UnsupportedMediaType": (
        "415",
        ["unsupported_media_type"],
        "The body is not `application/json` (PATCH also takes " "`application/merge-patch+json`).",
    ),
    "ValidationFailed": (
        "422",
        ["validation_failed"],
        "A required field is missing, or a value is out of bounds or outside its "
        "enumeration. The message names the field.",
    ),
    "PetValidationFailed": (
        "422",
        ["validation_failed", "unknown_category"],
        "`validation_failed`: a required field is missing or a value is out of "
        "bounds (the message names it). `unknown_category`: `categoryId` names no "
        "category.",
    ),
    "OrderValidationFailed": (
        "422",
        ["validation_failed", "unknown_pet", "idempotency_key_reused"],
        "`validation_failed`: a required field is missing or a value is out of "
        "bounds. `unknown_pet`: `petId` names no pet. `idempotency_key_reused`: "
        "this `Idempotency-Key` was already used with another body.",
    ),
    "AdjustmentValidationFailed": (
        "422",
        ["validation_failed", "idempotency_key_reused"],
        "`validation_failed`: a field is missing or out of bounds, or the "
        "count would go above 1,000,000. `idempotency_key_reused`: this "
        "`Idempotency-Key` was already used with another body.",
    ),
    "TooManyRequests": (
        "429",
        ["rate_limited", "temporarily_banned"],
        "`rate_limited`: over the minute or day limit of the key's plan (or of the "
        "address, for requests without a valid key). `temporarily_banned`: answered "
        "429 more than 30 times in one minute, so every request is refused for 15 "
        "minutes. Wait `Retry-After` seconds, then retry with exponential backoff. A "
        "rejected request uses no quota.",
    ),
    "Unavailable": (
        "503",
        ["unavailable"],
        "The store cannot serve now (e.g. the database stayed busy past its timeout). "
        "Retry later.",
    ),
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


def errors(*names):
    """Maps component response names to their status codes."""
    return {ERROR_RESPONSES[name][0]: ref("responses", name) for name in names}


# Error responses shared by every interface operation, by least role.
COMMON = ["BadRequest", "Unauthorized", "RequestTimeout", "TooManyRequests", "Unavailable"]
BODY = ["PayloadTooLarge", "UnsupportedMediaType"]


def responses(ok, *error_names, forbidden=True, timeout=True):
    names = list(COMMON) + list(error_names)
    if forbidden:
        names.append("Forbidden")
    if not timeout:
        names.remove("RequestTimeout")
    merged = dict(ok)
    merged.update(errors(*names))
    return {status: merged[status] for status in sorted(merged)}
