"""Shelf labels (interface 1.2, beta): one SVG sheet of A4 pages for the listed pets.
generate.py calls extend() to add the operation and its 422 answer."""

from errors import ERROR_RESPONSES, EXAMPLE_MESSAGES, responses
from facts import BOUNDS, hi, lo
from parts import op, success


def bound(name):
    return {"minimum": BOUNDS[name]["min"], "maximum": BOUNDS[name]["max"]}


SVG_EXAMPLE = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<svg xmlns="http://www.w3.org/2000/svg" width="210mm" height="297mm" '
    'viewBox="0 0 210 297">…</svg>\n'
)

def _operation():
    return op(
        "printLabels",
        "Print shelf labels",
        "Shelf labels for the listed pets as one SVG (`image/svg+xml`) of A4 pages "
        "(210 × 297 mm) stacked top to bottom, ready for the browser's print dialog. Each "
        "page holds three columns of eight 70 × 37 mm labels (the common 24-up label sheet). "
        "A label shows the pet's name (cut to 30 characters), its price in the store's "
        "currency (`27.50 EUR`; left out when the pet has none) and its barcode with the code "
        "under it: the pet's `barcode` as EAN-8, UPC-A, EAN-13 or ITF-14 by its length, else "
        "Code 128 of its `sku`. Bars are never drawn narrower than 0.17 mm a module (two "
        "dots at 300 dpi): a Code 128 too long for one label at that width (a sku over 29 "
        "characters) takes two labels side by side, never split over two rows (a place "
        "left at a row's end stays empty). The copies of one pet follow each other, in the "
        f"order of `ids`. At most {hi('labels')} labels (`ids` × `copies`) in one request. An id that "
        "names no pet is 422 `unknown_pet`; a pet with neither a barcode nor a sku is 422 "
        "`validation_failed` naming it; a malformed or out-of-bounds `ids` or `copies` is "
        "400.",
        responses(
            {
                "200": success(
                    "The label sheet.",
                    content={
                        "image/svg+xml": {
                            "schema": {"type": "string"},
                            "example": SVG_EXAMPLE,
                        }
                    },
                ),
                "422": {"$ref": "#/components/responses/LabelsUnprintable"},
            },
            forbidden=False,
        ),
        parameters=[
            {
                "name": "ids",
                "in": "query",
                "required": True,
                "description": (
                    f"The pets, by id, comma-separated: {lo('labelPets')} to "
                    f"{hi('labelPets')}. An id listed twice prints twice."
                ),
                "style": "form",
                "explode": False,
                "schema": {
                    "type": "array",
                    "minItems": BOUNDS["labelPets"]["min"],
                    "maxItems": BOUNDS["labelPets"]["max"],
                    "items": {"type": "integer", "format": "int64", "minimum": 1},
                },
            },
            {
                "name": "copies",
                "in": "query",
                "description": (
                    f"Labels of each pet: {lo('labelCopies')} to {hi('labelCopies')} "
                    f"(default 1), and at most {hi('labels')} labels in all."
                ),
                "schema": dict({"type": "integer", "default": 1}, **bound("labelCopies")),
            },
        ],
    )


def extend(paths):
    """Adds the operation to `paths` and its 422 answer to the error tables."""
    ERROR_RESPONSES["LabelsUnprintable"] = (
        "422",
        ["unknown_pet", "validation_failed"],
        "`unknown_pet`: an id in `ids` names no pet (the message names it). "
        "`validation_failed`: a listed pet has neither a `barcode` nor a `sku`, so its label "
        "would have no code to scan (the message names the pet).",
    )
    EXAMPLE_MESSAGES.setdefault("unknown_pet", "petId 99999 does not name a pet")
    paths["/store/labels.svg"] = {"get": _operation()}
