"""Interface 1.2, selling at the counter: tax on the store profile and on pets, sales, refunds
and shifts. Adds its fields to the schemas and its operations to the
tables of the other files (generate.py calls extend() after the 1.1 shop's)."""

from answers import created, listed, read_one
from errors import BODY, ERROR_RESPONSES, EXAMPLE_MESSAGES, responses
from facts import BOUNDS, hi, lo, n
from headers import BETA, CREATED_HEADERS, CURSOR_PAGING, PAGING_DOC, RECORD_HEADERS, REPLAYED, path_id, query
from parts import DATE, ID, NAME_PATTERN, NON_NEGATIVE, QUANTITY, TEXT_PATTERN, TIMESTAMP, bounded, items, op, param, pet_lines, ref, replaced, request_body, schema, success

TAX_RATE = bounded("int32", "taxRate")
RATE_DOC = (
    f"basis points, {n(BOUNDS['taxRate']['min'])} to {hi('taxRate')} (2,000 is 20 %, "
    f"{hi('taxRate')} is 100 %)"
)
TAX_INCLUDED_DOC = (
    "Whether prices include tax (default `true`). A sale's line has `amount = unitPrice × "
    "quantity − discount`; its `tax` is `amount × rate / (10,000 + rate)` when prices include "
    "tax and `amount × rate / 10,000` otherwise, rounded half away from zero, per line; its "
    "`total` is `amount` when tax is included and `amount + tax` otherwise."
)


MONEY = {"type": "integer", "format": "int64", "description": "Money in the minor unit of the store's currency."}
PAYMENT_AMOUNT = bounded("int64", "paymentAmount")
METHOD = {"type": "string", "enum": ["cash", "card", "other"]}
TILL_LENGTH = {"minLength": BOUNDS["till"]["min"], "maxLength": BOUNDS["till"]["max"]}


def money(description, **extra):
    return dict(MONEY, description=description, **extra)


