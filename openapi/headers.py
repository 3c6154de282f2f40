"""components.headers and components.parameters, and the header sets responses share."""

from facts import BOUNDS, hi
from parts import DATE, ID, header, param

# Components: headers and parameters

COUNT = {"type": "integer", "minimum": 0}


def always(description, schema_obj):
    """A header sent on every answer that lists it."""
    return {"description": description, "required": True, "schema": schema_obj}


HEADERS = {
    "X-RateLimit-Limit": always(
        "The limit of the window that binds first (the one with fewer requests "
        "left; the minute on a tie).",
        COUNT,
    ),
    "X-RateLimit-Remaining": always("Requests left in that window.", COUNT),
    "X-RateLimit-Reset": always("When that window resets, in Unix seconds.", COUNT),
    "RateLimit-Policy": always(
        "The key's quota policies as in the IETF RateLimit header fields draft, "
        'e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`.',
        {"type": "string", "minLength": 1},
    ),
    "RateLimit": always(
        "Each window's state as in the IETF RateLimit header fields draft: "
        "remaining requests `r` and seconds to reset `t`, e.g. "
        '`"minute";r=59;t=42, "day";r=998;t=3600`.',
        {"type": "string", "minLength": 1},
    ),
    "Retry-After": always(
        "Whole seconds until the window (or the ban) ends. Retry after it, with "
        "exponential backoff.",
        COUNT,
    ),
    "Retry-After-Unavailable": always(
        "Whole seconds to wait before sending the request again: 5 while the store cannot "
        "serve, a few while the sign-in queue is full, 10 while every event-stream place "
        "is taken.",
        COUNT,
    ),
    "ETag": always(
        "Strong entity tag of the record. Send it back in `If-Match` to change the "
        "record only if nobody else has.",
        {"type": "string", "pattern": '^"[^"]*"$'},
    ),
    "Idempotent-Replayed": {
        "description": (
            "`true` when this answer is the replay of an earlier request with the same "
            "`Idempotency-Key`: nothing was done again."
        ),
        "schema": {"type": "string", "enum": ["true"]},
    },
    "Location": always("Path of the created record.", {"type": "string", "minLength": 1}),
    "X-Total-Count": always("Number of records matching the filters, over all pages.", COUNT),
    "Link": {
        "description": (
            'RFC 8288 links to the `rel="next"` and `rel="prev"` pages, where there '
            "are such pages."
        ),
        "schema": {"type": "string"},
    },
    "Deprecation": always(
        "RFC 9745: the operation is deprecated (`@` and Unix seconds).",
        {"type": "string", "pattern": "^@-?[0-9]+$"},
    ),
    "Sunset": {
        "description": (
            "RFC 8594: the HTTP-date after which the operation answers 410 `gone` "
            "(a setting; default Wed, 30 Jun 2027 00:00:00 GMT)."
        ),
        "required": True,
        "schema": {
            "type": "string",
            "pattern": (
                "^[A-Z][a-z]{2}, [0-9]{2} [A-Z][a-z]{2} [0-9]{4} " "[0-9]{2}:[0-9]{2}:[0-9]{2} GMT$"
            ),
        },
    },
    "Link-Successor": always(
        'The successor operation: `</pets?ids={petId}>; rel="successor-version"`.',
        {"type": "string", "pattern": 'rel="?successor-version"?'},
    ),
    "X-Stability-Beta": always(
        "The operation is `beta`: it may still change.",
        {"type": "string", "enum": ["beta"]},
    ),
    "X-Stability-Experimental": always(
        "The operation is `experimental`: it may change or go away.",
        {"type": "string", "enum": ["experimental"]},
    ),
}


def query(name, description, schema_obj, **extra):
    """A query parameter; `extra` adds keys such as `style` and `explode`."""
    return dict(
        {"name": name, "in": "query", "description": description, "schema": schema_obj}, **extra
    )


# The local days a report covers; either may be empty for its default.
DAY_RANGE = [
    query("from", "First local day (YYYY-MM-DD); empty means the default.", DATE, allowEmptyValue=True),
    query("to", "Last local day (YYYY-MM-DD), included; empty means the default.", DATE, allowEmptyValue=True),
]


def path_id(name, what):
    return {
        "name": name,
        "in": "path",
        "required": True,
        "description": f"ID of the {what}. An id that is not a positive int64 answers 404.",
        "schema": dict(ID),
    }


