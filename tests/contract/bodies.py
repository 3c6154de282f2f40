"""Checks every JSON request body's `null`s and JSON types against the document, deterministically.

usage: bodies.py BASE_URL ADMIN_KEY OPENAPI_JSON

The fuzzer finds a property the document types as a plain string but the server takes as `null`
only by chance. This check leaves nothing to chance: for every operation with a JSON request
body it builds a valid body on records it makes itself (a control, which must be accepted), then
sends that body changed in one property at a time, at the top level and one level down (the
lines of a sale, its customer, ...):

- `null` for a property the document does not mark nullable: refused, 400 or 422 in the Error
  shape (`{code, message, status}`, `status` the HTTP status);
- a required property left out: refused the same way;
- `null` for a nullable property: accepted, with the operation's success status;
- a wrong JSON type (a string for a number or a boolean, a number for a string, an object for an
  array, an array for an object): refused, 400 or 422 in the Error shape.

Every mismatch is reported by operation and property; exits 1 if there is any, or if an
operation with a JSON body has no fixture here (add one). Standard library only.
"""

import http.client
import itertools
import json
import os
import sys
import urllib.parse

REFUSED = (400, 422)
_serial = itertools.count(1)


def unique(prefix):
    return f"{prefix} {os.getpid()}-{next(_serial)}"


class Client:
    def __init__(self, base, key):
        url = urllib.parse.urlsplit(base)
        self.host, self.port, self.key = url.hostname, url.port, key

    def send(self, method, path, body=None, key=True):
        conn = http.client.HTTPConnection(self.host, self.port, timeout=20)
        headers = {"Content-Type": "application/json"} if body is not None else {}
        if key:
            headers["X-API-Key"] = self.key
        raw = None if body is None else json.dumps(body)
        conn.request(method, path, body=raw, headers=headers)
        response = conn.getresponse()
        data = response.read()
        conn.close()
        try:
            decoded = json.loads(data) if data else None
        except ValueError:
            decoded = data.decode(errors="replace")
        return response.status, decoded

    def must(self, method, path, body=None):
        status, answer = self.send(method, path, body)
        if status >= 300:
            sys.exit(f"bodies: setting up, {method} {path} answered {status}: {answer}")
        return answer


class Case:
    """One request to send: the path, a valid body, and whether it goes without the key."""

    def __init__(self, path, body, key=True, after=None):
        self.path, self.body, self.key, self.after = path, body, key, after


