"""Interface 1.2, the stockroom: suppliers, a pet's supplier, cost and reorder quantity, and
purchase orders. Adds its fields, schemas, error responses and operations to the tables of
the other files (generate.py calls extend() after the counter's)."""

from answers import IF_MATCH, changed, created, deleted, listed, read_one
from errors import BODY, ERROR_RESPONSES, EXAMPLE_MESSAGES, responses
from facts import BOUNDS, hi, lo
from headers import CREATED_HEADERS, CURSOR_PAGING, PAGING_DOC, RECORD_HEADERS, REPLAYED, path_id, query
from parts import ID, NAME, TEXT_PATTERN, TIMESTAMP, bounded, described, op, param, pet_lines, ref, replaced, request_body, schema, success
from shop import PRICE

SUPPLIER_ID = path_id("supplierId", "supplier")
COST = dict(PRICE, description="Money in the minor unit of the store's currency.")
REORDER_QUANTITY = bounded("int32", "reorderQuantity")


def text(max_length, description):
    return {
        "type": "string",
        "maxLength": max_length,
        "pattern": TEXT_PATTERN,
        "nullable": True,
        "description": description + " Stored trimmed; empty or `null` means none.",
    }


SUPPLIER_FIELDS = {
    "contact": text(BOUNDS["contact"]["max"], f"The person to ask for: up to {hi('contact')} characters."),
    "phone": text(BOUNDS["phone"]["max"], f"Up to {hi('phone')} characters."),
    "email": text(BOUNDS["email"]["max"], f"An address such as orders@example.com, up to {hi('email')} characters."),
    "note": text(BOUNDS["description"]["max"], f"Up to {hi('description')} characters."),
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
                listed("A page of suppliers.", "Supplier"),
                parameters=[
                    query(
                        "q",
                        "Only suppliers whose name contains this text (case-insensitive).",
                        {"type": "string", "maxLength": BOUNDS["search"]["max"]},
                    ),
                    *CURSOR_PAGING,
                ],
            ),
            "post": op(
                "createSupplier",
                "Create a supplier",
                "Names are unique, case-insensitive: a taken name is 409 `duplicate_name`. "
                "Emits `supplier.created`.",
                created(
                    "The created supplier.",
                    "Supplier",
                    "SupplierDuplicateName",
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
                read_one("The supplier.", "Supplier"),
            ),
            "patch": op(
                "updateSupplier",
                "Update a supplier",
                "Merge patch (RFC 7396); `null` clears a field other than `name`. Honours "
                "`If-Match`. Emits `supplier.updated`.",
                changed(
                    "The supplier as stored.",
                    "Supplier",
                    "SupplierDuplicateName",
                    "ValidationFailed",
                ),
                parameters=IF_MATCH,
                body=request_body("SupplierPatch", "The fields to change.", merge_patch=True),
            ),
            "delete": op(
                "deleteSupplier",
                "Delete a supplier",
                "Refused with 409 `conflict` while pets or purchase orders name it. Honours "
                "`If-Match`. Emits `supplier.deleted`.",
                deleted("SupplierInUse"),
                parameters=IF_MATCH,
            ),
        },
    }


PURCHASE_ORDER_ID = path_id("purchaseOrderId", "purchase order")
STATUS = {"type": "string", "enum": ["draft", "sent", "partial", "received", "cancelled"]}
UNITS = dict(REORDER_QUANTITY)
PO_COLUMNS = "petId,sku,barcode,name,ordered,received,cost,lineTotal"

