"""What the store keeps of an order: `GET /store/cancelled-orders` (beta) lists the orders
cancelled, so a clerk can tell an order that was cancelled from one that never went through;
an order (open, completed or cancelled) keeps its pet's name as placed (`petName`), so it
still says what was sold after the pet is deleted. Adds its schema, field and operation to
the tables of the other files (generate.py calls extend())."""

from answers import page
from errors import responses
from headers import PAGING, PAGING_DOC
from parts import ID, QUANTITY, TIMESTAMP, described, op
from shop import PRICE

PET_NAME = {
    "type": "string",
    "description": (
        "The pet's name when the order was placed (beta): it stays after the pet is renamed or "
        "deleted. Absent on orders placed before the store kept it."
    ),
}

CANCELLED_ORDER = {
    "type": "object",
    "description": (
        "An order that was cancelled. Cancelling deletes the order (`GET /store/orders/{orderId}` "
        "answers 404 and `GET /store/orders` no longer lists it); the store keeps this record of "
        "it. `unitPrice` and `total` are omitted when the pet had no price."
    ),
    "required": ["id", "petId", "quantity", "placedAt", "cancelledAt"],
    "properties": {
        "id": described(ID, "The order's id (never given to another order)."),
        "petId": described(ID, "ID of the animal the order was for."),
        "petName": PET_NAME,
        "quantity": described(QUANTITY, "Units the order was for; they went back into stock."),
        "unitPrice": described(PRICE, "The pet's price when the order was placed."),
        "total": {"type": "integer", "format": "int64", "minimum": 0, "description": "`unitPrice × quantity`."},
        "placedAt": described(TIMESTAMP, "When the order was placed (RFC 3339, UTC)."),
        "cancelledAt": described(TIMESTAMP, "When it was cancelled (RFC 3339, UTC)."),
    },
    "example": {
        "id": 65,
        "petId": 42,
        "petName": "Beagle puppy",
        "quantity": 1,
        "unitPrice": 2500,
        "total": 2500,
        "placedAt": "2026-11-23T10:00:00Z",
        "cancelledAt": "2026-11-23T10:04:00Z",
    },
}


def extend(paths, schemas):
    """Adds the cancelled orders' schema and list."""
    schemas["CancelledOrder"] = CANCELLED_ORDER
    schemas["Order"]["properties"]["petName"] = PET_NAME
    paths["/store/cancelled-orders"] = {
        "get": op(
            "listCancelledOrders",
            "List cancelled orders",
            "Orders that were cancelled, newest first (id descending, as `GET /store/orders`). "
            + PAGING_DOC,
            responses(
                {
                    "200": page("A page of cancelled orders.", "CancelledOrder")
                },
                forbidden=False,
            ),
            parameters=PAGING,
        ),
    }
