"""Interface 1.2, the stockroom: suppliers, a pet's supplier, cost and reorder quantity, and
purchase orders. Adds its fields, schemas, error responses and operations to the tables of
the other files (generate.py calls extend() after the counter's)."""

from errors import BODY, ERROR_RESPONSES, EXAMPLE_MESSAGES, responses
from facts import BOUNDS, hi, lo
from headers import BETA, CREATED_HEADERS, LIST_HEADERS, PAGING_DOC, RECORD_HEADERS, path_id
from parts import ID, NAME, TEXT_PATTERN, described, op, param, ref, request_body, schema, success
from shop import NO_CONTENT, PRICE, query

SUPPLIER_ID = path_id("supplierId", "supplier")
COST = dict(PRICE, description="Money in the minor unit of the store's currency.")
REORDER_QUANTITY = {
    "type": "integer",
    "format": "int32",
    "minimum": BOUNDS["reorderQuantity"]["min"],
    "maximum": BOUNDS["reorderQuantity"]["max"],
}


def text(max_length, description):
    return {
        "type": "string",
        "maxLength": max_length,
        "pattern": TEXT_PATTERN,
        "nullable": True,
        "description": description + " Stored trimmed; empty or `null` means none.",
    }


SUPPLIER_FIELDS = {
    "contact": text(100, "The person to ask for: up to 100 characters."),
    "phone": text(40, "Up to 40 characters."),
    "email": text(254, "An address such as orders@example.com, up to 254 characters."),
    "note": text(1000, "Up to 1,000 characters."),
}

SUPPLIER_SCHEMAS = {
    "Supplier": {
        "type": "object",
        "description": "A wholesaler the shop buys from. Every field is present; empty ones are `null`.",
        "required": ["id", "name", "contact", "phone", "email", "note"],
        "properties": dict(
            {"id": ID, "name": described(NAME, "Unique, compared case-insensitively.")},
            **{k: dict(v) for k, v in SUPPLIER_FIELDS.items()},
        ),
        "example": {"id": 3, "name": "Acme Aquatics", "contact": "Jo", "phone": "+1 555 0100", "email": "orders@acme.example", "note": None},
    },
    "NewSupplier": {
        "type": "object",
        "additionalProperties": False,
        "required": ["name"],
        "properties": dict({"name": described(NAME, "Unique, compared case-insensitively.")}, **SUPPLIER_FIELDS),
        "example": {"name": "Acme Aquatics", "email": "orders@acme.example"},
    },
    "SupplierPatch": {
        "type": "object",
        "additionalProperties": False,
        "description": "A merge patch (RFC 7396): fields left out stay; `null` clears a field (not `name`).",
        "properties": dict({"name": described(NAME, "Unique, compared case-insensitively.")}, **SUPPLIER_FIELDS),
        "example": {"phone": "+1 555 0199"},
    },
}

SUPPLIER_ERRORS = {
    "SupplierDuplicateName": (
        "409",
        ["duplicate_name"],
        "Another supplier already has this name (names are unique, case-insensitive).",
    ),
    "SupplierInUse": (
        "409",
        ["conflict"],
        "Pets or purchase orders name this supplier: change or delete them first.",
    ),
}


