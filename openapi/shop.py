"""Interface 1.1, a shop's system: selling codes and prices, the store profile, the daily
report, reorder points, stocktakes, and CSV export and import. Adds its fields to the 1.0
schemas and its operations, schemas, parameters and error responses to the tables of the
other files (generate.py calls extend() before it builds the document)."""

from answers import IF_MATCH, NO_CONTENT, changed, created, page
from errors import BODY, ERROR_RESPONSES, EXAMPLE_MESSAGES, responses
from facts import BOUNDS, hi, kib
from headers import DAY_RANGE, PAGING, PAGING_DOC, PARAMETERS, RECORD_HEADERS, path_id, query
from parts import DATE, ID, NAME, NON_NEGATIVE, REASON, STOCK, TIMESTAMP, bounded, described, json_content, nullable, op, param, ref, replaced, request_body, schema, success

SKU = {
    "type": "string",
    "minLength": BOUNDS["sku"]["min"],
    "maxLength": BOUNDS["sku"]["max"],
    "pattern": "^[A-Za-z0-9._-]+$",
}
BARCODE = {"type": "string", "pattern": "^([0-9]{8}|[0-9]{12,14})$"}
PRICE = bounded("int64", "price")
REORDER_POINT = bounded("int32", "reorderPoint")
CSV_COLUMNS = "id,sku,barcode,name,category,status,price,quantity,reorderPoint,supplier,cost,reorderQuantity,taxRate"
STOCK_CHANGE_COLUMNS = "id,petId,delta,quantityAfter,reason,source,orderId,keyName,at"

def codes_doc(prefix):
    return {
        "sku": described(
            SKU,
            f"{prefix}stock-keeping unit: {BOUNDS['sku']['min']} to {hi('sku')} characters of "
            "`A-Z a-z 0-9 . _ -`, unique case-insensitively (409 `duplicate_code`).",
        ),
        "barcode": described(
            BARCODE,
            f"{prefix}barcode: a GTIN of 8, 12, 13 or 14 digits whose check digit is right "
            "(422 `validation_failed` otherwise), unique (409 `duplicate_code`).",
        ),
        "price": described(
            PRICE,
            f"{prefix}price in the minor unit of the store's currency (cents): 0 to "
            f"{hi('price')}.",
        ),
    }


def nullable_codes(prefix):
    return {name: dict(s, nullable=True) for name, s in codes_doc(prefix).items()}


def csv_content(example):
    return {"text/csv": {"schema": {"type": "string"}, "example": example}}


