"""Interface 1.2, animals: a pet's `animal` record and `hold`, the rules they bring to orders,
sales and deletion, the care log and what falls due. Adds its fields to the schemas and its
operations to the tables of the other files (generate.py calls extend() after the counter's)."""

from answers import page
from errors import BODY, ERROR_RESPONSES, EXAMPLE_MESSAGES, responses
from facts import BOUNDS, hi, lo, n
from headers import CREATED_HEADERS, DAY_RANGE, PAGING, PAGING_DOC, path_id, query
from parts import DATE, ID, NAME_PATTERN, NO_CONTROL, TEXT_PATTERN, TIMESTAMP, bounded, json_content, op, ref, replaced, request_body, schema, success
from shop import csv_content


def text(bound, description, nullable=False):
    out = {
        "type": "string",
        "maxLength": BOUNDS[bound]["max"],
        "pattern": TEXT_PATTERN,
        "description": f"{description} {NO_CONTROL[0].upper()}{NO_CONTROL[1:]}; stored trimmed.",
    }
    if BOUNDS[bound]["min"] > 0:
        # Trimmed, it must still hold a character: one that is not white space.
        out.update(minLength=BOUNDS[bound]["min"], pattern=NAME_PATTERN)
    if nullable:
        out["nullable"] = True
    return out


ANIMAL = {
    "type": "object",
    "additionalProperties": False,
    "description": (
        "The individual animal this pet is (interface 1.2). A pet with an `animal` is one "
        "individual: its stock is 0 or 1 (422 `validation_failed` past it, on every way stock "
        "changes: setting, adjusting, stocktakes (refused as the count is recorded), imports, "
        "refunds, cancelled orders). Selling it "
        "needs the buyer (`buyer_required`), and once it has care entries or was sold it cannot "
        "be deleted (409 `conflict`). Dates are `YYYY-MM-DD` in the store's time zone and not "
        "in the future. Fields without a value are omitted; in a request, `null` for one of "
        "them is the same as leaving it out."
    ),
    "required": ["sex"],
    "properties": {
        "sex": {"type": "string", "enum": ["male", "female", "unknown"]},
        "bornOn": dict(DATE, nullable=True, description="Date of birth; not in the future."),
        "breed": text("breed", f"Up to {hi('breed')} characters.", nullable=True),
        "colour": text("breed", f"Up to {hi('breed')} characters.", nullable=True),
        "microchip": {
            "type": "string",
            "pattern": "^[0-9]{15}$",
            "nullable": True,
            "description": "The microchip number: 15 digits, on one animal only (409 `duplicate_code`).",
        },
        "source": text("animalSource", f"The breeder or supplier it came from; up to {hi('animalSource')} characters.", nullable=True),
        "arrivedOn": dict(DATE, nullable=True, description="When it arrived at the shop; not in the future, not before `bornOn`."),
    },
    "example": {
        "sex": "female",
        "bornOn": "2026-03-02",
        "breed": "Beagle",
        "colour": "tricolour",
        "microchip": "985112345678901",
        "source": "Hillside Kennels",
        "arrivedOn": "2026-05-04",
    },
}

HOLD = {
    "type": "object",
    "additionalProperties": False,
    "description": (
        "Held back from sale (interface 1.2): until the end of `until` (the store's time zone) "
        "an order or a sale for the pet is 409 `on_hold`; an offline sale is never refused for "
        "it. A hold whose last day has passed holds nothing and is no longer shown: the pet's "
        "answers leave it out (as if cleared), and one sent already ended is not kept."
    ),
    "required": ["until", "reason"],
    "properties": {
        "until": dict(DATE, description="The last day of the hold, included."),
        "reason": text("holdReason", f"Why: {lo('holdReason')} to {hi('holdReason')} characters (e.g. quarantine, reserved)."),
    },
    "example": {"until": "2026-06-01", "reason": "Quarantine after arrival"},
}


KINDS = ["fed", "health_check", "vaccination", "treatment", "weight", "note"]
KIND = {"type": "string", "enum": KINDS}
WEIGHT = bounded("int32", "weightGrams")