SALE_SCHEMAS = {
    "NewSaleLine": {
        "type": "object",
        "additionalProperties": False,
        "required": ["petId", "quantity"],
        "properties": {
            "petId": dict(ID, description="The pet sold; each pet at most once in a sale."),
            "quantity": dict(QUANTITY, description=f"Units: {lo('quantity')} to {hi('quantity')}."),
            "discount": money(
                "Taken off the line before tax: 0 (the default) to the line's `unitPrice × quantity` "
                "(422 `validation_failed` naming the line past it); `null` is the same as leaving it "
                "out.",
                minimum=0,
                nullable=True,
            ),
        },
    },
    "Payment": {
        "type": "object",
        "additionalProperties": False,
        "required": ["method", "amount"],
        "properties": {
            "method": dict(METHOD, description="How the customer paid."),
            "amount": dict(PAYMENT_AMOUNT, description="Paid this way, in minor units."),
        },
    },
    "Customer": {
        "type": "object",
        "additionalProperties": False,
        "description": (
            "The customer, as far as the till knows them; every field optional, stored trimmed "
            "(empty means none). Readonly and pos keys see it without `phone` and `email`."
        ),
        "properties": {
            "name": {"type": "string", "maxLength": BOUNDS["name"]["max"], "pattern": TEXT_PATTERN, "nullable": True},
            "phone": {
                "type": "string",
                "maxLength": BOUNDS["phone"]["max"],
                "pattern": TEXT_PATTERN,
                "nullable": True,
                "description": "Digits, spaces and `+ - ( ) .`, at least 3 digits.",
            },
            "email": {"type": "string", "maxLength": BOUNDS["email"]["max"], "pattern": TEXT_PATTERN, "nullable": True},
        },
    },
    "NewSale": {
        "type": "object",
        "additionalProperties": False,
        "description": "One customer's basket, paid at once.",
        "required": ["lines", "payments"],
        "properties": {
            "lines": {"type": "array", **items("saleLines"), "items": schema("NewSaleLine")},
            "payments": {
                "type": "array",
                **items("payments"),
                "items": schema("Payment"),
                "description": (
                    "Their sum must be at least the sale's total, and only cash may exceed it "
                    "(the excess is `change`, given back in cash); else 422 `payment_mismatch`."
                ),
            },
            "customer": schema("Customer"),
            "note": {"type": "string", "maxLength": BOUNDS["saleNote"]["max"], "pattern": TEXT_PATTERN, "nullable": True},
            "till": {
                "type": "string",
                **TILL_LENGTH,
                "pattern": NAME_PATTERN,
                "nullable": True,
                "description": f"The till's name ({lo('till')} to {hi('till')} characters).",
            },
            "soldAt": dict(
                TIMESTAMP,
                nullable=True,
                description=(
                    "When the sale was made, by the till's clock: at most 5 minutes ahead of the "
                    "store's and 7 days behind it. Default: when the store receives it. A sale "
                    "whose `soldAt` is more than 60 seconds old was made while the till was "
                    "offline: it is never refused for stock or status."
                ),
            ),
        },
        "example": {
            "lines": [{"petId": 42, "quantity": 1}, {"petId": 7, "quantity": 2, "discount": 100}],
            "payments": [{"method": "cash", "amount": 5000}],
            "till": "Front",
        },
    },
    "SaleLine": {
        "type": "object",
        "required": ["petId", "name", "sku", "barcode", "quantity", "unitPrice", "discount", "taxRate", "tax", "total", "orderId"],
        "properties": {
            "petId": ID,
            "name": {"type": "string", "description": "The pet's name when it was sold."},
            "sku": {"type": "string", "nullable": True},
            "barcode": {"type": "string", "nullable": True},
            "quantity": QUANTITY,
            "unitPrice": money("The pet's price when it was sold."),
            "discount": money("Taken off before tax."),
            "taxRate": dict(TAX_RATE, description="The rate that applied, in basis points."),
            "tax": money("The line's tax, rounded half away from zero."),
            "total": money("What the customer pays for the line: `amount`, plus `tax` when prices exclude it."),
            "orderId": dict(ID, description="The completed order this line also is (`saleId` names the sale)."),
            "shortBy": {
                "type": "integer",
                "format": "int32",
                "minimum": 1,
                "description": "An offline sale's line that found too little stock: the units it could not take (stock went to 0). Absent otherwise.",
            },
        },
    },
    "Sale": {
        "type": "object",
        "description": (
            "A recorded sale. `subtotal` is the sum of `unitPrice × quantity`, `discount` the "
            "sum of the lines' discounts, `tax` and `total` the sums of the lines'. `customer` "
            "is absent when the till named none."
        ),
        "required": [
            "id", "number", "placedAt", "soldAt", "keyName", "staffId", "till", "lines",
            "subtotal", "discount", "tax", "total", "payments", "change", "note", "refunded",
        ],
        "properties": {
            "id": ID,
            "number": {
                "type": "integer",
                "format": "int64",
                "minimum": 1,
                "description": "The store's sales counted from 1 without gaps (a refused sale takes no number).",
            },
            "placedAt": dict(TIMESTAMP, description="When the store received the sale."),
            "soldAt": dict(TIMESTAMP, description="When it was made; reports count it on this day."),
            "keyName": {"type": "string", "nullable": True, "description": "The key or staff member that rang it up."},
            "staffId": dict(ID, nullable=True, description="The staff member, when a member's session rang it up."),
            "till": {"type": "string", "nullable": True},
            "lines": {"type": "array", "items": schema("SaleLine")},
            "subtotal": money("The sum of `unitPrice × quantity`."),
            "discount": money("The sum of the lines' discounts."),
            "tax": money("The sum of the lines' tax."),
            "total": money("The sum of the lines' totals: what the customer owes."),
            "payments": {"type": "array", "items": schema("Payment")},
            "change": money("Cash given back: the payments' excess over the total."),
            "customer": schema("Customer"),
            "note": {"type": "string", "nullable": True},
            "refunded": money("The sum of the sale's refunds."),
        },
    },
}

