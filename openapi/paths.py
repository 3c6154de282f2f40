"""paths: every operation, with its parameters, body and responses."""

from answers import IF_MATCH, NO_CONTENT, changed, created, deleted, listed, page, read_one
from errors import BODY, responses
from headers import (
    BETA,
    CREATED_HEADERS,
    DEPRECATION_HEADERS,
    LIST_HEADERS,
    LOCATION_HEADERS,
    PAGING_DOC,
    RECORD_HEADERS,
    CURSOR_PAGING,
    PAGING,
    REPLAYED,
    query,
)
from facts import BOUNDS, hi
from parts import ID, NON_NEGATIVE, header, json_content, op, param, ref, request_body, schema, success


def comma_list(name, description, items, **bounds):
    s = {"type": "array", "items": items, "minItems": 1}
    s.update(bounds)
    return query(name, description, s, style="form", explode=False)



EVENT_EXAMPLE = (
    "id: 12\nevent: pet.updated\n"
    'data: {"type":"pet.updated","at":"2026-11-22T09:30:00Z",'
    '"data":{"id":42,"name":"Rex","categoryId":1,"status":"pending"}}\n\n'
)

PATHS = {
    "/pets": {
        "get": op(
            "listPets",
            "List pets",
            "Pets sorted by `sort` (default `id`). " + PAGING_DOC + " Filters combine with AND; "
            "a pet with no status matches no `status` filter.",
            responses(
                {"200": success("A page of pets.", schema("Pets"), LIST_HEADERS)},
                # Only the `after` cursor in a name order, naming a pet that no longer exists.
                "NotFound",
                forbidden=False,
            ),
            parameters=[
                comma_list(
                    "status",
                    "Only pets with one of these statuses (comma-separated).",
                    schema("PetStatus"),
                ),
                query("categoryId", "Only pets of this category.", dict(ID)),
                query(
                    "q",
                    "Only pets matching every word of this text, in any order "
                    "(case-insensitive): each word is found anywhere in the pet's name, "
                    "sku or barcode, or at the start of a word of its category's name. Longer "
                    f"than {BOUNDS['search']['max']} characters is 400.",
                    {"type": "string", "maxLength": BOUNDS["search"]["max"]},
                ),
                comma_list(
                    "ids",
                    f"Only these pets (comma-separated, 1 to {hi('ids')} ids). The successor "
                    "of GET /pets/{petId}.",
                    dict(ID),
                    maxItems=BOUNDS["ids"]["max"],
                ),
                query(
                    "sort",
                    "Sort order; `-` for descending.",
                    {"type": "string", "enum": ["id", "name", "-id", "-name"], "default": "id"},
                ),
            ]
            + CURSOR_PAGING,
        ),
        "post": op(
            "createPet",
            "Create a pet",
            "Creates a pet and its inventory item at quantity 0 (no stock history entry). ",
            created("The created pet.", "Pet", "PetValidationFailed"),
            body=request_body("NewPet", "The new pet."),
        ),
    },
    "/pets/{petId}": {
        "parameters": [param("PetId")],
        "get": op(
            "getPetById",
            "Get a pet",
            "**Deprecated**: use `GET /pets?ids={petId}`. Answers with `Deprecation`, `Sunset` and "
            "a `Link` to the successor; after the sunset date it answers 410 `gone` with the same "
            "headers.",
            responses(
                {
                    "200": success(
                        "The pet.", schema("Pet"), dict(RECORD_HEADERS, **DEPRECATION_HEADERS)
                    ),
                    "404": ref("responses", "NotFound"),
                    "410": ref("responses", "Gone"),
                },
                forbidden=False,
            ),
        ),
        "put": op(
            "replacePet",
            "Replace a pet",
            "Replaces the whole pet: a body without `status` clears it. Honours `If-Match`. ",
            changed("The pet as stored.", "Pet", "PetValidationFailed"),
            parameters=IF_MATCH,
            body=request_body("NewPet", "The whole pet."),
        ),
        "patch": op(
            "updatePet",
            "Update a pet",
            'Merge patch (RFC 7396) of `name`, `categoryId`, `status`; `"status": null` clears '
            "the status. Staff may set any status; it does not change the stock. Honours "
            "`If-Match`.",
            changed("The pet as stored.", "Pet", "PetValidationFailed"),
            parameters=IF_MATCH,
            body=request_body("PetPatch", "The fields to change.", merge_patch=True),
        ),
        "delete": op(
            "deletePet",
            "Delete a pet",
            "Deletes the pet and its inventory item. Refused with 409 `pet_has_open_orders` while "
            "it has incomplete orders. Honours `If-Match`.",
            deleted("PetHasOpenOrders"),
            parameters=IF_MATCH,
        ),
    },
    "/categories": {
        "get": op(
            "listCategories",
            "List categories",
            "Categories sorted by id. " + PAGING_DOC + "",
            listed("A page of categories.", "Category"),
            parameters=[
                query(
                    "q",
                    "Only categories whose name contains this text (case-insensitive). "
                    f"Longer than {BOUNDS['search']['max']} characters is 400.",
                    {"type": "string", "maxLength": BOUNDS["search"]["max"]},
                )
            ]
            + CURSOR_PAGING,
        ),
        "post": op(
            "createCategory",
            "Create a category",
            "Names are unique, case-insensitive: a taken name is 409 `duplicate_name`. ",
            created("The created category.", "Category", "DuplicateName", "ValidationFailed"),
            body=request_body("NewCategory", "The new category."),
        ),
    },
    "/categories/{categoryId}": {
        "parameters": [param("CategoryId")],
        "get": op(
            "getCategory",
            "Get a category",
            "",
            read_one("The category.", "Category"),
        ),
        "put": op(
            "replaceCategory",
            "Replace a category",
            "Replaces the whole category: a body without `description` clears it. Honours "
            "`If-Match`.",
            changed("The category as stored.", "Category", "DuplicateName", "ValidationFailed"),
            parameters=IF_MATCH,
            body=request_body("NewCategory", "The whole category."),
        ),
        "patch": op(
            "updateCategory",
            "Update a category",
            'Merge patch (RFC 7396) of `name` and `description`; `"description": null` clears '
            "it. Honours `If-Match`.",
            changed("The category as stored.", "Category", "DuplicateName", "ValidationFailed"),
            parameters=IF_MATCH,
            body=request_body("CategoryPatch", "The fields to change.", merge_patch=True),
        ),
        "delete": op(
            "deleteCategory",
            "Delete a category",
            "Refused with 409 `category_in_use` while pets belong to it. Honours `If-Match`. ",
            deleted("CategoryInUse"),
            parameters=IF_MATCH,
        ),
    },
    "/store/orders": {
        "get": op(
            "listOrders",
            "List orders",
            "Orders, newest first (id descending). " + PAGING_DOC + " Cancelled orders are gone "
            "and not listed. The test panel of this operation is disabled in this reference. ",
            listed("A page of orders.", "Order"),
            parameters=[
                query(
                    "complete",
                    "Only complete (`true`) or open (`false`) orders.",
                    {"type": "boolean"},
                ),
                query("petId", "Only orders for this pet.", dict(ID)),
            ]
            + CURSOR_PAGING,
            **{"x-try-it": False},
        ),
        "post": op(
            "placeOrder",
            "Place an order",
            "Places an order with `complete: false` and takes its units out of stock in the same "
            "transaction.\n\n"
            "- The pet must exist (else 422 `unknown_pet`) and its status must be `available` or "
            "unset (else 409 `pet_not_available`); then the stock must cover `quantity` (else 409 "
            "`insufficient_stock`).\n"
            "- When the order takes the last unit, the pet becomes `pending`.\n"
            "- N parallel orders against stock S succeed exactly min(N, S) times.\n\n"
            "Send an `Idempotency-Key` so that a retry after a lost answer cannot order twice. ",
            responses(
                {
                    "201": success(
                        "The placed order (or the replay of the first answer).",
                        schema("Order"),
                        dict(CREATED_HEADERS, **REPLAYED),
                    )
                },
                "OrderConflict",
                *BODY,
                "OrderValidationFailed",
            ),
            parameters=[param("IdempotencyKey")],
            body=request_body("NewOrder", "The order."),
        ),
    },
    "/store/orders/{orderId}": {
        "parameters": [param("OrderId")],
        "get": op(
            "getOrder",
            "Get an order",
            "A cancelled order is gone: 404.",
            read_one("The order.", "Order"),
        ),
        "patch": op(
            "updateOrder",
            "Complete an order or set its ship date",
            '`{"complete": true}` marks the order complete; completion is one-way: '
            '`{"complete": false}` on a completed order is 409 `order_already_complete`, '
            '`{"complete": true}` on it is a 200 that changes nothing. Completing sets `shipDate` '
            "to now when it has none. When the last open order of a pet with no stock left is "
            "completed, the pet becomes `sold`. Honours `If-Match`.",
            changed("The order as stored.", "Order", "OrderAlreadyComplete", "ValidationFailed"),
            parameters=IF_MATCH,
            body=request_body("OrderPatch", "The change.", merge_patch=True),
        ),
        "delete": op(
            "cancelOrder",
            "Cancel an order",
            "Cancels an incomplete order: its units return to stock (a `cancel` entry in the stock "
            "history) and a `pending` pet becomes `available` again. The order is gone afterwards "
            "(GET answers 404). A completed order is 409 `order_already_complete`. Honours "
            "`If-Match`.",
            deleted("OrderAlreadyComplete"),
            parameters=IF_MATCH,
        ),
    },
    "/store/inventory": {
        "get": op(
            "listInventory",
            "List stock counts",
            "Stock per pet, sorted by `petId`. A pet without a status shows and matches "
            "`available`. " + PAGING_DOC + "",
            listed("A page of inventory items.", "InventoryItem"),
            parameters=[
                comma_list(
                    "status",
                    "Only pets with one of these statuses (comma-separated).",
                    schema("PetStatus"),
                ),
                query(
                    "below",
                    "Only items whose quantity is less than this.",
                    NON_NEGATIVE,
                ),
            ]
            + CURSOR_PAGING,
        ),
    },
    "/store/inventory/{petId}": {
        "parameters": [param("PetId")],
        "get": op(
            "getInventoryItem",
            "Get a pet's stock count",
            "",
            read_one("The inventory item.", "InventoryItem"),
        ),
        "put": op(
            "setInventory",
            "Set a pet's stock count",
            "Sets the count (a `set` entry in the stock history, with the optional `reason`). "
            "The pet's status does not change. Honours `If-Match` (the inventory item's `ETag`). ",
            changed("The inventory item as stored.", "InventoryItem", "ValidationFailed"),
            parameters=IF_MATCH,
            body=request_body("InventoryUpdate", "The new count."),
        ),
    },
    "/store/inventory/{petId}/adjustments": {
        "parameters": [param("PetId")],
        "get": op(
            "listStockChanges",
            "List a pet's stock history",
            "Every change of the pet's stock, newest first: orders, cancellations, counts set and "
            "adjustments, with the quantity after each. " + PAGING_DOC + "",
            responses(
                {
                    "200": page(
                        "A page of stock history entries.", "StockChange"
                    ),
                    "404": ref("responses", "NotFound"),
                },
                forbidden=False,
            ),
            parameters=PAGING,
        ),
        "post": op(
            "adjustInventory",
            "Adjust a pet's stock count",
            "Adds `delta` (negative to remove) atomically: an `adjustment` entry in the stock "
            f"history. A result below 0 is 409 `insufficient_stock`, above {hi('stock')} is 422. "
            "The pet's status does not change. Honours `Idempotency-Key` like POST /store/orders. ",
            responses(
                {
                    "200": success(
                        "The inventory item after the change.",
                        schema("InventoryItem"),
                        dict(RECORD_HEADERS, **BETA, **REPLAYED),
                    )
                },
                "NotFound",
                "AdjustmentConflict",
                *BODY,
                "AdjustmentValidationFailed",
            ),
            parameters=[param("IdempotencyKey")],
            body=request_body("StockAdjustment", "The change."),
        ),
    },
    "/admin/keys": {
        "get": op(
            "listKeys",
            "List API keys",
            "All keys, revoked ones included (with `revokedAt`), with their current usage. "
            "Secrets are never listed. " + PAGING_DOC + "",
            responses({"200": page("A page of keys.", "ApiKey")}),
            parameters=PAGING,
        ),
        "post": op(
            "createKey",
            "Create an API key",
            "Creates a key and answers its secret, once: it is stored only as a hash. ",
            created("The created key, with its secret.", "CreatedApiKey", "ValidationFailed", headers=LOCATION_HEADERS),
            body=request_body("NewApiKey", "The new key."),
        ),
    },
    "/admin/keys/{keyId}": {
        "parameters": [param("KeyId")],
        "patch": op(
            "updateKey",
            "Change an API key",
            "Changes name, role, plan or custom limits. Takes effect on the key's next request. ",
            responses(
                {"200": success("The key as stored.", schema("ApiKey"))},
                "LastAdminKey",
                "NotFound",
                *BODY,
                "ValidationFailed",
            ),
            body=request_body("ApiKeyPatch", "The fields to change.", merge_patch=True),
        ),
        "delete": op(
            "revokeKey",
            "Revoke an API key",
            "Revokes the key: its requests get 401 from now on. It stays listed with `revokedAt`. ",
            responses({"204": success(NO_CONTENT)}, "LastAdminKey", "NotFound"),
        ),
    },
    "/admin/keys/{keyId}/ban": {
        "parameters": [param("KeyId")],
        "delete": op(
            "liftBan",
            "Lift a temporary ban",
            "Lifts the key's temporary ban and clears its count of rejections.",
            responses({"204": success(NO_CONTENT)}, "NotFound"),
        ),
    },
    "/admin/backups": {
        "get": op(
            "listBackups",
            "List backups",
            "The backups in the store's backup folder, newest first. The server takes one by "
            "itself every 24 hours by default (`--backup-every HOURS`, `0` off) and keeps the "
            "newest 14 (`--backup-keep`). " + PAGING_DOC + "",
            responses({"200": page("A page of backups.", "Backup")}),
            parameters=PAGING,
        ),
        "post": op(
            "takeBackup",
            "Take a backup now",
            "Copies the live store into the backup folder while it keeps serving: written "
            "under a temporary name, checked with `PRAGMA integrity_check`, synced, then "
            "renamed, as `petstore-manual-YYYY-MM-DD-HHMMSS.sqlite`. Backups taken this way are "
            "kept apart from the scheduled ones (`petstore-YYYY-MM-DD-HHMMSS.sqlite`): the "
            "newest `--backup-keep` of each, so taking many never removes the scheduled "
            "history. No body is needed. "
            "503 `unavailable` when it cannot be written (e.g. the disk is full).",
            responses(
                {
                    "201": success(
                        "The backup taken.",
                        schema("Backup"),
                        LOCATION_HEADERS,
                    )
                }
            ),
        ),
    },
    "/admin/backups/{name}": {
        "parameters": [
            {
                "name": "name",
                "in": "path",
                "required": True,
                "description": "A backup's `name` as listed. Any other name is 404.",
                "schema": {"type": "string", "maxLength": 128},
            }
        ],
        "get": op(
            "downloadBackup",
            "Download a backup",
            "The backup file itself (an SQLite database), as an attachment. Keep it off this PC "
            "(a USB stick, another computer); `petstore restore FILE` puts it back.",
            responses(
                {
                    "200": success(
                        "The backup's bytes.",
                        headers=dict(
                            BETA,
                            **{
                                "Content-Disposition": {
                                    "description": 'attachment; filename="<name>"',
                                    "schema": {"type": "string"},
                                }
                            },
                        ),
                        content={
                            "application/vnd.sqlite3": {
                                "schema": {"type": "string", "format": "binary"}
                            }
                        },
                    ),
                    "404": ref("responses", "NotFound"),
                }
            ),
        ),
    },
    "/events": {
        "get": op(
            "streamEvents",
            "Stream changes as Server-Sent Events",
            "Every change as it commits, as Server-Sent Events. Each message has an increasing "
            "`id:`, an `event:` (`pet.created`, `pet.updated`, `pet.deleted`, `category.created`, "
            "`category.updated`, `category.deleted`, `order.created`, `order.completed`, "
            "`order.updated` (its ship date changed), `order.cancelled`, `inventory.updated`) "
            'and `data:` holding `{"type", "at", "data"}` with the record as it now is (since '
            "1.1, a change made with a staff member's session also carries `keyName` and "
            "`staffId` naming the member). After a dropped "
            "connection, reconnect with `Last-Event-ID` to get what was missed. A "
            "`Last-Event-ID` beyond the newest event, or older than the history kept, is "
            'answered with one `event: reset` (`data: {"type": "reset", "lastEventId": N}`): '
            "refetch what you show, then carry on from it. The stream has no request timeout; "
            "it ends when the key is revoked or its role changes. Places are shared: one key "
            "holds at most 16 streams and one address 32; with no place left the answer is 503 "
            "with `Retry-After`.",
            responses(
                {
                    "200": success(
                        "An endless event stream.",
                        content={
                            "text/event-stream": {
                                "schema": {"type": "string"},
                                "example": EVENT_EXAMPLE,
                            }
                        },
                    )
                },
                forbidden=False,
                timeout=False,
            ),
            parameters=[param("LastEventId")],
        ),
    },
    "/health": {
        "get": op(
            "health",
            "Health check",
            "Answers 200 while the server runs. Needs no key and is not rate limited by "
            "plan; like the docs and the UI files it has a generous per-address limit (429 "
            "with `Retry-After` past it) that this machine is exempt from.",
            {
                "200": {
                    "description": "The server is up and its store answers.",
                    "content": json_content(schema("Health")),
                },
                "503": {
                    "description": (
                        "The store cannot serve now (`unavailable`; the message says why, as "
                        "in the `Unavailable` response)."
                    ),
                    "headers": {"Retry-After": header("Retry-After-Unavailable")},
                    "content": json_content(schema("Error")),
                },
            },
        ),
    },
}