CARE_SCHEMAS = {
    "NewCareEntry": {
        "type": "object",
        "additionalProperties": False,
        "required": ["kind"],
        "properties": {
            "kind": dict(KIND, description="What was done."),
            "note": text("careNote", f"Up to {hi('careNote')} characters; `null` is the same as leaving it out.", nullable=True),
            "product": text(
                "careProduct",
                f"The vaccine or medicine; up to {hi('careProduct')} characters; `null` is the same as leaving it out.",
                nullable=True,
            ),
            "weightGrams": dict(
                WEIGHT,
                nullable=True,
                description=f"The weight in grams, {lo('weightGrams')} to {hi('weightGrams')}; `null` is the same as leaving it out.",
            ),
            "dueOn": dict(
                DATE,
                nullable=True,
                description="When this kind of care is next due (a date of the store's time zone); `null` is the same as leaving it out.",
            ),
        },
        "example": {"kind": "vaccination", "product": "Nobivac DHP", "dueOn": "2027-05-04"},
    },
    "CareEntry": {
        "type": "object",
        "description": "One entry of a pet's care log: never changed or deleted. Fields without a value are `null`.",
        "required": ["id", "petId", "kind", "note", "product", "weightGrams", "dueOn", "at", "keyName", "staffId"],
        "properties": {
            "id": ID,
            "petId": ID,
            "kind": KIND,
            "note": {"type": "string", "nullable": True},
            "product": {"type": "string", "nullable": True},
            "weightGrams": dict(WEIGHT, nullable=True),
            "dueOn": dict(DATE, nullable=True),
            "at": dict(TIMESTAMP, description="When the store recorded it."),
            "keyName": {"type": "string", "nullable": True, "description": "The key (or staff member) that recorded it."},
            "staffId": dict(ID, nullable=True, description="The staff member signed in, if any."),
        },
    },
    "CareDue": {
        "type": "object",
        "description": "The latest entry of a kind for a pet, with its `dueOn`.",
        "required": ["petId", "name", "kind", "dueOn", "overdueDays", "lastAt"],
        "properties": {
            "petId": ID,
            "name": {"type": "string", "description": "The pet's name."},
            "kind": KIND,
            "dueOn": DATE,
            "overdueDays": {
                "type": "integer",
                "description": "Today − `dueOn` in days: positive once overdue, 0 on the day, negative while still ahead.",
            },
            "lastAt": dict(TIMESTAMP, description="When that latest entry was recorded."),
        },
    },
    "Buyer": {
        "type": "object",
        "description": "The sale's customer.",
        "required": ["name", "phone", "email"],
        "properties": {
            "name": {"type": "string", "nullable": True},
            "phone": {"type": "string", "nullable": True},
            "email": {"type": "string", "nullable": True},
        },
    },
    "SoldAnimal": {
        "type": "object",
        "description": "An individual animal sold: its record, the sale and the buyer.",
        "required": ["petId", "name", "animal", "soldAt", "saleId", "number", "buyer"],
        "properties": {
            "petId": ID,
            "name": {"type": "string"},
            "animal": ref("schemas", "Animal"),
            "soldAt": TIMESTAMP,
            "saleId": ID,
            "number": {"type": "integer", "format": "int64", "minimum": 1},
            "buyer": ref("schemas", "Buyer"),
        },
    },
}

REPORT_CSV = (
    "soldAt,saleId,number,petId,name,sex,bornOn,breed,colour,microchip,source,arrivedOn,"
    "buyerName,buyerPhone,buyerEmail"
)


def care_paths():
    return {
        "/pets/{petId}/care": {
            "parameters": [path_id("petId", "pet")],
            "get": op(
                "listCare",
                "A pet's care log",
                "The pet's care entries, newest first; `kind` keeps one kind. " + PAGING_DOC,
                responses(
                    {
                        "200": page("A page of care entries.", "CareEntry"),
                        "404": ref("responses", "NotFound"),
                    },
                    forbidden=False,
                ),
                parameters=[query("kind", "Only entries of this kind.", KIND), *PAGING],
            ),
            "post": op(
                "recordCare",
                "Record care",
                "Adds an entry to the pet's care log: fed, a health check, a vaccination, a "
                "treatment, a weighing or a note, with when this kind of care is next due. "
                "Entries are never changed or deleted; a pet with entries is kept on delete. "
                "Emits `care.recorded`.",
                responses(
                    {
                        "201": success("The entry.", schema("CareEntry"), CREATED_HEADERS),
                        "404": ref("responses", "NotFound"),
                    },
                    *BODY,
                    "ValidationFailed",
                ),
                body=request_body("NewCareEntry", "The care given."),
            ),
        },
        "/store/care/due": {
            "get": op(
                "listCareDue",
                "Care due",
                "For each pet not sold and each kind of care, the latest entry of that kind; "
                "listed when it has a `dueOn` on or before today + `within` days (the store's "
                "time zone), earliest `dueOn` first. A later entry of the same kind, with or "
                "without a `dueOn`, replaces the earlier.",
                responses(
                    {"200": success("What is due.", {"type": "array", "items": schema("CareDue")})},
                    forbidden=False,
                ),
                parameters=[
                    query(
                        "within",
                        f"Days ahead, {n(BOUNDS['careWithin']['min'])} to {hi('careWithin')} (400 past them); default {BOUNDS['careWithinDefault']}.",
                        {
                            "type": "integer",
                            "minimum": BOUNDS["careWithin"]["min"],
                            "maximum": BOUNDS["careWithin"]["max"],
                            "default": BOUNDS["careWithinDefault"],
                        },
                    )
                ],
            ),
        },
        "/store/reports/animals": {
            "get": op(
                "animalsReport",
                "The animals report",
                "Each individual animal sold in the period (sales whose `soldAt` falls on a local "
                "day from `from` to `to`), oldest first, with its `animal` record, the sale and the "
                "buyer. `to` defaults to today, `from` to the "
                f"{BOUNDS['reportDaysDefault']} days up to `to`; at most {BOUNDS['reportDays']['max']} "
                "days (400 `bad_request` past it, or when `from` is after `to`). With `Accept: "
                f"text/csv` the same rows come as CSV with the header `{REPORT_CSV}`, text cells "
                "that a spreadsheet would run as a formula starting with `'`.",
                responses(
                    {
                        "200": success(
                            "The report.",
                            content=dict(
                                json_content({"type": "array", "items": schema("SoldAnimal")}),
                                **csv_content(
                                    REPORT_CSV + "\r\n2026-05-04T10:12:00Z,17,17,42,Bella,female,2026-03-02,"
                                    "Beagle,tricolour,985112345678901,Hillside Kennels,2026-04-20,Ann Lee,"
                                    "555 0100,ann@example.com\r\n"
                                ),
                            ),
                        )
                    },
                ),
                parameters=[*DAY_RANGE],
            ),
        },
    }