SALE_ERRORS = {
    "SaleConflict": (
        "409",
        ["pet_not_available", "insufficient_stock", "conflict"],
        "The first line that cannot be sold decides the answer, which names it with `line` "
        "(counting from 0): `pet_not_available` (the pet's status is `pending` or `sold`, "
        "checked before stock) or `insufficient_stock`. Nothing changes. `conflict`: a request "
        "with the same `Idempotency-Key` is still being processed. An offline sale is never "
        "refused for stock or status.",
    ),
    "SaleValidationFailed": (
        "422",
        ["validation_failed", "unknown_pet", "payment_mismatch", "idempotency_key_reused"],
        "`validation_failed`: a field is missing or out of bounds (the message names it, e.g. "
        "`lines[1].quantity`), or a line's pet has no price or its discount passes the line "
        "(then `line` names the line). `unknown_pet`: a line's `petId` names no pet (with "
        "`line`). `payment_mismatch`: the payments do not cover the total, or a card or other "
        "payment exceeds it. `idempotency_key_reused`: this `Idempotency-Key` was already used "
        "with another body.",
    ),
}

RECEIPT_WIDTH = 42

SALE_LINE_ERROR = {
    "type": "integer",
    "minimum": 0,
    "description": "The line of the request refused (a sale's), counting from 0; only then.",
}


def sale_paths():
    return {
        "/store/sales": {
            "get": op(
                "listSales",
                "List sales",
                "Sales, newest first (id descending). " + PAGING_DOC + " Readonly and pos keys "
                "see each customer without `phone` and `email`.",
                listed("A page of sales.", "Sale"),
                parameters=[
                    query("from", "First local day (YYYY-MM-DD) of `soldAt`, included; empty means no bound.", DATE, allowEmptyValue=True),
                    query("to", "Last local day (YYYY-MM-DD) of `soldAt`, included; not before `from`; empty means no bound.", DATE, allowEmptyValue=True),
                    query("till", "Only this till's sales.", {"type": "string", **TILL_LENGTH}),
                    query("staffId", "Only sales rung up by this staff member.", dict(ID)),
                    query("method", "Only sales with a payment of this method.", METHOD),
                    *CURSOR_PAGING,
                ],
            ),
            "post": op(
                "placeSale",
                "Sell a basket",
                "Records one customer's basket, paid at once, in one transaction: every line's "
                "stock move, each line also a completed order (`saleId`, placed at `soldAt`), "
                "the sale and its payments; all of it or nothing.\n\n"
                "- Each line's pet must exist, have a price, be `available` or without status, "
                "and have the stock; else nothing changes and the answer is the first failing "
                "line's error with `line`.\n"
                "- Tax per line from the store profile (`taxIncluded`, `defaultTaxRate`) and the "
                "pet's `taxRate`, rounded half away from zero.\n"
                "- The payments must cover the total; only cash may exceed it (`change`).\n"
                "- `number` counts the store's sales from 1 without gaps.\n"
                "- Offline sales (`soldAt` over 60 s old) are never refused for stock or status: "
                "stock goes down as far as 0, a line that found too little carries `shortBy`, "
                "and the store emits `inventory.short`.\n\n"
                "Emits `sale.created` (and each line's `order.created`). Send an "
                "`Idempotency-Key` so that a retry after a lost answer cannot sell twice.",
                created(
                    "The sale (or the replay of the first answer).",
                    "Sale",
                    "SaleConflict",
                    "SaleValidationFailed",
                    headers=dict(CREATED_HEADERS, **REPLAYED),
                ),
                parameters=[param("IdempotencyKey")],
                body=request_body("NewSale", "The basket and its payments."),
            ),
        },
        "/store/sales/{saleId}": {
            "parameters": [path_id("saleId", "sale")],
            "get": op(
                "getSale",
                "Get a sale",
                "Readonly and pos keys see the customer without `phone` and `email`.",
                read_one("The sale.", "Sale"),
            ),
        },
        "/store/sales/{saleId}/receipt": {
            "parameters": [path_id("saleId", "sale")],
            "get": op(
                "getSaleReceipt",
                "Print a sale's receipt",
                "The sale's printable receipt: the store's name, the sale's `number`, its local "
                "date and time (the store profile's `timezone`), the till, each line (quantity × "
                "unit price, discount), subtotal, discount, tax, total, payments, change and "
                "each refund. Money is written in the store's `currency` with its decimal "
                "places. `text/html` (the default) is one page for 80 mm paper: its print style "
                "sheet sets the page 80 mm wide, so a browser's print dialog gives one narrow "
                "receipt, and every stored text is escaped. With `Accept: text/plain` (named "
                "before `text/html`, or without it) the same receipt comes as plain UTF-8 text "
                f"for an ESC/POS printer: at most {RECEIPT_WIDTH} characters a line, each ended "
                "by `\\n`, long names wrapped (a word longer than a line is cut). The customer "
                "is not printed.",
                responses(
                    {
                        "200": success(
                            "The receipt.",
                            headers=dict(BETA, Vary={"description": "`Accept`: the receipt's form depends on it.", "schema": {"type": "string"}}),
                            content={
                                "text/html": {"schema": {"type": "string"}},
                                "text/plain": {"schema": {"type": "string"}},
                            },
                        ),
                        "404": ref("responses", "NotFound"),
                    },
                    forbidden=False,
                ),
            ),
        },
    }