NEW_SCHEMAS = {
    "StoreProfile": {
        "type": "object",
        "description": "The shop's name, the currency prices are in and the time zone its days are counted in.",
        "required": ["name", "currency", "timezone"],
        "properties": {
            "name": described(NAME, f"The shop's name: 1 to {hi('name')} characters (default `Pet Store`)."),
            "currency": {
                "type": "string",
                "pattern": "^[A-Z]{3}$",
                "description": "An ISO 4217 currency code (default `USD`).",
            },
            "timezone": {
                "type": "string",
                "description": "An IANA time zone name (default: this machine's, else `UTC`).",
            },
        },
        "example": {"name": "Pet Store", "currency": "USD", "timezone": "Europe/London"},
    },
    "StoreProfilePatch": {
        "type": "object",
        "description": "The fields of the profile to change; those left out stay as they are.",
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, f"1 to {hi('name')} characters, one of them not white space."),
            "currency": {"type": "string", "description": "An ISO 4217 currency code, e.g. `EUR`."},
            "timezone": {"type": "string", "description": "An IANA time zone name, e.g. `America/New_York`."},
        },
        "example": {"currency": "EUR", "timezone": "Europe/Berlin"},
    },
    "DailyReportDay": {
        "type": "object",
        "description": (
            "One local day of the store's time zone. An order counts on the day it was placed "
            "(`ordersPlaced`, `unitsSold`, `revenue`), on the day it was completed "
            "(`ordersCompleted`) and on the day it was cancelled (`ordersCancelled`; its units "
            "and revenue then count nowhere)."
        ),
        "required": ["date", "ordersPlaced", "ordersCompleted", "ordersCancelled", "unitsSold", "revenue"],
        "properties": {
            "date": described(DATE, "The local day (YYYY-MM-DD)."),
            "ordersPlaced": NON_NEGATIVE,
            "ordersCompleted": NON_NEGATIVE,
            "ordersCancelled": NON_NEGATIVE,
            "unitsSold": NON_NEGATIVE,
            "revenue": {
                "type": "integer",
                "format": "int64",
                "minimum": 0,
                "description": "Sum of the orders' `total`, in minor units of the currency.",
            },
        },
        "example": {
            "date": "2026-11-22",
            "ordersPlaced": 12,
            "ordersCompleted": 10,
            "ordersCancelled": 1,
            "unitsSold": 15,
            "revenue": 18450,
        },
    },
    "InventoryItemPatch": {
        "type": "object",
        "description": "Changes an inventory item's settings.",
        "additionalProperties": False,
        "properties": {
            "reorderPoint": dict(
                REORDER_POINT,
                nullable=True,
                description=f"At or below this quantity the item is low: 0 to {hi('reorderPoint')}; `null` clears it.",
            ),
        },
        "example": {"reorderPoint": 5},
    },
    "NewStocktake": {
        "type": "object",
        "description": "Opens a stocktake.",
        "additionalProperties": False,
        "properties": {"note": dict(REASON, description="A note, e.g. which shelves; up to 200 characters.")},
        "example": {"note": "Fish room"},
    },
    "StocktakeCount": {
        "type": "object",
        "description": "The count of one pet.",
        "required": ["counted"],
        "additionalProperties": False,
        "properties": {"counted": described(STOCK, f"Units counted: 0 to {hi('stock')}.")},
        "example": {"counted": 11},
    },
    "StocktakeLine": {
        "type": "object",
        "description": "One counted pet.",
        "required": ["petId", "counted", "countedAt", "expected", "variance"],
        "properties": {
            "petId": described(ID, "The pet counted."),
            "counted": described(STOCK, "Units counted."),
            "countedAt": described(TIMESTAMP, "When it was counted (RFC 3339, UTC)."),
            "expected": described(STOCK, "The stock the store had when it was counted."),
            "variance": {"type": "integer", "format": "int64", "description": "`counted - expected`."},
        },
        "example": {"petId": 42, "counted": 11, "countedAt": "2026-11-22T09:30:00Z", "expected": 12, "variance": -1},
    },
    "Stocktake": {
        "type": "object",
        "description": "A count of the shelves, `open` until applied.",
        "required": ["id", "status", "note", "createdAt", "lines"],
        "properties": {
            "id": described(ID, "Unique identifier."),
            "status": {"type": "string", "enum": ["open", "applied"]},
            "note": nullable({"type": "string"}, "The note given, or `null`."),
            "createdAt": described(TIMESTAMP, "When it was opened."),
            "appliedAt": described(TIMESTAMP, "When it was applied; absent while open."),
            "lines": {"type": "array", "items": schema("StocktakeLine"), "description": "The counts, oldest first."},
        },
        "example": {"id": 3, "status": "open", "note": "Fish room", "createdAt": "2026-11-22T09:00:00Z", "lines": []},
    },
    "ImportError": {
        "type": "object",
        "description": "One problem of a CSV import.",
        "required": ["line", "field", "message"],
        "properties": {
            "line": {"type": "integer", "format": "int64", "minimum": 1, "description": "The CSV line (the header is line 1)."},
            "field": {"type": "string", "description": "The column (empty for a whole-row problem)."},
            "message": {"type": "string"},
        },
        "example": {"line": 14, "field": "barcode", "message": "has a wrong check digit"},
    },
    "ImportSummary": {
        "type": "object",
        "description": "What an import did (or, with `dryRun=true`, would do).",
        "required": ["created", "updated", "unchanged", "errors"],
        "properties": {
            "created": NON_NEGATIVE,
            "updated": NON_NEGATIVE,
            "unchanged": NON_NEGATIVE,
            "errors": {"type": "array", "items": schema("ImportError"), "description": "Empty on success."},
        },
        "example": {"created": 120, "updated": 3, "unchanged": 877, "errors": []},
    },
    "ImportFailure": {
        "type": "object",
        "description": "An import refused whole: the Error object with the problems beside it.",
        "required": ["code", "message", "status", "errors"],
        "properties": {
            "code": {"type": "string", "enum": ["validation_failed"]},
            "message": {"type": "string"},
            "status": {"type": "integer", "enum": [422]},
            "errors": {"type": "array", "items": schema("ImportError")},
        },
        "example": {
            "code": "validation_failed",
            "message": "the file has 1 error; nothing was imported",
            "status": 422,
            "errors": [{"line": 14, "field": "barcode", "message": "has a wrong check digit"}],
        },
    },
}

