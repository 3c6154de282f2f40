"""Interface 1.2, animals: a pet's `animal` record and `hold`, the rules they bring to orders,
sales and deletion, the care log and what falls due. Adds its fields to the schemas and its
operations to the tables of the other files (generate.py calls extend() after the counter's)."""

from errors import ERROR_RESPONSES, EXAMPLE_MESSAGES
from facts import BOUNDS, hi, lo
from parts import ref

DATE = {"type": "string", "format": "date"}


def text(bound, description, nullable=False):
    out = {"type": "string", "maxLength": BOUNDS[bound]["max"], "description": description}
    if BOUNDS[bound]["min"] > 0:
        out["minLength"] = BOUNDS[bound]["min"]
    if nullable:
        out["nullable"] = True
    return out


ANIMAL = {
    "type": "object",
    "additionalProperties": False,
    "description": (
        "The individual animal this pet is (interface 1.2). A pet with an `animal` is one "
        "individual: its stock is 0 or 1 (422 `validation_failed` past it, on every way stock "
        "changes: setting, adjusting, stocktakes, imports, refunds, cancelled orders). Selling it "
        "needs the buyer (`buyer_required`), and once it has care entries or was sold it cannot "
        "be deleted (409 `conflict`). Dates are `YYYY-MM-DD` in the store's time zone and not "
        "in the future. Fields without a value are omitted."
    ),
    "required": ["sex"],
    "properties": {
        "sex": {"type": "string", "enum": ["male", "female", "unknown"]},
        "bornOn": dict(DATE, description="Date of birth; not in the future."),
        "breed": text("breed", f"Up to {hi('breed')} characters."),
        "colour": text("breed", f"Up to {hi('breed')} characters."),
        "microchip": {
            "type": "string",
            "pattern": "^[0-9]{15}$",
            "description": "The microchip number: 15 digits, on one animal only (409 `duplicate_code`).",
        },
        "source": text("animalSource", f"The breeder or supplier it came from; up to {hi('animalSource')} characters."),
        "arrivedOn": dict(DATE, description="When it arrived at the shop; not in the future, not before `bornOn`."),
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
        "it. A hold whose day has passed holds nothing and is shown until cleared."
    ),
    "required": ["until", "reason"],
    "properties": {
        "until": dict(DATE, description="The last day of the hold, included."),
        "reason": text("holdReason", f"Why: {lo('holdReason')} to {hi('holdReason')} characters (e.g. quarantine, reserved)."),
    },
    "example": {"until": "2026-06-01", "reason": "Quarantine after arrival"},
}


def extend(paths, schemas):
    """Adds interface 1.2's animal fields, rules and operations to the document's tables."""
    schemas["Animal"] = ANIMAL
    schemas["Hold"] = HOLD
    pet = schemas["Pet"]
    pet["properties"]["animal"] = ref("schemas", "Animal")
    pet["properties"]["hold"] = ref("schemas", "Hold")
    pet["description"] = pet["description"].replace(
        "`price` and `taxRate` are omitted", "`price`, `taxRate`, `animal` and `hold` are omitted"
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

    status, codes, doc = ERROR_RESPONSES["OrderConflict"]
    ERROR_RESPONSES["OrderConflict"] = (
        status,
        codes + ["on_hold"],
        doc + " `on_hold`: the pet is on hold until the end of its `hold.until`.",
    )
    status, codes, doc = ERROR_RESPONSES["SaleConflict"]
    ERROR_RESPONSES["SaleConflict"] = (
        status,
        codes + ["on_hold"],
        doc + " `on_hold` (with `line`): the line's pet is on hold (checked after status and "
        "stock); an offline sale is never refused for a hold.",
    )
    status, codes, doc = ERROR_RESPONSES["SaleValidationFailed"]
    ERROR_RESPONSES["SaleValidationFailed"] = (
        status,
        codes + ["buyer_required"],
        doc + " `buyer_required` (with `line`): the line's pet is an individual animal and the "
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
    delete = paths["/pets/{petId}"]["delete"]
    delete["responses"]["409"] = ref("responses", "PetKept")
    delete["description"] = (
        delete.get("description", "") + " A pet with care entries, or an animal that was sold, "
        "is kept (409 `conflict`): mark it `sold` instead."
    ).strip()