PURCHASE_ORDER_SCHEMAS = {
    "NewPurchaseOrder": {
        "type": "object",
        "additionalProperties": False,
        "required": ["supplierId", "lines"],
        "description": "What to order from one supplier (also the whole replacement of a draft).",
        "properties": {
            "supplierId": dict(ID, description="The supplier (422 `validation_failed` when it names none)."),
            "lines": pet_lines(
                "purchaseLines",
                dict(ID, description="The pet; each pet at most once (422 `unknown_pet` with `line` when it names none)."),
                dict(UNITS, description="Units to order."),
                cost=dict(COST, nullable=True, description="What one unit costs; default the pet's `cost` (0 when it has none)."),
            ),
            "note": text(BOUNDS["purchaseNote"]["max"], f"For the supplier or the shop: up to {hi('purchaseNote')} characters."),
        },
        "example": {"supplierId": 3, "lines": [{"petId": 42, "quantity": 12}, {"petId": 7, "quantity": 6, "cost": 250}]},
    },
    "PurchaseOrderLine": {
        "type": "object",
        "required": ["petId", "ordered", "received", "cost"],
        "properties": {
            "petId": ID,
            "ordered": dict(UNITS, description="Units ordered."),
            "received": {"type": "integer", "format": "int32", "minimum": 0, "description": "Units received so far; never more than `ordered`."},
            "cost": dict(COST, description="What one unit costs."),
        },
    },
    "PurchaseOrder": {
        "type": "object",
        "description": (
            "What the shop asks a supplier for. `draft` → `sent` → `partial` (some units "
            "received) → `received` (every line); `draft` or `sent` with nothing received may "
            "be `cancelled`. `received` and `cancelled` orders are closed."
        ),
        "required": ["id", "number", "supplierId", "status", "lines", "total", "note", "createdAt", "sentAt", "closedAt"],
        "properties": {
            "id": ID,
            "number": {"type": "integer", "format": "int64", "minimum": 1, "description": "The store's purchase orders counted from 1 without gaps."},
            "supplierId": ID,
            "status": STATUS,
            "lines": {"type": "array", "items": schema("PurchaseOrderLine")},
            "total": {"type": "integer", "format": "int64", "minimum": 0, "description": "The sum of `ordered × cost`, in minor units."},
            "note": {"type": "string", "nullable": True},
            "createdAt": TIMESTAMP,
            "sentAt": dict(TIMESTAMP, nullable=True),
            "closedAt": dict(TIMESTAMP, nullable=True, description="When it was received in full or cancelled."),
        },
    },
    "PurchaseOrderSuggestion": {
        "type": "object",
        "additionalProperties": False,
        "required": ["supplierId"],
        "properties": {"supplierId": dict(ID, description="The supplier whose low pets to order.")},
    },
    "Receipt": {
        "type": "object",
        "additionalProperties": False,
        "required": ["lines"],
        "description": "Units that arrived.",
        "properties": {
            "lines": pet_lines(
                "purchaseLines",
                dict(ID, description="A pet of the order's lines; each at most once."),
                dict(UNITS, description="Units that arrived."),
            ),
        },
        "example": {"lines": [{"petId": 42, "quantity": 6}]},
    },
}

PURCHASE_ORDER_ERRORS = {
    "PurchaseOrderConflict": (
        "409",
        ["purchase_order_closed", "over_receipt", "conflict"],
        "`purchase_order_closed`: the order is received or cancelled and can no longer "
        "change. `over_receipt`: a line asks for more than was ordered and not yet received "
        "(or names a pet the order does not have); `line` names it and nothing is received. "
        "`conflict`: the order is not in a state that allows this (only a draft's lines change "
        "and only a draft is sent; a draft is sent before it is received; a partly received "
        "order is not cancelled), the stock would pass the most a shop can hold, or a request "
        "with the same `Idempotency-Key` is still being processed.",
    ),
    "PurchaseOrderValidationFailed": (
        "422",
        ["validation_failed", "unknown_pet", "idempotency_key_reused"],
        "`validation_failed`: a field is missing or out of bounds, a pet is on two lines, or "
        "`supplierId` names no supplier (the message names the field). `unknown_pet`: a line's "
        "`petId` names no pet (with `line`). `idempotency_key_reused`: this `Idempotency-Key` "
        "was already used with another body.",
    ),
}

PO_CSV_EXAMPLE = f"{PO_COLUMNS}\r\n42,GUP-1,4006381333931,Guppy,12,0,120,1440\r\n"