NEW_ERROR_RESPONSES = {
    "DuplicateCode": ("409", ["duplicate_code"], "Another pet already has this `sku` (case-insensitive) or `barcode`."),
    "StocktakeClosed": ("409", ["stocktake_closed"], "The stocktake is already applied: it can no longer change."),
}

NEW_EXAMPLES = {
    "duplicate_code": 'sku "FISH-01" is already used by another pet (pet 12)',
    "stocktake_closed": "stocktake 3 is already applied and can no longer change",
}

STOCKTAKE_ID = path_id("stocktakeId", "stocktake")

# The operations below refer to these by name, so they join the tables on import.
ERROR_RESPONSES.update(NEW_ERROR_RESPONSES)
EXAMPLE_MESSAGES.update(NEW_EXAMPLES)
PARAMETERS["StocktakeId"] = STOCKTAKE_ID

IMPORT_FAILED = {
    "description": (
        "The file has errors: nothing was changed. `errors` lists each by CSV line and field."
    ),
    "content": json_content(schema("ImportFailure")),
}


def pets_csv_example():
    return (
        f"{CSV_COLUMNS}\r\n"
        "42,FISH-01,4006381333931,\"Goldfish, fancy\",Fish,available,450,30,10,Acme Aquatics,120,24,\r\n"
    )


MONEY_PARAM = query(
    "money",
    "How money columns (`price`, `cost`) are written: `minor` (the default, as in 1.1) in the "
    "currency's minor unit (`2700`), or `decimal` in its major unit with the currency's "
    "decimal places (`27.00` in USD, `2700` in JPY). On import, `decimal` reads `27`, `27.5` "
    "and `27.50` alike, and a comma as the decimal separator in a quoted cell (`\"27,50\"`); "
    "more decimals than the currency has is an error of that line.",
    {"type": "string", "enum": ["minor", "decimal"], "default": "minor"},
)
EXPORT_NOTES = (
    " Text cells that a spreadsheet would run as a formula (starting with `=`, `+`, `-`, `@`, "
    "TAB or CR) are written with a `'` before them, which the import takes off again. The "
    "file is sent as it is read, in chunks, up to the last record there was when it began. "
    "One export per key at a time and a few at once per server: another waits up to 5 s "
    "for its place, then is answered 503 `unavailable` with `Retry-After`."
)


