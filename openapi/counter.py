"""Interface 1.2, selling at the counter: tax on the store profile and on pets (and, as they
land, sales, refunds and shifts). Adds its fields to the schemas and its operations to the
tables of the other files (generate.py calls extend() after the 1.1 shop's)."""

from facts import BOUNDS, hi, n

TAX_RATE = {
    "type": "integer",
    "format": "int32",
    "minimum": BOUNDS["taxRate"]["min"],
    "maximum": BOUNDS["taxRate"]["max"],
}
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
    schemas["Pet"]["description"] = schemas["Pet"]["description"].replace(
        "`sku`, `barcode` and `price` are omitted", "`sku`, `barcode`, `price` and `taxRate` are omitted"
    )
    schemas["NewPet"]["properties"]["taxRate"] = dict(
        TAX_RATE, nullable=True, description="Optional. " + own
    )
    schemas["PetPatch"]["properties"]["taxRate"] = dict(
        TAX_RATE, nullable=True, description="`null` clears it. " + own
    )