def supplier_paths():
    return {
        "/store/suppliers": {
            "get": op(
                "listSuppliers",
                "List suppliers",
                "Suppliers sorted by id. " + PAGING_DOC,
                responses(
                    {"200": success("A page of suppliers.", {"type": "array", "items": schema("Supplier")}, dict(LIST_HEADERS, **BETA))},
                    forbidden=False,
                ),
                parameters=[
                    query(
                        "q",
                        "Only suppliers whose name contains this text (case-insensitive).",
                        {"type": "string", "maxLength": BOUNDS["search"]["max"]},
                    ),
                    param("Limit"),
                    param("Offset"),
                    param("After"),
                ],
            ),
            "post": op(
                "createSupplier",
                "Create a supplier",
                "Names are unique, case-insensitive: a taken name is 409 `duplicate_name`. "
                "Emits `supplier.created`.",
                responses(
                    {"201": success("The created supplier.", schema("Supplier"), dict(CREATED_HEADERS, **BETA))},
                    "SupplierDuplicateName",
                    *BODY,
                    "ValidationFailed",
                ),
                body=request_body("NewSupplier", "The new supplier."),
            ),
        },
        "/store/suppliers/{supplierId}": {
            "parameters": [SUPPLIER_ID],
            "get": op(
                "getSupplier",
                "Get a supplier",
                "",
                responses(
                    {
                        "200": success("The supplier.", schema("Supplier"), dict(RECORD_HEADERS, **BETA)),
                        "404": ref("responses", "NotFound"),
                    },
                    forbidden=False,
                ),
            ),
            "patch": op(
                "updateSupplier",
                "Update a supplier",
                "Merge patch (RFC 7396); `null` clears a field other than `name`. Honours "
                "`If-Match`. Emits `supplier.updated`.",
                responses(
                    {"200": success("The supplier as stored.", schema("Supplier"), dict(RECORD_HEADERS, **BETA))},
                    "NotFound",
                    "SupplierDuplicateName",
                    "PreconditionFailed",
                    *BODY,
                    "ValidationFailed",
                ),
                parameters=[param("IfMatch")],
                body=request_body("SupplierPatch", "The fields to change.", merge_patch=True),
            ),
            "delete": op(
                "deleteSupplier",
                "Delete a supplier",
                "Refused with 409 `conflict` while pets or purchase orders name it. Honours "
                "`If-Match`. Emits `supplier.deleted`.",
                responses(
                    {"204": success(NO_CONTENT, headers=BETA)},
                    "NotFound",
                    "SupplierInUse",
                    "PreconditionFailed",
                ),
                parameters=[param("IfMatch")],
            ),
        },
    }


def pet_fields(schemas):
    """A pet's `supplierId`, `cost` and `reorderQuantity`."""
    supplier = "The supplier the pet is bought from (422 `validation_failed` when it names none)."
    cost = "What one unit costs the shop, in minor units; a purchase order's lines default to it."
    reorder = (
        f"Units a purchase order asks for when the pet runs low ({lo('reorderQuantity')} to "
        f"{hi('reorderQuantity')})."
    )
    pet = schemas["Pet"]["properties"]
    pet["supplierId"] = described(ID, supplier + " Absent: none.")
    pet["cost"] = dict(COST, description=cost + " Absent: none.")
    pet["reorderQuantity"] = dict(REORDER_QUANTITY, description=reorder + " Absent: none.")
    schemas["Pet"]["description"] = schemas["Pet"]["description"].replace(
        "`price` and `taxRate` are omitted",
        "`price`, `taxRate`, `supplierId`, `cost` and `reorderQuantity` are omitted",
    )
    for name, lead in (("NewPet", "Optional. "), ("PetPatch", "`null` clears it. ")):
        props = schemas[name]["properties"]
        props["supplierId"] = dict(ID, nullable=True, description=lead + supplier)
        props["cost"] = dict(COST, nullable=True, description=lead + cost)
        props["reorderQuantity"] = dict(REORDER_QUANTITY, nullable=True, description=lead + reorder)


def extend(paths, schemas):
    """Adds interface 1.2's stockroom fields and operations to the document's tables."""
    pet_fields(schemas)
    schemas.update(SUPPLIER_SCHEMAS)
    ERROR_RESPONSES.update(SUPPLIER_ERRORS)
    EXAMPLE_MESSAGES.setdefault("duplicate_name", "a supplier named Acme already exists")
    paths.update(supplier_paths())
    events = paths["/events"]["get"]
    events["description"] = events["description"].replace(
        "`inventory.short`)",
        "`inventory.short`, `supplier.created`, `supplier.updated`, `supplier.deleted`)",
    )