NEW_PATHS = {
    "/store/profile": {
        "get": op(
            "getStoreProfile",
            "Get the store profile",
            "The shop's name, currency and time zone.",
            responses({"200": success("The profile.", schema("StoreProfile"), RECORD_HEADERS)}, forbidden=False),
        ),
        "patch": op(
            "updateStoreProfile",
            "Change the store profile",
            "Changes `name`, `currency` (ISO 4217) or `timezone` (IANA). The time zone decides "
            "which local day an order falls on in the daily report.",
            responses(
                {"200": success("The profile as stored.", schema("StoreProfile"), RECORD_HEADERS)},
                *BODY,
                "ValidationFailed",
            ),
            body=request_body("StoreProfilePatch", "The fields to change.", merge_patch=True),
        ),
    },
    "/store/reports/daily": {
        "get": op(
            "getDailyReport",
            "The daily report",
            "One entry per local day of the store's time zone, oldest first, days without "
            f"activity included. `to` defaults to today, `from` to the {BOUNDS['reportDaysDefault']} "
            f"days up to `to`; at most {BOUNDS['reportDays']['max']} days (400 `bad_request` past "
            "it, or when `from` is after `to`). With `Accept: text/csv` the same rows come as "
            "CSV with the header `date,ordersPlaced,ordersCompleted,ordersCancelled,unitsSold,revenue`. ",
            responses(
                {
                    "200": success(
                        "The report.",
                        content=dict(
                            json_content({"type": "array", "items": schema("DailyReportDay")}),
                            **csv_content(
                                "date,ordersPlaced,ordersCompleted,ordersCancelled,unitsSold,revenue\r\n"
                                "2026-11-22,12,10,1,15,18450\r\n"
                            ),
                        ),
                    )
                },
                forbidden=False,
            ),
            parameters=[
                *DAY_RANGE,
                MONEY_PARAM,
            ],
        ),
    },
    "/store/stocktakes": {
        "get": op(
            "listStocktakes",
            "List stocktakes",
            "Stocktakes with their lines, newest first. " + PAGING_DOC + "",
            responses(
                {"200": page("A page of stocktakes.", "Stocktake")}
            ),
            parameters=PAGING,
        ),
        "post": op(
            "createStocktake",
            "Open a stocktake",
            "Opens a stocktake for counting the shelves while the shop keeps selling.",
            created(
                "The new stocktake.",
                "Stocktake",
                "ValidationFailed",
            ),
            body=request_body("NewStocktake", "An optional note."),
        ),
    },
    "/store/stocktakes/{stocktakeId}": {
        "parameters": [param("StocktakeId")],
        "get": op(
            "getStocktake",
            "Get a stocktake",
            "The stocktake with its lines.",
            responses(
                {"200": success("The stocktake.", schema("Stocktake"), RECORD_HEADERS)},
                "NotFound",
            ),
        ),
        "delete": op(
            "deleteStocktake",
            "Discard a stocktake",
            "Discards an open stocktake and its counts; stock is not touched. An applied one is "
            "409 `stocktake_closed`.",
            responses({"204": success(NO_CONTENT)}, "NotFound", "StocktakeClosed"),
        ),
    },
    "/store/stocktakes/{stocktakeId}/lines/{petId}": {
        "parameters": [param("StocktakeId"), param("PetId")],
        "put": op(
            "countStocktakeLine",
            "Count a pet",
            "Records the count of one pet with the stock the store has for it now (`expected`); "
            "counting again replaces it. An unknown stocktake or pet is 404; an applied "
            "stocktake 409 `stocktake_closed`.",
            responses(
                {"200": success("The line.", schema("StocktakeLine"), RECORD_HEADERS)},
                "NotFound",
                "StocktakeClosed",
                *BODY,
                "ValidationFailed",
            ),
            body=request_body("StocktakeCount", "The count."),
        ),
    },
    "/store/stocktakes/{stocktakeId}/apply": {
        "parameters": [param("StocktakeId")],
        "post": op(
            "applyStocktake",
            "Apply a stocktake",
            "In one transaction, sets each counted pet's stock to `counted` plus the net change "
            "of its stock since `countedAt` (sales made while counting are kept), writes a "
            "`count` stock history entry for each line whose stock changes, and closes the "
            "stocktake (`status: applied`, `appliedAt`). Applying again is 409 "
            "`stocktake_closed`.",
            responses(
                {"200": success("The applied stocktake.", schema("Stocktake"), RECORD_HEADERS)},
                "NotFound",
                "StocktakeClosed",
            ),
        ),
    },
    "/store/export/pets.csv": {
        "get": op(
            "exportPets",
            "Export pets as CSV",
            "Every pet as RFC 4180 CSV in UTF-8, by id, with the header row "
            f"`{CSV_COLUMNS}` (`category` and `supplier` by name, empty cells for absent values). "
            "The file can be edited and imported again." + EXPORT_NOTES,
            responses(
                {"200": success("The CSV file.", content=csv_content(pets_csv_example()))},
                forbidden=False,
            ),
            parameters=[MONEY_PARAM],
        ),
    },
    "/store/export/stock-changes.csv": {
        "get": op(
            "exportStockChanges",
            "Export the stock history as CSV",
            "The stock history, oldest first, as RFC 4180 CSV with the header row "
            f"`{STOCK_CHANGE_COLUMNS}`. `from` and `to` are local days of the store's time zone "
            "(both included; either may be left out). It has no money column yet, so `money` "
            "changes nothing in it." + EXPORT_NOTES,
            responses(
                {
                    "200": success(
                        "The CSV file.",
                        content=csv_content(
                            f"{STOCK_CHANGE_COLUMNS}\r\n9,42,-1,29,,order,7,till 1,2026-11-22T09:30:00Z\r\n"
                        ),
                    )
                },
                forbidden=False,
            ),
            parameters=[
                *DAY_RANGE,
                MONEY_PARAM,
            ],
        ),
    },
    "/store/import/pets": {
        "post": op(
            "importPets",
            "Import pets from CSV",
            f"A `text/csv` body of up to {kib(BOUNDS['importBytes']['max'])} with the columns of "
            "the pets export in any order (a header row; only `name` and `category` are "
            "required; files without 1.2's `supplier`, `cost`, `reorderQuantity` and `taxRate` "
            "import as before). Each row is matched to a pet by `id` (which must exist), else `sku`, "
            "else `barcode`; otherwise it makes a new pet. It sets the pet's fields (an empty "
            "cell means none; a column the file does not have leaves that field as it is), its category (by name, created when missing), its supplier (`supplier`, by name, created when missing), its stock "
            "(`quantity`; empty leaves it, an `import` stock history entry records a change) and "
            "its reorder point. All or nothing: with any error nothing changes and the answer "
            "is 422 `validation_failed` with `errors` by line and field (a bad cell is repeated "
            "up to its first 40 characters). `dryRun=true` checks "
            "and counts without changing anything. A text cell an export wrote with a `'` "
            "before a formula character is read without it.",
            dict(
                responses(
                    {"200": success("What was (or would be) done.", schema("ImportSummary"))},
                    *BODY,
                ),
                **{"422": IMPORT_FAILED},
            ),
            parameters=[
                query("dryRun", "Check and count only; change nothing.", {"type": "boolean", "default": False}),
                MONEY_PARAM,
            ],
            body={
                "description": "The CSV file (UTF-8, RFC 4180).",
                "required": True,
                "content": csv_content(pets_csv_example()),
            },
        ),
    },
}


