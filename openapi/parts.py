"""Small builders and shared schema fragments of the OpenAPI document (see generate.py)."""

from facts import BOUNDS, OPERATIONS_BY_ID, PLANS, ROLES, hi

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


def op(operation_id, summary, description, resps, parameters=None, body=None, **extensions):
    """One operation. Its tag, stability (with the `X-Stability` header of its success
    answers), deprecation, closing "Role: X." sentence and (for an operation that needs no
    key) empty security come from the contract's operation table (src/contract.rs, read
    through facts.json); none of them is written by hand. Other `x-` extensions are passed as
    keywords."""
    fact = OPERATIONS_BY_ID[operation_id]
    stability = None if fact["stability"] == "stable" else fact["stability"]
    if stability:
        summary = f"{summary} ({stability})"
    if fact["deprecated"]:
        summary = f"{summary} (deprecated)"
    if fact["role"]:
        description = " ".join(filter(None, [description.rstrip(), f"Role: {fact['role']}."]))
    o = {"tags": [fact["tag"]], "operationId": operation_id, "summary": summary, "description": description}
    if not fact["role"]:
        o["security"] = []
    if parameters:
        o["parameters"] = parameters
    if body:
        o["requestBody"] = body
    o["responses"] = with_stability_header(resps, stability)
    o.update(extensions)
    if stability:
        o["x-stability"] = stability
    if fact["deprecated"]:
        o["deprecated"] = True
    return o


def with_stability_header(resps, stability):
    """`resps` with `X-Stability` on each success answer of a `beta` or `experimental`
    operation, after the answer's other headers unless the answer places it itself (before a
    header that comes last). A stable operation's answers carry none."""
    out = {}
    for code, resp in resps.items():
        headers = resp.get("headers", {})
        if not code.startswith("2") or stability is None:
            assert "X-Stability" not in headers, f"a {code} answer of a stable operation sends X-Stability"
            out[code] = resp
            continue
        sent = header(f"X-Stability-{stability.capitalize()}")
        assert headers.get("X-Stability", sent) == sent, f"X-Stability is not {stability}"
        out[code] = dict(resp, headers={**headers, "X-Stability": sent})
    return out


def request_body(schema_name, description, merge_patch=False):
    return {
        "description": description,
        "required": True,
        "content": json_content(schema(schema_name), merge_patch=merge_patch),
    }


# Components: schemas

def bounded(kind, bound, **extra):
    """An integer schema between a bound's min and max."""
    out = {"type": "integer", "format": kind}
    out.update(minimum=BOUNDS[bound]["min"], maximum=BOUNDS[bound]["max"])
    out.update(extra)
    return out


def items(bound):
    """`minItems` and `maxItems` of an array, from the bound of that name."""
    return {"minItems": BOUNDS[bound]["min"], "maxItems": BOUNDS[bound]["max"]}


def pet_lines(bound, pet_id, quantity, **more):
    """A body's `lines`: as many as the bound of that name allows, each a `petId` and a
    `quantity` (and the optional properties in `more`), nothing else."""
    return {
        "type": "array",
        **items(bound),
        "items": {
            "type": "object",
            "additionalProperties": False,
            "required": ["petId", "quantity"],
            "properties": {"petId": pet_id, "quantity": quantity, **more},
        },
    }


# The server refuses control characters (Unicode Cc: U+0000-001F and U+007F-009F) in every
# text it stores, but the tab; a name also needs one character that is not white space.
CONTROL = "\\u0000-\\u0008\\u000a-\\u001f\\u007f-\\u009f"
TEXT_PATTERN = f"^[^{CONTROL}]*$"
NAME_PATTERN = f"^[^{CONTROL}]*[^\\s{CONTROL}][^{CONTROL}]*$"
NO_CONTROL = "no control characters but the tab"

NAME = {
    "type": "string",
    "minLength": BOUNDS["name"]["min"],
    "maxLength": BOUNDS["name"]["max"],
    "pattern": NAME_PATTERN,
    "description": f"1 to {hi('name')} characters, one of them not white space, {NO_CONTROL}; stored trimmed.",
}
REASON = {
    "type": "string",
    "maxLength": BOUNDS["reason"]["max"],
    "pattern": TEXT_PATTERN,
    "nullable": True,
    "description": (
        f"Why the stock changed: up to {hi('reason')} characters, {NO_CONTROL}, stored "
        "trimmed; empty or `null` means no reason."
    ),
}
ID = {"type": "integer", "format": "int64", "minimum": 1}
NON_NEGATIVE = {"type": "integer", "format": "int64", "minimum": 0}
STOCK = bounded("int32", "stock")
QUANTITY = bounded("int32", "quantity")
ROLE_NAMES = [r["name"] for r in ROLES]
ROLE = {
    "type": "string",
    "enum": ROLE_NAMES,
    "description": "; ".join(
        f"`{r['name']}` {'also ' if i else ''}{r['adds']}" for i, r in enumerate(ROLES)
    )
    + ".",
}
PLAN = {
    "type": "string",
    "enum": [p["name"] for p in PLANS],
    "description": "Sets the key's rate limits (see the plans table above).",
}
PER_MINUTE = bounded("int64", "perMinute")
PER_DAY = bounded("int64", "perDay")
TIMESTAMP = {"type": "string", "format": "date-time"}
DATE = {"type": "string", "format": "date"}


# perMinute and perDay: both with the enterprise plan, neither with any other. Stated as data
# (what the body must not be) so that validators and test generators know it, and written with
# `not` so that client generators keep one plain model.
FIXED_PLANS = [p["name"] for p in PLANS if p["perMinute"] is not None]
# A number given (not `null`, which means "not given").
GIVEN = {"type": "integer"}
FIXED_PLAN_WITH_LIMITS = {
    "description": "A plan with fixed limits, with perMinute or perDay.",
    "required": ["plan"],
    "properties": {"plan": {"enum": FIXED_PLANS}},
    "anyOf": [
        {"required": ["perMinute"], "properties": {"perMinute": GIVEN}},
        {"required": ["perDay"], "properties": {"perDay": GIVEN}},
    ],
}
ENTERPRISE_ONLY = {
    "anyOf": [
        FIXED_PLAN_WITH_LIMITS,
        {
            "description": "The enterprise plan without both perMinute and perDay.",
            "required": ["plan"],
            "properties": {"plan": {"enum": ["enterprise"]}},
            "not": {
                "required": ["perMinute", "perDay"],
                "properties": {"perMinute": GIVEN, "perDay": GIVEN},
            },
        },
    ]
}


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


def nullable_ref(name, description):
    """A shared shape that may also be `null`, the OpenAPI 3.0.3 way: one `$ref` in `allOf`
    beside `nullable`, so generated clients use the shared type instead of a copy of it."""
    return {"allOf": [schema(name)], "nullable": True, "description": description}


PET_STATUS_VALUES = ["available", "pending", "sold"]


def replaced(text, anchor, new):
    """`text` with `anchor` replaced by `new`: how one builder extends another's description.
    Stops the generator when the anchor is gone, so a builder that changed the text it
    extends is found at once instead of silently dropping what the other one added."""
    if anchor not in text:
        raise SystemExit(f"openapi: the text to extend no longer contains {anchor!r}")
    return text.replace(anchor, new, 1)