REFUND_SCHEMAS = {
    "NewRefund": {
        "type": "object",
        "additionalProperties": False,
        "description": "What a sale gives back.",
        "required": ["lines", "method", "reason"],
        "properties": {
            "lines": pet_lines(
                "refundLines",
                dict(ID, description="The pet of the sale's line; each pet at most once."),
                dict(QUANTITY, description="Units to refund: at most what was sold and not yet refunded."),
            ),
            "method": dict(METHOD, description="How the money is paid back."),
            "reason": {
                "type": "string",
                "minLength": BOUNDS["refundReason"]["min"],
                "maxLength": BOUNDS["refundReason"]["max"],
                "pattern": NAME_PATTERN,
                "description": f"Why: {lo('refundReason')} to {hi('refundReason')} characters, one of them not white space; stored trimmed.",
            },
            "restock": {"type": "boolean", "default": True, "description": "Put the units back in stock (history source `refund`); leave it out for `true`, `null` is 422 `validation_failed`."},
            "till": {"type": "string", **TILL_LENGTH, "pattern": NAME_PATTERN, "nullable": True, "description": "The till paying out; default the sale's."},
        },
        "example": {"lines": [{"petId": 42, "quantity": 1}], "method": "cash", "reason": "Wrong size"},
    },
    "Refund": {
        "type": "object",
        "required": ["id", "saleId", "createdAt", "lines", "amount", "method", "reason", "restock", "till", "keyName", "staffId"],
        "properties": {
            "id": ID,
            "saleId": ID,
            "createdAt": TIMESTAMP,
            "lines": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["petId", "quantity", "amount", "tax"],
                    "properties": {
                        "petId": ID,
                        "quantity": QUANTITY,
                        "amount": money("`total × quantity / sold quantity`, rounded half away from zero; the refund that empties the line gives exactly what is left."),
                        "tax": money("The line's tax, shared the same way."),
                    },
                },
            },
            "amount": money("The sum of the lines' amounts."),
            "method": METHOD,
            "reason": {"type": "string"},
            "restock": {"type": "boolean"},
            "till": {"type": "string", "nullable": True},
            "keyName": {"type": "string", "nullable": True},
            "staffId": dict(ID, nullable=True),
        },
    },
}

REFUND_ERRORS = {
    "RefundConflict": (
        "409",
        ["refund_exceeds_sale", "conflict"],
        "`refund_exceeds_sale`: a line asks back more than was sold and not yet refunded (or "
        "names a pet the sale does not have); `line` names it. `conflict`: restocking would "
        "take the pet past the most a shop can hold (refund without restock), or a request "
        "with the same `Idempotency-Key` is still being processed. Nothing changes.",
    ),
    "RefundValidationFailed": (
        "422",
        ["validation_failed", "idempotency_key_reused"],
        "`validation_failed`: a field is missing or out of bounds (the message names it). "
        "`idempotency_key_reused`: this `Idempotency-Key` was already used with another body.",
    ),
}