def purchase_order_paths():
    one = success("The purchase order as stored.", schema("PurchaseOrder"), RECORD_HEADERS)
    changing = lambda summary_id, summary, description: op(  # noqa: E731
        summary_id,
        summary,
        description,
        responses(
            {"200": one, "404": ref("responses", "NotFound")},
            "PurchaseOrderConflict",
        ),
    )
    return {
        "/store/purchase-orders": {
            "get": op(
                "listPurchaseOrders",
                "List purchase orders",
                "Purchase orders, newest first (id descending). " + PAGING_DOC,
                listed("A page of purchase orders.", "PurchaseOrder"),
                parameters=[
                    query("status", "Only orders with this status.", STATUS),
                    query("supplierId", "Only orders from this supplier.", dict(ID)),
                    *CURSOR_PAGING,
                ],
            ),
            "post": op(
                "createPurchaseOrder",
                "Create a purchase order",
                "Makes a `draft`. `number` counts the store's purchase orders from 1 without "
                "gaps. A line without `cost` takes the pet's. Emits `purchase_order.created`.",
                created(
                    "The draft.",
                    "PurchaseOrder",
                    "PurchaseOrderValidationFailed",
                ),
                body=request_body("NewPurchaseOrder", "The supplier and the lines."),
            ),
        },
        "/store/purchase-orders/suggest": {
            "post": op(
                "suggestPurchaseOrder",
                "Order what is low",
                "Makes a draft from the supplier's pets at or below their reorder point, each "
                "ordering its `reorderQuantity`, else `max(1, 2 × reorderPoint − quantity)`, at "
                "its `cost`. Units already on an open purchase order (`draft`, `sent` or "
                "`partial`: ordered less received, from any supplier) count as stock here: a pet "
                "is suggested only while its quantity plus those units is still at or below its "
                "reorder point, and the formula uses that sum as the quantity, so asking twice "
                "does not order twice. Nothing low: 204 and no order. Emits "
                "`purchase_order.created`.",
                responses(
                    {
                        "201": success("The draft.", schema("PurchaseOrder"), CREATED_HEADERS),
                        "204": success("Nothing of this supplier's is low; no order was made."),
                    },
                    *BODY,
                    "ValidationFailed",
                ),
                body=request_body("PurchaseOrderSuggestion", "The supplier."),
            ),
        },
        "/store/purchase-orders/{purchaseOrderId}": {
            "parameters": [PURCHASE_ORDER_ID],
            "get": op(
                "getPurchaseOrder",
                "Get a purchase order",
                "With `Accept: text/csv`, the order comes as CSV to send to the supplier, with "
                f"the columns `{PO_COLUMNS}` (money in minor units; a text cell that a "
                "spreadsheet would run as a formula starts with `'`).",
                responses(
                    {
                        "200": success(
                            "The purchase order (JSON), or its lines (CSV).",
                            headers=RECORD_HEADERS,
                            content={
                                "application/json": {"schema": schema("PurchaseOrder")},
                                "text/csv": {"schema": {"type": "string"}, "example": PO_CSV_EXAMPLE},
                            },
                        ),
                        "404": ref("responses", "NotFound"),
                    },
                    forbidden=False,
                ),
            ),
            "put": op(
                "replacePurchaseOrder",
                "Change a draft",
                "Replaces a draft's supplier, lines and note (same body as creating it). Only a "
                "draft changes (409 `conflict`; a closed order: 409 `purchase_order_closed`). "
                "Honours `If-Match`. Emits `purchase_order.changed`.",
                responses(
                    {"200": one, "404": ref("responses", "NotFound")},
                    "PurchaseOrderConflict",
                    "PreconditionFailed",
                    *BODY,
                    "PurchaseOrderValidationFailed",
                ),
                parameters=IF_MATCH,
                body=request_body("NewPurchaseOrder", "The whole draft."),
            ),
        },
        "/store/purchase-orders/{purchaseOrderId}/send": {
            "parameters": [PURCHASE_ORDER_ID],
            "post": changing(
                "sendPurchaseOrder",
                "Send a purchase order",
                "Marks a draft `sent` (`sentAt`). Emits `purchase_order.changed`.",
            ),
        },
        "/store/purchase-orders/{purchaseOrderId}/receive": {
            "parameters": [PURCHASE_ORDER_ID],
            "post": op(
                "receivePurchaseOrder",
                "Receive units of a purchase order",
                "Adds the units to stock (history source `received`, with `purchaseOrderId`) "
                "and to the lines' `received`, all or nothing; the order becomes `partial`, or "
                "`received` (`closedAt`) once every line is. More than was ordered and not yet "
                "received is 409 `over_receipt`, also when several receipts of one order arrive "
                "at once. Emits `purchase_order.changed`. Honours `Idempotency-Key`.",
                responses(
                    {"200": success("The purchase order (or the replay of the first answer).", schema("PurchaseOrder"), dict(RECORD_HEADERS, **REPLAYED)), "404": ref("responses", "NotFound")},
                    "PurchaseOrderConflict",
                    *BODY,
                    "PurchaseOrderValidationFailed",
                ),
                parameters=[param("IdempotencyKey")],
                body=request_body("Receipt", "The units that arrived."),
            ),
        },
        "/store/purchase-orders/{purchaseOrderId}/cancel": {
            "parameters": [PURCHASE_ORDER_ID],
            "post": changing(
                "cancelPurchaseOrder",
                "Cancel a purchase order",
                "Closes a draft, or a sent order with nothing received (`closedAt`); a partly "
                "received one is 409 `conflict`. Emits `purchase_order.changed`.",
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
    schemas["Pet"]["description"] = replaced(
        schemas["Pet"]["description"],
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
    schemas.update(PURCHASE_ORDER_SCHEMAS)
    ERROR_RESPONSES.update(PURCHASE_ORDER_ERRORS)
    EXAMPLE_MESSAGES["over_receipt"] = "line 0: purchase order 5: 2 of pet 42 may still be received; 3 arrived"
    EXAMPLE_MESSAGES["purchase_order_closed"] = "purchase order 5 is received and can no longer change"
    paths.update(purchase_order_paths())
    change = schemas["StockChange"]["properties"]
    change["source"]["enum"] = change["source"]["enum"] + ["received"]
    change["source"]["description"] += " `received`: units a purchase order brought in."
    change["purchaseOrderId"] = dict(
        ID, description="The purchase order whose units these were (source `received`); absent otherwise."
    )
    events = paths["/events"]["get"]
    events["description"] = replaced(
        events["description"],
        "`inventory.short`)",
        "`inventory.short`, `supplier.created`, `supplier.updated`, `supplier.deleted`, "
        "`purchase_order.created`, `purchase_order.changed` (its lines changed, or it was sent, "
        "received in part or in full, or cancelled))",
    )