def fixtures(c):
    """A factory per operation id: each call returns a fresh Case whose body is valid."""
    category = c.must("POST", "/categories", {"name": unique("bodies animals")})["id"]

    def pet(stock=1000, **extra):
        made = c.must(
            "POST",
            "/pets",
            {"name": unique("bodies pet"), "categoryId": category, "status": "available", **extra},
        )
        c.must("PUT", f"/store/inventory/{made['id']}", {"quantity": stock})
        return made["id"]

    stocked = pet(stock=500000, price=500)
    spare = pet()
    animal = pet(stock=1, animal={"sex": "female"})
    supplier = c.must("POST", "/store/suppliers", {"name": unique("bodies supplier")})["id"]
    other_category = c.must("POST", "/categories", {"name": unique("bodies category")})["id"]
    sale = c.must(
        "POST",
        "/store/sales",
        {
            "lines": [{"petId": stocked, "quantity": 1000}],
            "payments": [{"method": "cash", "amount": 100000000}],
        },
    )["id"]
    draft = c.must(
        "POST",
        "/store/purchase-orders",
        {"supplierId": supplier, "lines": [{"petId": spare, "quantity": 5}]},
    )["id"]
    receiving = pet(stock=0)
    sent = c.must(
        "POST",
        "/store/purchase-orders",
        {"supplierId": supplier, "lines": [{"petId": receiving, "quantity": 1000000}]},
    )["id"]
    c.must("POST", f"/store/purchase-orders/{sent}/send")
    target_key = c.must(
        "POST", "/admin/keys", {"name": unique("bodies key"), "role": "readonly", "plan": "free"}
    )["id"]
    member_name = unique("bodies clerk")
    member = c.must("POST", "/admin/staff", {"name": member_name, "role": "staff", "pin": "7351"})[
        "id"
    ]

    def order():
        return c.must("POST", "/store/orders", {"petId": stocked, "quantity": 1})["id"]

    def stocktake():
        made = c.must("POST", "/store/stocktakes", {})["id"]
        return made, lambda *_: c.send("DELETE", f"/store/stocktakes/{made}")

    def delete_created(path):
        def after(status, answer):
            if status == 201 and isinstance(answer, dict) and "id" in answer:
                c.send("DELETE", f"{path}/{answer['id']}")

        return after

    def counted():
        made, done = stocktake()
        return Case(f"/store/stocktakes/{made}/lines/{spare}", {"counted": 1000}, after=done)

    def close_shift():
        shift = c.must(
            "POST", "/store/shifts", {"till": unique("bodies till"), "openingCash": 1000}
        )["id"]
        return Case(f"/store/shifts/{shift}/close", {"countedCash": 1000})

    def pair():
        code = c.must(
            "POST", "/admin/pairings", {"name": unique("bodies till"), "role": "pos", "plan": "free"}
        )["code"]
        return Case("/pair", {"code": code}, key=False)

    return {
        "createPet": lambda: Case(
            "/pets",
            {
                "name": unique("bodies pet"),
                "categoryId": category,
                "status": "available",
                "animal": {"sex": "female", "breed": "Tabby"},
                "hold": {"until": "2030-01-01", "reason": "Quarantine"},
            },
        ),
        "replacePet": lambda: Case(
            f"/pets/{spare}", {"name": unique("bodies pet"), "categoryId": category}
        ),
        "updatePet": lambda: Case(f"/pets/{spare}", {"name": unique("bodies pet")}),
        "createCategory": lambda: Case(
            "/categories", {"name": unique("bodies category"), "description": "Furry"}
        ),
        "replaceCategory": lambda: Case(
            f"/categories/{other_category}", {"name": unique("bodies category")}
        ),
        "updateCategory": lambda: Case(
            f"/categories/{other_category}", {"name": unique("bodies category")}
        ),
        "placeOrder": lambda: Case("/store/orders", {"petId": stocked, "quantity": 1}),
        "updateOrder": lambda: Case(f"/store/orders/{order()}", {"complete": True}),
        "setInventory": lambda: Case(f"/store/inventory/{spare}", {"quantity": 1000}),
        "updateInventoryItem": lambda: Case(f"/store/inventory/{spare}", {"reorderPoint": 5}),
        "adjustInventory": lambda: Case(
            f"/store/inventory/{spare}/adjustments", {"delta": 1, "reason": "recount"}
        ),
        "createKey": lambda: Case(
            "/admin/keys", {"name": unique("bodies key"), "role": "readonly", "plan": "free"}
        ),
        "updateKey": lambda: Case(f"/admin/keys/{target_key}", {"name": unique("bodies key")}),
        "updateStoreProfile": lambda: Case("/store/profile", {"name": "Bodies Pets"}),
        "createStocktake": lambda: Case(
            "/store/stocktakes", {"note": "shelf 3"}, after=delete_created("/store/stocktakes")
        ),
        "countStocktakeLine": counted,
        "placeSale": lambda: Case(
            "/store/sales",
            {
                "lines": [{"petId": stocked, "quantity": 1, "discount": 0}],
                "payments": [{"method": "cash", "amount": 100000}],
                "customer": {"name": "Ann"},
            },
        ),
        "refundSale": lambda: Case(
            f"/store/sales/{sale}/refunds",
            {
                "lines": [{"petId": stocked, "quantity": 1}],
                "method": "cash",
                "reason": "Wrong size",
                "restock": True,
            },
        ),
        "openShift": lambda: Case(
            "/store/shifts", {"till": unique("bodies till"), "openingCash": 1000}
        ),
        "closeShift": close_shift,
        "createSupplier": lambda: Case("/store/suppliers", {"name": unique("bodies supplier")}),
        "updateSupplier": lambda: Case(
            f"/store/suppliers/{supplier}", {"name": unique("bodies supplier")}
        ),
        "createPurchaseOrder": lambda: Case(
            "/store/purchase-orders",
            {"supplierId": supplier, "lines": [{"petId": spare, "quantity": 5, "cost": 100}]},
        ),
        "suggestPurchaseOrder": lambda: Case(
            "/store/purchase-orders/suggest", {"supplierId": supplier}
        ),
        "replacePurchaseOrder": lambda: Case(
            f"/store/purchase-orders/{draft}",
            {"supplierId": supplier, "lines": [{"petId": spare, "quantity": 6, "cost": 100}]},
        ),
        "receivePurchaseOrder": lambda: Case(
            f"/store/purchase-orders/{sent}/receive", {"lines": [{"petId": receiving, "quantity": 1}]}
        ),
        "recordCare": lambda: Case(f"/pets/{animal}/care", {"kind": "fed"}),
        "createStaff": lambda: Case(
            "/admin/staff", {"name": unique("bodies clerk"), "role": "staff", "pin": "7351"}
        ),
        "updateStaff": lambda: Case(f"/admin/staff/{member}", {"role": "staff"}),
        "signIn": lambda: Case("/session", {"name": member_name, "pin": "7351"}, key=False),
        "createPairing": lambda: Case(
            "/admin/pairings", {"name": unique("bodies till"), "role": "pos", "plan": "free"}
        ),
        "pairDevice": pair,
    }