def refund_paths():
    return {
        "/store/sales/{saleId}/refunds": {
            "parameters": [path_id("saleId", "sale")],
            "get": op(
                "listSaleRefunds",
                "List a sale's refunds",
                "Every refund of the sale, oldest first (not paged: a sale has few), each with "
                "its lines. With the sale's lines this says how many units of each line may "
                "still be refunded (sold less refunded) and what is left of its total and tax.",
                responses(
                    {
                        "200": success("The sale's refunds, oldest first; empty when none.", {"type": "array", "items": schema("Refund")}),
                        "404": ref("responses", "NotFound"),
                    },
                    forbidden=False,
                ),
            ),
            "post": op(
                "refundSale",
                "Refund part of a sale",
                "Gives back money for units of the sale's lines, and (`restock`, default true) "
                "puts them back in stock with the history source `refund`, naming the line's "
                "order; a pet the sale left `pending` or `sold` is `available` again. Each "
                "refunded line gives back `total × quantity / sold quantity`, rounded half away "
                "from zero, except that the refund that brings a line to fully refunded gives "
                "exactly what is left, so a line's refunds add up to its total (its `tax` is "
                "shared the same way). The sale's `refunded` is the sum of its refunds. Emits "
                "`sale.refunded`. Honours `Idempotency-Key`.",
                responses(
                    {
                        "201": success("The refund (or the replay of the first answer).", schema("Refund"), dict(CREATED_HEADERS, **REPLAYED)),
                        "404": ref("responses", "NotFound"),
                    },
                    "RefundConflict",
                    *BODY,
                    "RefundValidationFailed",
                ),
                parameters=[param("IdempotencyKey")],
                body=request_body("NewRefund", "The lines and how the money goes back."),
            ),
        },
    }


CASH = bounded("int64", "cash")
CASH_DOC = f"in minor units, {lo('cash')} to {hi('cash')}"
SHIFT_STATUS = {"type": "string", "enum": ["open", "closed"]}
ATTACHED_DOC = (
    "A sale (and a refund) with a `till` counts toward the shift open for that till at the "
    "moment the store records it. So a sale a till made offline and sends later counts toward "
    "the shift open when it arrives (not the one open at its `soldAt`), and a sale or refund "
    "without a `till`, or for a till with no open shift, counts toward none. A refund's till "
    "is the one it names, else the sale's. Once a shift is closed nothing more counts toward "
    "it, so its figures never change."
)

SHIFT_SCHEMAS = {
    "NewShift": {
        "type": "object",
        "additionalProperties": False,
        "description": "Opens a till's cash drawer.",
        "required": ["till", "openingCash"],
        "properties": {
            "till": {
                "type": "string",
                **TILL_LENGTH,
                "pattern": NAME_PATTERN,
                "description": f"The till's name ({lo('till')} to {hi('till')} characters), as its sales send it; stored trimmed.",
            },
            "openingCash": dict(CASH, description=f"The cash counted into the drawer, {CASH_DOC}."),
        },
        "example": {"till": "Front", "openingCash": 10000},
    },
    "ShiftClose": {
        "type": "object",
        "additionalProperties": False,
        "description": "Closes a shift with the cash counted out of the drawer.",
        "required": ["countedCash"],
        "properties": {
            "countedCash": dict(CASH, description=f"The cash counted in the drawer at the close, {CASH_DOC}."),
        },
        "example": {"countedCash": 13000},
    },
    "Shift": {
        "type": "object",
        "description": (
            "A till's shift; once closed, its Z report. `sales.byMethod` sums the shift's "
            "payments less change (so cash is net of change); `expectedCash = openingCash + "
            "cash taken − change − cash refunded`; `difference = countedCash − expectedCash` "
            "(negative when the drawer is short). An open shift shows its running figures "
            "(`expectedCash` so far) with `closedAt`, `closedBy`, `countedCash` and "
            "`difference` null. " + ATTACHED_DOC
        ),
        "required": [
            "id", "till", "status", "openedAt", "openedBy", "openingCash", "closedAt", "closedBy",
            "expectedCash", "countedCash", "difference", "sales", "refunds",
        ],
        "properties": {
            "id": ID,
            "till": {"type": "string"},
            "status": SHIFT_STATUS,
            "openedAt": TIMESTAMP,
            "openedBy": {"type": "string", "nullable": True, "description": "The key or staff member that opened it."},
            "openingCash": dict(CASH, description="The cash counted into the drawer."),
            "closedAt": dict(TIMESTAMP, nullable=True),
            "closedBy": {"type": "string", "nullable": True, "description": "The key or staff member that closed it."},
            "expectedCash": money("`openingCash` + cash taken − change − cash refunded."),
            "countedCash": dict(CASH, nullable=True, description="The cash counted at the close; null while open."),
            "difference": money("`countedCash − expectedCash`, negative when the drawer is short; null while open.", nullable=True),
            "sales": {
                "type": "object",
                "required": ["count", "total", "tax", "byMethod"],
                "properties": {
                    "count": {"type": "integer", "format": "int64", "minimum": 0, "description": "The shift's sales, of every method."},
                    "total": money("The sum of their totals."),
                    "tax": money("The sum of their tax."),
                    "byMethod": {
                        "type": "object",
                        "required": ["cash", "card", "other"],
                        "description": "Payments taken less change, by method.",
                        "properties": {"cash": MONEY, "card": MONEY, "other": MONEY},
                    },
                },
            },
            "refunds": {
                "type": "object",
                "required": ["count", "amount"],
                "properties": {
                    "count": NON_NEGATIVE,
                    "amount": money("The sum of the shift's refunds, of every method."),
                },
            },
        },
    },
}

