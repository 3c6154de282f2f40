"""components.schemas: the records, request bodies and the Error object."""

from errors import ERROR_CODES, error_table
from facts import BOUNDS, hi, lo
from parts import (
    ENTERPRISE_ONLY,
    FIXED_PLAN_WITH_LIMITS,
    ID,
    NAME,
    NON_NEGATIVE,
    NO_CONTROL,
    PER_DAY,
    PER_MINUTE,
    PET_STATUS_VALUES,
    PLAN,
    QUANTITY,
    REASON,
    ROLE,
    STOCK,
    TEXT_PATTERN,
    TIMESTAMP,
    described,
    nullable,
    nullable_ref,
    schema,
)

# The fields of every answer about a key: the list's and the one to creating it.
KEY_FIELDS = ["id", "name", "role", "plan", "perMinute", "perDay", "prefix", "createdAt"]


def key_properties(name_description):
    """The schemas of KEY_FIELDS; `name_description` describes the name."""
    return {
        "id": described(ID, "Key id."),
        "name": described(NAME, name_description),
        "role": schema("Role"),
        "plan": schema("Plan"),
        "perMinute": described(PER_MINUTE, "Requests allowed per UTC minute."),
        "perDay": described(PER_DAY, "Requests allowed per UTC day."),
        "prefix": {"type": "string", "description": "The first characters of the secret."},
        "createdAt": TIMESTAMP,
    }