def extend(paths, schemas):
    """Adds interface 1.1's shop operations and fields to the document's tables."""

    for name in ("Pet",):
        schemas[name]["properties"].update(codes_doc("The pet's "))
    schemas["NewPet"]["properties"].update(nullable_codes("Optional "))
    schemas["PetPatch"]["properties"].update(nullable_codes("`null` clears it. The "))
    schemas["Pet"]["description"] += " `sku`, `barcode` and `price` are omitted when the pet has none."

    order = schemas["Order"]["properties"]
    order["placedAt"] = described(TIMESTAMP, "When the order was placed (RFC 3339, UTC). Read-only.")
    order["completedAt"] = described(TIMESTAMP, "When the order was completed (RFC 3339, UTC); absent while open.")
    order["unitPrice"] = described(PRICE, "The pet's price when the order was placed; absent when it had none.")
    order["total"] = {"type": "integer", "format": "int64", "minimum": 0, "description": "`unitPrice × quantity`; absent without a price."}
    if "placedAt" not in schemas["Order"]["required"]:
        schemas["Order"]["required"].append("placedAt")

    schemas["InventoryItem"]["properties"]["reorderPoint"] = described(
        REORDER_POINT, "At or below this quantity the item is low; absent when none is set."
    )
    source = schemas["StockChange"]["properties"]["source"]
    source["enum"] = source["enum"] + ["count", "import"]
    source["description"] += " `count`: a stocktake applied; `import`: a CSV import."
    schemas.update(NEW_SCHEMAS)

    pets_get = paths["/pets"]["get"]
    pets_get["parameters"][-3:-3] = [
        query("sku", "Only the pet with this SKU (exact, compared case-insensitively).", {"type": "string", "maxLength": BOUNDS["sku"]["max"]}),
        query("barcode", "Only the pet with this barcode (exact). A till that scans finds its pet in one call.", {"type": "string", "maxLength": BOUNDS["sku"]["max"]}),
    ]
    for method in ("post",):
        paths["/pets"][method]["responses"].update(
            {"409": ref("responses", "DuplicateCode")}
        )
    for method in ("put", "patch"):
        paths["/pets/{petId}"][method]["responses"]["409"] = ref("responses", "DuplicateCode")

    inv_get = paths["/store/inventory"]["get"]
    inv_get["parameters"][-3:-3] = [
        query("low", "`true`: only items with a reorder point whose quantity is at or below it; `false`: the others.", {"type": "boolean"}),
    ]
    paths["/store/inventory/{petId}"]["patch"] = op(
        "updateInventoryItem",
        "Set a pet's reorder point",
        "Sets `reorderPoint` (`null` clears it). When a change takes an item from above its "
        "reorder point to at or below it (a sale, a count, or a higher reorder point), the "
        "store emits the event `inventory.low` with the item. Honours `If-Match`.",
        changed("The inventory item as stored.", "InventoryItem", "ValidationFailed"),
        parameters=IF_MATCH,
        body=request_body("InventoryItemPatch", "The settings to change.", merge_patch=True),
    )
    events = paths["/events"]["get"]
    events["description"] = replaced(
        events["description"],
        "`inventory.updated`)", "`inventory.updated`, `inventory.low`, `stocktake.created`, "
        "`stocktake.applied`, `stocktake.deleted`, `store.profile.updated`)"
    )
    paths.update(NEW_PATHS)
