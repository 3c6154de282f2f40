"""The error codes, the reusable error responses, and the per-operation error lists."""

from facts import BAN, BODY_LIMIT, DEFAULTS, ERRORS, hi
from parts import RATE_LIMIT_HEADERS, header, json_content, ref, schema

# (code, status, when): from the contract's table in src/contract.rs.
ERROR_CODES = [(e["code"], e["status"], e["when"]) for e in ERRORS]
STATUS_OF = {code: status for code, status, _ in ERROR_CODES}


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
        "The request took longer than the server's request timeout "
        f"({DEFAULTS['requestTimeoutSecs']} s by default).",
    ),
    "DuplicateName": (
        "409",
        ["duplicate_name"],
        "Another category already has this name (names are unique, case-insensitive).",
    ),
    "LastAdminKey": (
        "409",
        ["conflict"],
        "The key is the last active admin key: it can be neither revoked nor given another "
        "role. Make another admin key first (staff members' sessions are not keys and do not "
        "count).",
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
    "PayloadTooLarge": ("413", ["payload_too_large"], f"The body is over {BODY_LIMIT}."),
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
        f"count would go above {hi('stock')}. `idempotency_key_reused`: this "
        "`Idempotency-Key` was already used with another body.",
    ),
    "TooManyRequests": (
        "429",
        ["rate_limited", "temporarily_banned"],
        "`rate_limited`: over the minute or day limit of the key's plan (or of the "
        "address, for requests without a valid key). `temporarily_banned`: answered "
        f"429 {BAN[0]}, so every request is refused for {BAN[1]}. Wait `Retry-After` seconds, then retry with exponential backoff. A "
        "rejected request uses no quota.",
    ),
    "Unavailable": (
        "503",
        ["unavailable"],
        "The store cannot serve this request now; nothing was changed. Wait `Retry-After` "
        "seconds and send it again (with the same `Idempotency-Key`, where the operation takes "
        "one). The message says why:\n"
        "- `the store cannot save changes right now (its PostgreSQL database cannot be "
        "reached); nothing was saved, try again shortly`: PostgreSQL is down or out of reach "
        "(the server keeps trying to reconnect);\n"
        "- `the store cannot save changes right now (the disk is full or failing); nothing was "
        "saved, try again shortly`: the store's disk refused a write;\n"
        "- `the store is busy; try again shortly`: the database stayed busy past its timeout;\n"
        "- `the store is shutting down`;\n"
        "- `too many sign-ins are being checked right now; nothing was counted, try again "
        "shortly` (`POST /session`): the queue of PIN checks is full; the try did not count "
        "toward a lock or a ban;\n"
        "- an export, a backup or the event stream says its own reason (see those operations).",
    ),
}

EXAMPLE_MESSAGES = {
    "conflict": (
        "this is the last active admin key: it can be neither revoked nor given another role"
    ),
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
    "payload_too_large": f"the body is over {BODY_LIMIT}",
    "unsupported_media_type": "expected application/json",
    "validation_failed": f"name: must be 1 to {hi('name')} characters",
    "insufficient_stock": "only 2 units of pet 42 in stock",
    "rate_limited": "rate limit of 60 requests per minute exceeded",
    "unavailable": (
        "the store cannot save changes right now (its PostgreSQL database cannot be reached); "
        "nothing was saved, try again shortly"
    ),
    "gone": "this operation passed its sunset date; use GET /pets?ids=42",
}


def error_response(name):
    status, codes, description = ERROR_RESPONSES[name]
    headers = dict(RATE_LIMIT_HEADERS)
    if status == "429":
        headers["Retry-After"] = header("Retry-After")
    if status == "503":
        headers["Retry-After"] = header("Retry-After-Unavailable")
    for listed in codes:
        if STATUS_OF.get(listed) != int(status):
            raise SystemExit(
                f"{name}: code {listed} is not a {status} in src/contract.rs ERRORS "
                "(add it there, then regenerate openapi/facts.json)"
            )
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