SHIFT_ERRORS = {
    "ShiftOpen": ("409", ["shift_open"], "The till already has an open shift; close it first."),
    "ShiftClosed": ("409", ["shift_closed"], "The shift is already closed."),
}


def shift_paths():
    shift_id = path_id("shiftId", "shift")
    return {
        "/store/shifts": {
            "get": op(
                "listShifts",
                "List shifts",
                "Shifts with their figures, newest first (id descending). " + PAGING_DOC,
                listed("A page of shifts.", "Shift"),
                parameters=[
                    query("till", "Only this till's shifts.", {"type": "string", **TILL_LENGTH}),
                    query("status", "Only open or only closed shifts.", SHIFT_STATUS),
                    *CURSOR_PAGING,
                ],
            ),
            "post": op(
                "openShift",
                "Open a shift",
                "Opens a shift for a till with the cash counted into its drawer. A till has at "
                "most one open shift (409 `shift_open`), also with several processes on "
                "PostgreSQL. " + ATTACHED_DOC + " Emits `shift.opened`.",
                created(
                    "The open shift.",
                    "Shift",
                    "ShiftOpen",
                    "ValidationFailed",
                ),
                body=request_body("NewShift", "The till and its opening cash."),
            ),
        },
        "/store/shifts/{shiftId}": {
            "parameters": [shift_id],
            "get": op(
                "getShift",
                "Get a shift",
                "The shift with its figures: running while it is open, its Z report once closed.",
                read_one("The shift.", "Shift"),
            ),
        },
        "/store/shifts/{shiftId}/close": {
            "parameters": [shift_id],
            "post": op(
                "closeShift",
                "Close a shift",
                "Closes the shift with the cash counted in the drawer and answers its Z report: "
                "`expectedCash`, `countedCash`, `difference` and the totals by method. Closing "
                "a closed shift is 409 `shift_closed`. Emits `shift.closed`.",
                responses(
                    {
                        "200": success("The closed shift (its Z report).", schema("Shift"), RECORD_HEADERS),
                        "404": ref("responses", "NotFound"),
                    },
                    "ShiftClosed",
                    *BODY,
                    "ValidationFailed",
                ),
                body=request_body("ShiftClose", "The counted cash."),
            ),
        },
    }


REPORT_FIELDS = ["sales", "tax", "refunds", "cash", "card", "other"]
OLD_CSV_HEADER = "date,ordersPlaced,ordersCompleted,ordersCancelled,unitsSold,revenue"
NEW_CSV_HEADER = OLD_CSV_HEADER + "," + ",".join(REPORT_FIELDS)


