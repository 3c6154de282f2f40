"""The staff UI's copies of the interface, written from the same facts as the document:
`ui/facts.js` (the plans, the roles in rank order and the bounds, from facts.json) and
`ui/openapi.d.ts` (a TypeScript type for each of the document's schemas, which the UI's JSDoc
names through ui/types.js). generate.py writes both beside openapi.json and `--check` fails
while either is stale, so the UI never restates a fact by hand.

Standard library only, output is deterministic (schemas and keys in the document's order).
"""

import json
from pathlib import Path

from facts import BOUNDS, PLANS, ROLES

UI = Path(__file__).resolve().parent.parent / "ui"
FACTS_JS = UI / "facts.js"
OPENAPI_DTS = UI / "openapi.d.ts"

GENERATED = "Written by openapi/generate.py from openapi/{source}: do not edit; change src/contract.rs."


def facts_js():
    """The plans (name and limits, in the order the document lists them), the roles from least
    to most (each may do what the ones before it may) and every bound, as ES module constants."""
    plans = [{"name": p["name"], "perMinute": p["perMinute"], "perDay": p["perDay"]} for p in PLANS]
    roles = [r["name"] for r in ROLES]
    return "\n".join([
        "//! The interface's facts the staff UI needs. " + GENERATED.format(source="facts.json"),
        "",
        "/** The plans a key may have; `perMinute` and `perDay` are `null` for a plan whose limits are set on the key. */",
        f"export const PLANS = /** @type {{const}} */ ({json.dumps(plans, indent=2)});",
        "",
        "/** The roles from least to most: each may do everything the ones before it may. */",
        f"export const ROLES = /** @type {{const}} */ ({json.dumps(roles)});",
        "",
        "/** Every bound the server enforces and the document publishes (`min` and `max` included). */",
        f"export const BOUNDS = /** @type {{const}} */ ({json.dumps(BOUNDS, indent=2)});",
        "",
    ])


def ts_type(s, depth):
    """The TypeScript type of one schema object (OpenAPI 3.0: `nullable`, `$ref`, `allOf`...)."""
    if "$ref" in s:
        t = s["$ref"].rsplit("/", 1)[1]
    elif "allOf" in s:
        t = " & ".join(ts_type(x, depth) for x in s["allOf"])
    elif "oneOf" in s or "anyOf" in s:
        t = " | ".join(ts_type(x, depth) for x in s.get("oneOf") or s["anyOf"])
    elif "enum" in s:
        t = " | ".join(json.dumps(v) for v in s["enum"])
    elif s.get("type") == "array":
        item = ts_type(s["items"], depth)
        t = f"Array<{item}>"
    elif s.get("type") == "object" or "properties" in s:
        t = ts_object(s, depth)
    else:
        t = {"integer": "number", "number": "number", "string": "string", "boolean": "boolean"}.get(
            s.get("type"), "unknown"
        )
    return f"{t} | null" if s.get("nullable") else t


def ts_object(s, depth):
    props = s.get("properties", {})
    extra = s.get("additionalProperties")
    if not props:
        return f"Record<string, {ts_type(extra, depth)}>" if isinstance(extra, dict) else "Record<string, unknown>"
    pad = "  " * (depth + 1)
    required = set(s.get("required", []))
    lines = [f"{pad}{name}{'' if name in required else '?'}: {ts_type(p, depth + 1)};" for name, p in props.items()]
    if isinstance(extra, dict):
        lines.append(f"{pad}[name: string]: {ts_type(extra, depth + 1)};")
    return "{\n" + "\n".join(lines) + "\n" + "  " * depth + "}"


def openapi_dts(document):
    """One exported type per schema of the document, named as the schema is."""
    out = ["// The OpenAPI document's schemas as TypeScript types. " + GENERATED.format(source="openapi.json"), ""]
    for name, s in document["components"]["schemas"].items():
        out.append(f"export type {name} = {ts_type(s, 0)};")
    return "\n".join(out) + "\n"


def outputs(document):
    """Each UI file this generator writes, with its text."""
    return {FACTS_JS: facts_js(), OPENAPI_DTS: openapi_dts(document)}