def add_error_code(response, code, doc):
    """Adds `code` to the codes the error response `response` may carry, and `doc`, the
    sentence on it, to its description."""
    status, codes, description = ERROR_RESPONSES[response]
    ERROR_RESPONSES[response] = (status, codes + [code], description + doc)


def extend(paths, schemas):
    """Adds interface 1.2's animal fields, rules and operations to the document's tables."""
    schemas["Animal"] = ANIMAL
    schemas["Hold"] = HOLD
    pet = schemas["Pet"]
    pet["properties"]["animal"] = ref("schemas", "Animal")
    pet["properties"]["hold"] = ref("schemas", "Hold")
    pet["description"] = replaced(
        pet["description"], " and `reorderQuantity` are omitted", ", `reorderQuantity`, `animal` and `hold` are omitted"
    )
    whole = " PUT and PATCH replace it whole; `null` removes it."
    for name, how in (("NewPet", "Optional."), ("PetPatch", "`null` removes it.")):
        props = schemas[name]["properties"]
        props["animal"] = {
            "allOf": [ref("schemas", "Animal")],
            "nullable": True,
            "description": f"{how} The individual animal this pet is.{whole}",
        }
        props["hold"] = {
            "allOf": [ref("schemas", "Hold")],
            "nullable": True,
            "description": f"{how} Holds the pet back from orders and sales (staff and up).{whole}",
        }

    add_error_code("OrderConflict", "on_hold", " `on_hold`: the pet is on hold until the end of its `hold.until`.")
    add_error_code(
        "SaleConflict",
        "on_hold",
        " `on_hold` (with `line`): the line's pet is on hold (checked after status and "
        "stock); an offline sale is never refused for a hold.",
    )
    add_error_code(
        "SaleValidationFailed",
        "buyer_required",
        " `buyer_required` (with `line`): the line's pet is an individual animal and the "
        "sale's `customer` lacks a `name`, or both `phone` and `email` (not for an offline sale).",
    )
    ERROR_RESPONSES["PetKept"] = (
        "409",
        ["pet_has_open_orders", "conflict"],
        "`pet_has_open_orders`: the pet still has incomplete orders. `conflict`: the pet has care "
        "entries, or is an animal that was sold: its record is kept (mark it `sold` instead).",
    )
    EXAMPLE_MESSAGES["on_hold"] = "pet 42 is on hold until the end of 2026-06-01: Quarantine after arrival"
    EXAMPLE_MESSAGES["buyer_required"] = (
        "line 0: pet 42 is an individual animal: the sale needs the buyer's customer.name and a phone or an email"
    )
    schemas.update(CARE_SCHEMAS)
    paths.update(care_paths())
    events = paths["/events"]["get"]
    # The event joins the list right after `inventory.short`, whatever follows it there.
    events["description"] = replaced(events["description"], "`inventory.short`", "`inventory.short`, `care.recorded`")
    delete = paths["/pets/{petId}"]["delete"]
    delete["responses"]["409"] = ref("responses", "PetKept")
    delete["description"] = (
        delete.get("description", "") + " A pet with care entries, or an animal that was sold, "
        "is kept (409 `conflict`): mark it `sold` instead."
    ).strip()
