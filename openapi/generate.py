#!/usr/bin/env python3
"""Writes openapi/openapi.json, the OpenAPI 3.0.3 document the server publishes at /openapi.json.

The document repeats the same headers and error responses on every operation, so it is built
from a few tables instead of being edited by hand: parts.py (builders and shared fragments),
errors.py (codes and error responses), schemas.py, headers.py (headers and parameters),
answers.py (the answers lists, creates, reads and changes share) and paths.py (the
operations); this file puts them together. The committed JSON is what the server
embeds and serves. ui.py writes the staff UI's copies from the same facts: ui/facts.js (plans,
roles, bounds) and ui/openapi.d.ts (the schemas as types). After editing any of them run

    python3 openapi/generate.py          # rewrite openapi/openapi.json, ui/facts.js, ui/openapi.d.ts
    python3 openapi/generate.py --check  # exit 1 if any of them is out of date

Standard library only, output is deterministic (keys in the order written here).
"""

import json
import sys
from pathlib import Path

from errors import ERROR_RESPONSES, EXAMPLE_MESSAGES, error_response
from facts import BAN, BODY_LIMIT, BOUNDS, OPERATIONS, PLANS, ROLES, hi, n
from headers import DEPRECATION_HEADERS, HEADERS, PARAMETERS
from parts import header, json_content, param, schema, with_rate_limits
from paths import PATHS
from schemas import SCHEMAS
import labels
import ui
import pairing
import staff
from shop import extend as extend_shop
from counter import extend as extend_counter
from stockroom import extend as extend_stockroom
from animals import extend as extend_animals
from cancelled import extend as extend_cancelled

extend_shop(PATHS, SCHEMAS)
extend_counter(PATHS, SCHEMAS)
extend_stockroom(PATHS, SCHEMAS)
labels.extend(PATHS)
extend_animals(PATHS, SCHEMAS)
extend_cancelled(PATHS, SCHEMAS)

OUT = Path(__file__).with_name("openapi.json")


def plans_table():
    rows = ["| Plan | Requests per minute | Requests per day |", "|---|---|---|"]
    for plan in PLANS:
        custom = "Custom (set on the key)"
        minute = n(plan["perMinute"]) if plan["perMinute"] else custom
        day = n(plan["perDay"]) if plan["perDay"] else custom
        rows.append(f"| {plan['name'].capitalize()} | {minute} | {day} |")
    return "\n".join(rows)


ROLES_TEXT = ", ".join(
    f"`{r['name']}` {'also ' if i else ''}{r['adds']}" for i, r in enumerate(ROLES)
)

INFO_DESCRIPTION = f"""\
The pet store's JSON API: pets, their categories, orders and stock counts, for tills (POS), \
staff tools and the staff web UI.

## Keys and roles
Send a key as `X-API-Key: <secret>` or `Authorization: Bearer <secret>`. Each key has a role: \
{ROLES_TEXT}. `GET /health` needs no key.

Staff members sign in with their name and PIN (`POST /session`, no key needed) and get a \
session key that acts with their role on the Business plan; the stock history and the events \
name the member (`keyName`, `staffId`).

## Plans and rate limits
{plans_table()}

Windows are fixed: the current UTC minute and the current UTC day. Requests without a valid key \
are counted per client address under the Free plan. Every response carries `X-RateLimit-Limit`, \
`X-RateLimit-Remaining` and `X-RateLimit-Reset` (Unix seconds) of the window that binds first, \
and the same as `RateLimit-Policy` and `RateLimit` fields. Over a limit: 429 `rate_limited` with \
`Retry-After`; back off and retry after it, with exponential backoff. Answered 429 {BAN[0]}, a key \
(or address) is banned for {BAN[1]} (429 `temporarily_banned`); an admin can lift the ban.

## Lists
Lists answer a JSON array, paged with `limit` ({BOUNDS['limit']['min']} to {hi('limit')}, default \
{BOUNDS['limitDefault']}) and `offset` (default 0). \
`X-Total-Count` gives the number of matches; `Link` carries `rel="next"` and `rel="prev"` where \
there is such a page. An unknown query parameter is 400 `bad_request`, so a typo never widens a \
list. To walk a large list, use the `after` cursor (beta) on the lists in id order (pets, \
categories, orders, inventory): `?limit=500&after=<last id of the page you have>`; its `Link` \
`rel="next"` carries the next `after`. Deep `offset` pages reached by following `next` are fast \
too while the list does not change.

## Changing records safely
- Single records carry a strong `ETag`; PUT, PATCH and DELETE honour `If-Match` (412 \
`precondition_failed` when someone else changed the record).
- `POST /store/orders` and `POST /store/inventory/{{petId}}/adjustments` honour `Idempotency-Key`: \
retry with the same key and body to get the first answer again without acting twice.
- Bodies are `application/json` (PATCH also `application/merge-patch+json`), at most {BODY_LIMIT}. \
Malformed JSON, a wrong type or an unknown field is 400; a missing field or a value out of \
bounds is 422 `validation_failed`. Names and descriptions are stored trimmed.

## Errors
Every error is `{{"code", "message", "status"}}`; see the `Error` schema for all codes.

## Stability
`GET /pets/{{petId}}` is deprecated (use `GET /pets?ids={{petId}}`) and answers 410 after its sunset \
date. Operations marked `x-stability` (`beta` or `experimental`) send the same value in \
`X-Stability`.
"""