SCHEMAS = {
    "PetStatus": {
        "type": "string",
        "enum": PET_STATUS_VALUES,
        "description": (
            "Status of a pet. A pet may have no status (the field is omitted); the "
            "inventory reports such a pet as `available`."
        ),
    },
    "Role": ROLE,
    "Plan": PLAN,
    "NewPet": {
        "type": "object",
        "description": (
            "The payload for a pet to be created, or to replace a pet (PUT replaces "
            "the whole record: leaving `status` out clears it)."
        ),
        "required": ["name", "categoryId"],
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, f"The animal's name: 1 to {hi('name')} characters, one of them not white space, {NO_CONTROL}."),
            "categoryId": described(ID, "ID of the category the animal belongs to."),
            "status": nullable_ref(
                "PetStatus", "The pet's status; left out or `null`, the pet has no status."
            ),
        },
        "example": {"name": "Rex", "categoryId": 1, "status": "available"},
    },
    "Pet": {
        "type": "object",
        "description": "An animal for sale. `status` is omitted when the pet has none.",
        "required": ["id", "name", "categoryId"],
        "properties": {
            "id": described(ID, "Unique identifier assigned on creation."),
            "name": described(NAME, "The animal's name."),
            "categoryId": described(ID, "ID of the category the animal belongs to."),
            "status": schema("PetStatus"),
        },
        "example": {"id": 42, "name": "Rex", "categoryId": 1, "status": "available"},
    },
    "PetPatch": {
        "type": "object",
        "description": (
            "A merge patch (RFC 7396) of a pet: fields left out stay as they are; "
            '`"status": null` clears the status.'
        ),
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, f"The animal's name: 1 to {hi('name')} characters, one of them not white space, {NO_CONTROL}."),
            "categoryId": described(ID, "ID of the category the animal belongs to."),
            "status": nullable_ref("PetStatus", "The pet's new status, or `null` to clear it."),
        },
        "example": {"status": "sold"},
    },
    "Pets": {
        "type": "array",
        "description": "A page of pets.",
        "items": schema("Pet"),
    },
    "NewCategory": {
        "type": "object",
        "description": (
            "The payload for a category to be created, or to replace one (PUT without "
            "`description` clears it). Names are unique, case-insensitive."
        ),
        "required": ["name"],
        "additionalProperties": False,
        "properties": {
            "name": described(
                NAME,
                "The category name (a kind of animal, e.g. dog, cat, rabbit): "
                f"1 to {hi('name')} characters, one of them not white space, " + NO_CONTROL + ".",
            ),
            "description": {
                "type": "string",
                "maxLength": BOUNDS["description"]["max"],
                "pattern": TEXT_PATTERN,
                "nullable": True,
                "description": (
                    f"A short description: up to {hi('description')} characters, {NO_CONTROL}, stored "
                    "trimmed; an "
                    "empty or `null` one is not stored."
                ),
            },
        },
        "example": {"name": "dog", "description": "Dogs of every size"},
    },
    "Category": {
        "type": "object",
        "description": "A kind of animal. `description` is omitted when empty.",
        "required": ["id", "name"],
        "properties": {
            "id": described(ID, "Unique identifier assigned on creation."),
            "name": described(NAME, "The category name."),
            "description": {
                "type": "string",
                "maxLength": BOUNDS["description"]["max"],
                "pattern": TEXT_PATTERN,
                "description": "A short description of the category.",
            },
        },
        "example": {"id": 1, "name": "dog", "description": "Dogs of every size"},
    },
    "CategoryPatch": {
        "type": "object",
        "description": (
            "A merge patch (RFC 7396) of a category: fields left out stay as they are; "
            '`"description": null` clears the description.'
        ),
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, f"The category name: 1 to {hi('name')} characters, one of them not white space, {NO_CONTROL}."),
            "description": nullable(
                {"type": "string", "maxLength": BOUNDS["description"]["max"], "pattern": TEXT_PATTERN},
                f"Up to {hi('description')} characters, or `null` to clear it.",
            ),
        },
        "example": {"description": "Dogs, puppies included"},
    },
    "Order": {
        "type": "object",
        "description": (
            "An order for units of one pet. The server assigns `id` and `complete` and "
            "always sends `id`, `petId`, `quantity` and `complete`; `shipDate` is "
            "omitted until set. Completing an order sets `shipDate` to the completion "
            "time when it has none."
        ),
        "required": ["id", "petId", "quantity", "complete"],
        "properties": {
            "id": described(ID, "Unique order identifier."),
            "petId": described(ID, "ID of the animal in this order."),
            "quantity": described(QUANTITY, "Number of units ordered."),
            "shipDate": described(TIMESTAMP, "Expected or actual ship date (RFC 3339)."),
            "complete": {"type": "boolean", "description": "Whether the order has been fulfilled."},
        },
        "example": {
            "id": 7,
            "petId": 42,
            "quantity": 1,
            "shipDate": "2026-11-23T10:00:00Z",
            "complete": False,
        },
    },
    "NewOrder": {
        "type": "object",
        "description": "The payload for an order to be placed.",
        "required": ["petId", "quantity"],
        "additionalProperties": False,
        "properties": {
            "petId": described(
                ID, "ID of the animal to order; its status must be `available` or " "unset."
            ),
            "quantity": described(
                QUANTITY, f"Number of units: {lo('quantity')} to {hi('quantity')}, at most the stock."
            ),
            "shipDate": nullable(TIMESTAMP, "Expected ship date (RFC 3339), optional; `null` means none."),
        },
        "example": {"petId": 42, "quantity": 1},
    },
    "OrderPatch": {
        "type": "object",
        "description": (
            'A merge patch of an order. `{"complete": true}` marks it complete '
            "(one-way); `shipDate` sets the ship date."
        ),
        "additionalProperties": False,
        "properties": {
            "complete": {
                "type": "boolean",
                "description": (
                    "`true` completes the order; `false` on a completed order "
                    "is 409 `order_already_complete`."
                ),
            },
            "shipDate": described(TIMESTAMP, "Expected or actual ship date (RFC 3339)."),
        },
        "example": {"complete": True},
    },
    "InventoryItem": {
        "type": "object",
        "description": "The stock count of one pet. A pet without a status shows `available`.",
        "required": ["petId", "quantity", "status"],
        "properties": {
            "petId": described(ID, "ID of the animal this entry tracks."),
            "quantity": described(STOCK, f"Current stock count: 0 to {hi('stock')}."),
            "status": schema("PetStatus"),
        },
        "example": {"petId": 42, "quantity": 3, "status": "available"},
    },
    "InventoryUpdate": {
        "type": "object",
        "description": (
            "Sets the stock count of a pet (a `set` entry in the stock history). "
            "The pet's status does not change."
        ),
        "required": ["quantity"],
        "additionalProperties": False,
        "properties": {
            "quantity": described(STOCK, f"The new stock count: 0 to {hi('stock')}."),
            "reason": REASON,
        },
        "example": {"quantity": 12, "reason": "stock take"},
    },
    "StockAdjustment": {
        "type": "object",
        "description": (
            "Changes the stock count by `delta` atomically (an `adjustment` entry in "
            "the stock history). A result below 0 is 409 `insufficient_stock`; above "
            f"{hi('stock')} is 422 `validation_failed`."
        ),
        "required": ["delta"],
        "additionalProperties": False,
        "properties": {
            "delta": {
                "type": "integer",
                "format": "int32",
                "minimum": BOUNDS["delta"]["min"],
                "maximum": BOUNDS["delta"]["max"],
                "not": {"enum": [0]},
                "description": f"A non-zero change: {lo('delta')} to {hi('delta')}.",
            },
            "reason": REASON,
        },
        "example": {"delta": -1, "reason": "damaged"},
    },
    "StockChange": {
        "type": "object",
        "description": "One entry of a pet's stock history.",
        "required": [
            "id",
            "petId",
            "delta",
            "quantityAfter",
            "reason",
            "source",
            "orderId",
            "keyName",
            "at",
        ],
        "properties": {
            "id": described(ID, "Entry id, increasing."),
            "petId": described(ID, "The pet whose stock changed."),
            "delta": {"type": "integer", "format": "int32", "description": "The change in units."},
            "quantityAfter": described(STOCK, "The stock count after the change."),
            "reason": nullable(
                {"type": "string", "maxLength": BOUNDS["reason"]["max"]}, "The reason given, or `null`."
            ),
            "source": {
                "type": "string",
                "enum": ["order", "cancel", "set", "adjustment"],
                "description": (
                    "`order`: an order took units; `cancel`: a cancelled order returned "
                    "them; `set`: PUT /store/inventory/{petId}; `adjustment`: POST "
                    "/store/inventory/{petId}/adjustments."
                ),
            },
            "orderId": nullable(ID, "The order for `order` and `cancel` entries, else `null`."),
            "keyName": nullable(
                {"type": "string"},
                "Name of the API key that made the change (the staff member's name when a "
                "member's session made it), or `null`.",
            ),
            "at": described(TIMESTAMP, "When the change was committed (RFC 3339, UTC)."),
            "staffId": described(
                ID,
                "Since 1.1: the staff member whose session made the change; present only then.",
            ),
        },
        "example": {
            "id": 9,
            "petId": 42,
            "delta": -1,
            "quantityAfter": 2,
            "reason": None,
            "source": "order",
            "orderId": 7,
            "keyName": "till 1",
            "at": "2026-11-22T09:30:00Z",
        },
    },
    "UsageWindow": {
        "type": "object",
        "description": "Use of one rate-limit window.",
        "required": ["used", "limit", "remaining", "reset"],
        "properties": {
            "used": NON_NEGATIVE,
            "limit": NON_NEGATIVE,
            "remaining": NON_NEGATIVE,
            "reset": {
                "type": "integer",
                "format": "int64",
                "description": "When the window resets, in Unix seconds.",
            },
        },
    },
    "Usage": {
        "type": "object",
        "description": (
            "A key's current use of its fixed windows: the current UTC minute and the "
            "current UTC day."
        ),
        "required": ["minute", "day"],
        "properties": {"minute": schema("UsageWindow"), "day": schema("UsageWindow")},
    },
    "ApiKey": {
        "type": "object",
        "description": (
            "An API key as admins see it. The secret is never shown again after "
            "creation; `prefix` identifies it."
        ),
        "required": KEY_FIELDS + ["lastUsedAt", "revokedAt", "bannedUntil", "usage"],
        "properties": {
            **key_properties("A name for people, e.g. `till 1`."),
            "lastUsedAt": nullable(TIMESTAMP, "Last authenticated request, or `null`."),
            "revokedAt": nullable(TIMESTAMP, "When the key was revoked, or `null`."),
            "bannedUntil": nullable(TIMESTAMP, "End of a temporary ban, or `null`."),
            "usage": schema("Usage"),
        },
    },
    "NewApiKey": {
        "type": "object",
        "description": (
            "The payload for a key to be created. `perMinute` and `perDay` are required "
            "with the `enterprise` plan and refused (422) with any other."
        ),
        "required": ["name", "role", "plan"],
        "additionalProperties": False,
        "properties": {
            "name": described(NAME, f"1 to {hi('name')} characters, one of them not white space, {NO_CONTROL}."),
            "role": schema("Role"),
            "plan": schema("Plan"),
            "perMinute": nullable(
                PER_MINUTE,
                f"Enterprise only: requests per minute, 1 to {hi('perMinute')}; `null` means "
                "not given.",
            ),
            "perDay": nullable(
                PER_DAY,
                f"Enterprise only: requests per day, 1 to {hi('perDay')}; `null` means not given.",
            ),
        },
        "not": ENTERPRISE_ONLY,
        "example": {"name": "till 1", "role": "pos", "plan": "pro"},
    },
    "ApiKeyPatch": {
        "type": "object",
        "description": (
            "Changes a key: any of the fields. `perMinute` and `perDay` are required "
            "when the key ends up on `enterprise` and refused (422) otherwise."
        ),
        "additionalProperties": False,
        "properties": {
            "name": nullable(
                NAME,
                f"1 to {hi('name')} characters, one of them not white space, {NO_CONTROL}; `null` changes "
                "nothing.",
            ),
            "role": nullable_ref("Role", "The new role; `null` changes nothing."),
            "plan": nullable_ref("Plan", "The new plan; `null` changes nothing."),
            "perMinute": nullable(
                PER_MINUTE, f"Enterprise only: 1 to {hi('perMinute')}; `null` changes nothing."
            ),
            "perDay": nullable(
                PER_DAY, f"Enterprise only: 1 to {hi('perDay')}; `null` changes nothing."
            ),
        },
        "not": FIXED_PLAN_WITH_LIMITS,
        "example": {"role": "staff"},
    },
    "CreatedApiKey": {
        "type": "object",
        "description": (
            "The answer to creating a key. `secret` is shown here and never again: " "store it now."
        ),
        "required": KEY_FIELDS + ["secret"],
        "properties": {
            **key_properties("A name for people."),
            "secret": {
                "type": "string",
                "minLength": 1,
                "description": "The key itself: send it as `X-API-Key`.",
            },
        },
    },
    "Backup": {
        "type": "object",
        "description": (
            "A backup of the store in its backup folder: a complete SQLite file, checked with "
            "`PRAGMA integrity_check` before it got its name, readable by the owner only."
        ),
        "required": ["name", "size", "createdAt"],
        "properties": {
            "name": {
                "type": "string",
                "pattern": "^[A-Za-z0-9_-][A-Za-z0-9._-]*\\.sqlite$",
                "maxLength": 128,
                "description": "The file's name, e.g. `petstore-2026-11-22-173500.sqlite` (UTC).",
            },
            "size": {"type": "integer", "format": "int64", "minimum": 0, "description": "Bytes."},
            "createdAt": TIMESTAMP,
        },
        "example": {
            "name": "petstore-2026-11-22-173500.sqlite",
            "size": 1052672,
            "createdAt": "2026-11-22T17:35:00Z",
        },
    },
    "Health": {
        "type": "object",
        "description": "The server is up.",
        "required": ["status"],
        "properties": {"status": {"type": "string", "enum": ["ok"]}},
    },
    "Error": {
        "type": "object",
        "description": (
            "Every error answer. `status` equals the HTTP status; `code` is stable "
            "and meant for programs, `message` for people.\n\n" + error_table()
        ),
        "required": ["code", "message", "status"],
        "properties": {
            "code": {
                "type": "string",
                "enum": [code for code, _, _ in ERROR_CODES],
                "description": "A machine-readable error code.",
            },
            "message": {"type": "string", "description": "A human-readable description."},
            "status": {
                "type": "integer",
                "minimum": 400,
                "maximum": 599,
                "description": "The HTTP status code.",
            },
        },
        "example": {"code": "not_found", "message": "no pet with id 42", "status": 404},
    },
}