class Document:
    def __init__(self, doc):
        self.doc = doc

    def resolve(self, schema):
        """The schema itself, with a `$ref` or a one-element `allOf` followed; nullable kept."""
        nullable = bool(schema.get("nullable"))
        while True:
            if "$ref" in schema:
                schema = self.doc["components"]["schemas"][schema["$ref"].split("/")[-1]]
            elif len(schema.get("allOf", [])) == 1 and "type" not in schema:
                schema = schema["allOf"][0]
            else:
                break
            nullable = nullable or bool(schema.get("nullable"))
        return schema, nullable

    def operations(self):
        for path, item in self.doc["paths"].items():
            for method, op in item.items():
                if not isinstance(op, dict) or "requestBody" not in op:
                    continue
                content = op["requestBody"]["content"]
                if "application/json" not in content:
                    continue
                success = sorted(int(s) for s in op["responses"] if s.startswith("2"))
                yield op["operationId"], method.upper(), content["application/json"]["schema"], success


def wrong_type(schema):
    """A JSON value of another type than the schema's, with what it is."""
    kind = schema.get("type")
    if kind in ("integer", "number"):
        return "1", "a string"
    if kind == "boolean":
        return "true", "a string"
    if kind == "string":
        return 1, "a number"
    if kind == "array":
        return {}, "an object"
    if kind == "object":
        return [], "an array"
    return None, None


def variants(document, schema, body, where=""):
    """(what, body) pairs: the body with one property changed, at this level and one below."""
    schema, _ = document.resolve(schema)
    required = set(schema.get("required", []))
    for name, prop in schema.get("properties", {}).items():
        resolved, nullable = document.resolve(prop)
        label = where + name

        def changed(value, drop=False, name=name):
            copy = json.loads(json.dumps(body))
            if drop:
                copy.pop(name, None)
            else:
                copy[name] = value
            return copy

        yield label, "null", nullable, changed(None)
        if name in required:
            yield label, "left out", False, changed(None, drop=True)
        value, what = wrong_type(resolved)
        if what is not None:
            yield label, what, False, changed(value)
        inner = body.get(name)
        if resolved.get("type") == "array" and isinstance(inner, list) and inner:
            for sub_label, sub_what, sub_ok, sub_body in variants(
                document, resolved["items"], inner[0], label + "[0]."
            ):
                yield sub_label, sub_what, sub_ok, changed([sub_body] + inner[1:])
        elif resolved.get("type") == "object" and isinstance(inner, dict) and not where:
            for sub_label, sub_what, sub_ok, sub_body in variants(
                document, resolved, inner, label + "."
            ):
                yield sub_label, sub_what, sub_ok, changed(sub_body)


def error_shape(status, answer):
    return (
        isinstance(answer, dict)
        and isinstance(answer.get("code"), str)
        and isinstance(answer.get("message"), str)
        and answer.get("status") == status
    )


def main(base, admin_key, document_path):
    with open(document_path) as f:
        document = Document(json.load(f))
    c = Client(base, admin_key)
    factories = fixtures(c)
    mismatches, checked, sent = [], [], 0

    def send(op_id, method, case, body):
        nonlocal sent
        sent += 1
        status, answer = c.send(method, case.path, body, key=case.key)
        if case.after:
            case.after(status, answer)
        return status, answer

    for op_id, method, schema, success in document.operations():
        factory = factories.get(op_id)
        if factory is None:
            mismatches.append(f"{op_id}: no fixture in tests/contract/bodies.py; add one")
            continue
        case = factory()
        status, answer = send(op_id, method, case, case.body)
        if status not in success:
            mismatches.append(f"{op_id}: the valid body {case.body} answered {status}: {answer}")
            continue
        changes = list(variants(document, schema, case.body))
        checked.append(f"{op_id} ({len(changes)})")
        for n, (label, what, accepted, _) in enumerate(changes):
            # A fresh case for each variant, changed the same way (names stay unique).
            case = factory()
            base_path = case.path
            body = list(variants(document, schema, case.body))[n][3]
            status, answer = send(op_id, method, case, body)
            if accepted:
                if status not in success:
                    mismatches.append(
                        f"{op_id} {method} {base_path}: {label} = {what} is nullable in the "
                        f"document but answered {status} {answer}"
                    )
            elif status not in REFUSED or not error_shape(status, answer):
                change = f"{label} left out" if what == "left out" else f"{label} = {what}"
                mismatches.append(
                    f"{op_id} {method} {base_path}: {change} must be refused (400/422 in the "
                    f"Error shape) but answered {status} {answer}"
                )
    for line in mismatches:
        print("MISMATCH " + line)
    print("bodies: changed bodies per operation: " + ", ".join(checked))
    print(f"bodies: {sent} requests, {len(mismatches)} mismatches")
    return 1 if mismatches else 0


if __name__ == "__main__":
    if len(sys.argv) != 4:
        sys.exit("usage: bodies.py BASE_URL ADMIN_KEY OPENAPI_JSON")
    sys.exit(main(*sys.argv[1:]))