DOCUMENT = {
    "openapi": "3.0.3",
    "info": {
        "title": "Pet Store",
        "version": "1.2.0",
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
    "paths": dict(PATHS, **staff.PATHS, **pairing.PATHS),
    "components": {
        "securitySchemes": {
            "ApiKeyHeader": {
                "type": "apiKey",
                "in": "header",
                "name": "X-API-Key",
                "description": "The key's secret.",
            },
            "BearerAuth": {
                "type": "http",
                "scheme": "bearer",
                "description": (
                    "The key's secret as a bearer token. An `Authorization` header that is not "
                    "`Bearer <secret>` is refused with 401, even beside a valid `X-API-Key`: "
                    "credentials the server cannot read are never passed over. (A readable bearer "
                    "token beside `X-API-Key`: `X-API-Key` decides.)"
                ),
            },
        },
        "schemas": dict(SCHEMAS, **staff.SCHEMAS, **pairing.SCHEMAS),
        "parameters": dict(PARAMETERS, **staff.PARAMETERS),
        "headers": HEADERS,
        "responses": dict(
            {name: error_response(name) for name in ERROR_RESPONSES},
            **staff.RESPONSES,
            Gone={
                "description": (
                    "The operation passed its sunset date: use its successor "
                    "(`GET /pets?ids={petId}`)."
                ),
                "headers": with_rate_limits(DEPRECATION_HEADERS),
                "content": json_content(
                    schema("Error"),
                    example={"code": "gone", "message": EXAMPLE_MESSAGES["gone"], "status": 410},
                ),
            },
        ),
    },
}


def check_operations():
    """The document's operations are exactly the contract's, each under its own method and path
    (src/contract.rs OPERATIONS, read through facts.json). Tags, stability, deprecation, roles
    and security need no check: `parts.op` takes them from the same table."""
    documented = {}
    for path, item in DOCUMENT["paths"].items():
        for method, operation in item.items():
            if method != "parameters":
                documented[(method.upper(), path)] = operation
    listed = {(o["method"], o["path"]): o for o in OPERATIONS}
    problems = [f"{m} {p} is not in src/contract.rs OPERATIONS" for m, p in documented.keys() - listed.keys()]
    problems += [f"{m} {p} is in src/contract.rs but not documented" for m, p in listed.keys() - documented.keys()]
    for key in documented.keys() & listed.keys():
        doc, fact = documented[key], listed[key]
        if doc["operationId"] != fact["operationId"]:
            problems.append(f"{key}: operationId {doc['operationId']} != {fact['operationId']}")
    if problems:
        raise SystemExit("openapi: the paths disagree with the contract:\n  " + "\n  ".join(sorted(problems)))


def conditional_reads():
    """Every GET answering a record with its ETag also answers 304 to a matching
    If-None-Match (src/api/conditional.rs)."""
    for item in DOCUMENT["paths"].values():
        get = item.get("get")
        ok = (get or {}).get("responses", {}).get("200", {})
        if "ETag" not in ok.get("headers", {}):
            continue
        get.setdefault("parameters", []).append(param("IfNoneMatch"))
        get["responses"]["304"] = {
            "description": "Not modified: `If-None-Match` names the record's current `ETag`. No body.",
            "headers": with_rate_limits({"ETag": header("ETag")}),
        }


conditional_reads()


def render():
    """Every file this generator writes, with its text."""
    check_operations()
    return {OUT: json.dumps(DOCUMENT, indent=2, ensure_ascii=False) + "\n", **ui.outputs(DOCUMENT)}


def main(argv):
    files = render()
    if argv[1:] == ["--check"]:
        stale = [p for p, text in files.items() if not p.exists() or p.read_text(encoding="utf-8") != text]
        for path in stale:
            print(f"{path} is out of date: run python3 openapi/generate.py", file=sys.stderr)
        if stale:
            return 1
        print(", ".join(p.name for p in files) + " are up to date")
        return 0
    if argv[1:]:
        print("usage: generate.py [--check]", file=sys.stderr)
        return 2
    for path, text in files.items():
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