def extend_report(paths, schemas):
    """The daily report's counter fields: sales by the day of `soldAt`, refunds by theirs."""
    day = schemas["DailyReportDay"]
    day["description"] += (
        " A sale counts on the day of its `soldAt` (an offline sale sent later on the day it "
        "was made): `sales`, its `tax`, and its payments less change by method. A refund counts "
        "on the day it was made (`createdAt`): `refunds`, less its tax from `tax` and less its "
        "amount from the method it was paid back by, so `tax`, `cash`, `card` and `other` can "
        "be negative on a day with more refunded than sold."
    )
    day["required"] = day["required"] + REPORT_FIELDS
    count = NON_NEGATIVE
    day["properties"].update(
        {
            "sales": dict(count, description="Sales made that day (by `soldAt`)."),
            "tax": money("Their tax, less the tax refunded that day."),
            "refunds": dict(count, description="The amount refunded that day, in minor units."),
            "cash": money("Cash taken that day less change, less refunds paid back in cash."),
            "card": money("Card payments taken that day, less refunds paid back by card."),
            "other": money("Other payments taken that day, less refunds paid back so."),
        }
    )
    day["example"] = dict(day["example"], sales=9, tax=2950, refunds=1200, cash=6000, card=9800, other=1450)
    report = paths["/store/reports/daily"]["get"]
    report["description"] = replaced(report["description"], OLD_CSV_HEADER, NEW_CSV_HEADER)
    csv = report["responses"]["200"]["content"]["text/csv"]
    csv["example"] = f"{NEW_CSV_HEADER}\r\n2026-11-22,12,10,1,15,18450,9,2950,1200,6000,9800,1450\r\n"


def extend(paths, schemas):
    """Adds interface 1.2's counter fields and operations to the document's tables."""

    profile = schemas["StoreProfile"]
    profile["description"] = profile["description"].rstrip(".") + ", and how prices carry tax."
    profile["properties"]["taxIncluded"] = {"type": "boolean", "description": TAX_INCLUDED_DOC}
    profile["properties"]["defaultTaxRate"] = dict(
        TAX_RATE, description=f"The tax rate of a pet without its own, in {RATE_DOC}; default 0."
    )
    profile["required"] = profile["required"] + ["taxIncluded", "defaultTaxRate"]
    profile["example"] = dict(profile["example"], taxIncluded=True, defaultTaxRate=2000)
    patch = schemas["StoreProfilePatch"]["properties"]
    patch["taxIncluded"] = {"type": "boolean", "description": "Whether prices include tax."}
    patch["defaultTaxRate"] = dict(TAX_RATE, description=f"The default tax rate, in {RATE_DOC}.")

    own = f"The pet's own tax rate, in {RATE_DOC}; it overrides the store's `defaultTaxRate`."
    schemas["Pet"]["properties"]["taxRate"] = dict(TAX_RATE, description=own + " Absent: none.")
    schemas["Pet"]["description"] = replaced(
        schemas["Pet"]["description"],
        "`sku`, `barcode` and `price` are omitted", "`sku`, `barcode`, `price` and `taxRate` are omitted"
    )
    schemas["NewPet"]["properties"]["taxRate"] = dict(
        TAX_RATE, nullable=True, description="Optional. " + own
    )
    schemas["PetPatch"]["properties"]["taxRate"] = dict(
        TAX_RATE, nullable=True, description="`null` clears it. " + own
    )

    schemas.update(SALE_SCHEMAS)
    schemas["Order"]["properties"]["saleId"] = dict(
        ID, description="The sale this order is a line of (interface 1.2); absent for an order on its own."
    )
    schemas["Error"]["properties"]["line"] = SALE_LINE_ERROR
    ERROR_RESPONSES.update(SALE_ERRORS)
    EXAMPLE_MESSAGES["payment_mismatch"] = "the payments (1000) do not cover the total (1200)"
    paths.update(sale_paths())
    schemas.update(REFUND_SCHEMAS)
    ERROR_RESPONSES.update(REFUND_ERRORS)
    EXAMPLE_MESSAGES["refund_exceeds_sale"] = "line 0: pet 42: 1 of the sale's units may still be refunded; 2 asked"
    paths.update(refund_paths())
    schemas.update(SHIFT_SCHEMAS)
    ERROR_RESPONSES.update(SHIFT_ERRORS)
    EXAMPLE_MESSAGES["shift_open"] = 'till "Front" already has an open shift; close it first'
    EXAMPLE_MESSAGES["shift_closed"] = "shift 3 is already closed"
    paths.update(shift_paths())
    extend_report(paths, schemas)
    source = schemas["StockChange"]["properties"]["source"]
    source["enum"] = source["enum"] + ["refund"]
    source["description"] += " `refund`: units a sale's refund put back."
    events = paths["/events"]["get"]
    events["description"] = replaced(
        events["description"],
        "`store.profile.updated`)",
        "`store.profile.updated`, `sale.created`, `sale.refunded`, `shift.opened`, `shift.closed`, "
        "`inventory.short`)",
    )