PARAMETERS = {
    "PetId": path_id("petId", "pet"),
    "CategoryId": path_id("categoryId", "category"),
    "OrderId": path_id("orderId", "order"),
    "KeyId": path_id("keyId", "API key"),
    "Limit": {
        "name": "limit",
        "in": "query",
        "description": f"Page size: {BOUNDS['limit']['min']} to {hi('limit')}.",
        "schema": {
            "type": "integer",
            "minimum": BOUNDS["limit"]["min"],
            "maximum": BOUNDS["limit"]["max"],
            "default": BOUNDS["limitDefault"],
        },
    },
    "Offset": {
        "name": "offset",
        "in": "query",
        "description": "Number of records to skip.",
        "schema": {"type": "integer", "format": "int64", "minimum": 0, "default": 0},
    },
    "After": {
        "name": "after",
        "in": "query",
        "description": (
            "Cursor (beta): the page starts right after the record with this id, in the list's "
            "order. Give the last id of the page you have. In an id order (every list, and "
            "pets with `sort=id` or `-id`) a deleted record still works as a cursor; in a "
            "name order the record must still exist (404 `not_found` otherwise). An `offset` "
            "given with it counts on from the cursor. The answer's `Link` then carries "
            "`rel=\"next\"` with `after` (when the page is full) and no `rel=\"prev\"`; "
            "`X-Total-Count` is the whole list's. The way to walk large lists: each page in an "
            "id order costs the same at any depth."
        ),
        "schema": {"type": "integer", "format": "int64", "minimum": 1},
        "x-stability": "beta",
    },
    "IfNoneMatch": {
        "name": "If-None-Match",
        "in": "header",
        "description": (
            "The `ETag` of the copy you already have: when it is still the record's, the "
            "answer is 304 with no body (the headers as on 200), so polling a record costs "
            "no JSON. `*` or a list of tags works as RFC 9110 says."
        ),
        "schema": {"type": "string"},
    },
    "IfMatch": {
        "name": "If-Match",
        "in": "header",
        "description": (
            "Apply the change only if the record's current `ETag` is this one "
            "(412 `precondition_failed` otherwise). Recommended for every edit from a "
            "shared till."
        ),
        "schema": {"type": "string"},
    },
    "IdempotencyKey": {
        "name": "Idempotency-Key",
        "in": "header",
        "description": (
            f"Makes a retry safe: up to {hi('idempotencyKey')} characters (quotes included), quoted or not, "
            "scoped to the calling API key. Repeating the request with the same key and body "
            f"within {BOUNDS['idempotencyHours']} hours replays the first answer (status and body) without acting again; "
            "the same key with another body is 422 `idempotency_key_reused`; a repeat "
            "while the first is still being processed is 409 `conflict`."
        ),
        "schema": {
            "type": "string",
            "minLength": BOUNDS["idempotencyKey"]["min"],
            "maxLength": BOUNDS["idempotencyKey"]["max"],
        },
    },
    "LastEventId": {
        "name": "Last-Event-ID",
        "in": "header",
        "description": "Resume after this event id: the events committed since are sent first.",
        "schema": {"type": "string"},
    },
}

PAGING = [param("Limit"), param("Offset")]
# The lists in id order can also be walked with the `after` cursor (beta).
CURSOR_PAGING = PAGING + [param("After")]

PAGING_DOC = (
    f"Paged with `limit` ({BOUNDS['limit']['min']} to {hi('limit')}, default "
    f"{BOUNDS['limitDefault']}) and `offset`; `X-Total-Count` gives the "
    "number of matches and `Link` the next and previous pages."
)

LIST_HEADERS = {"X-Total-Count": header("X-Total-Count"), "Link": header("Link")}
RECORD_HEADERS = {"ETag": header("ETag")}
CREATED_HEADERS = {"Location": header("Location"), "ETag": header("ETag")}
LOCATION_HEADERS = {"Location": header("Location")}
REPLAYED = {"Idempotent-Replayed": header("Idempotent-Replayed")}
BETA = {"X-Stability": header("X-Stability-Beta")}
EXPERIMENTAL = {"X-Stability": header("X-Stability-Experimental")}
DEPRECATION_HEADERS = {
    "Deprecation": header("Deprecation"),
    "Sunset": header("Sunset"),
    "Link": header("Link-Successor"),
}
