"""A small till for the Pet Store API, on a client generated from the store's own document
(openapi-python-client).

It signs in with a pos key from the environment, finds an item, sells it with an
Idempotency-Key (retrying with the same key after a network error, a 503 or a 429, waiting
Retry-After), hands it over, and follows /events to keep its view of the stock fresh.
`basket` rings up several items as one sale paid in cash (with change), prints the receipt's
text for a 42-column printer, and refunds the first line's unit with a staff key
(`PETSTORE_STAFF_KEY`: a refund is a staff member's decision, not the till's). Errors are shown
by their `code`.

    PETSTORE_URL=http://127.0.0.1:8080 PETSTORE_KEY=psk_... python till.py sell "Rex" [quantity]
    PETSTORE_URL=... PETSTORE_KEY=... python till.py basket "Guppy" "Neon tetra" "Snail"
"""

from __future__ import annotations

import json
import os
import re
import sys
import threading
import time
import uuid
from collections.abc import Callable, Mapping
from typing import TypeVar

import httpx

from petstore_client import AuthenticatedClient
from petstore_client.api.pets import list_pets
from petstore_client.api.store import (
    get_inventory_item,
    get_sale_receipt,
    place_order,
    place_sale,
    refund_sale,
    update_order,
)
from petstore_client.models import (
    Error,
    InventoryItem,
    NewOrder,
    NewRefund,
    NewRefundLinesItem,
    NewRefundMethod,
    NewSale,
    NewSaleLine,
    Order,
    OrderPatch,
    Payment,
    PaymentMethod,
    Pet,
    Refund,
    Sale,
)
from petstore_client.types import Response

BASE_URL = os.environ.get("PETSTORE_URL", "http://127.0.0.1:8080")
KEY = os.environ.get("PETSTORE_KEY", "")
STAFF_KEY = os.environ.get("PETSTORE_STAFF_KEY", "")
ATTEMPTS = 5
T = TypeVar("T")


class StoreRefused(Exception):
    """An answer the store refused, with its stable `code`."""

    def __init__(self, error: Error) -> None:
        super().__init__(f"{error.code.value}: {error.message}")
        self.error = error


def refused(response: Response[T]) -> StoreRefused:
    """The error the store answered, decoded from its body."""
    if isinstance(response.parsed, Error):
        return StoreRefused(response.parsed)
    body = json.loads(response.content or b"{}")
    return StoreRefused(Error.from_dict(body))


def backoff(attempt: int, headers: Mapping[str, str] | None = None) -> float:
    """Seconds to wait before attempt `attempt + 1`: Retry-After when the store sent one."""
    retry_after = httpx.Headers(headers or {}).get("Retry-After", "")
    if retry_after.isdigit() and int(retry_after) > 0:
        return float(retry_after)
    return 0.25 * 2.0 ** (attempt - 1)


class StockView:
    """The stock the till knows, kept fresh by the store's change stream."""

    def __init__(self) -> None:
        self.quantities: dict[int, int] = {}
        self.changed = threading.Condition()
        self.last_event_id = ""
        self.connected = threading.Event()
        self.stopped = threading.Event()
        self.thread = threading.Thread(target=self.follow, daemon=True)

    def follow(self) -> None:
        """Follows /events until stopped, reconnecting with Last-Event-ID after a drop."""
        while not self.stopped.is_set():
            headers = {"X-API-Key": KEY}
            if self.last_event_id:
                headers["Last-Event-ID"] = self.last_event_id
            try:
                timeout = httpx.Timeout(5.0, read=30.0)
                with httpx.stream("GET", f"{BASE_URL}/events", headers=headers, timeout=timeout) as res:
                    res.raise_for_status()
                    # The store subscribes the stream before it answers: no change is missed now.
                    self.connected.set()
                    event, data = "", ""
                    for line in res.iter_lines():
                        if self.stopped.is_set():
                            return
                        if line.startswith("id:"):
                            self.last_event_id = line[3:].strip()
                        elif line.startswith("event:"):
                            event = line[6:].strip()
                        elif line.startswith("data:"):
                            data += line[5:].strip()
                        elif line == "":
                            self.receive(event, data)
                            event, data = "", ""
            except httpx.HTTPError:
                time.sleep(0.5)

    def receive(self, event: str, data: str) -> None:
        if event != "inventory.updated" or not data:
            return
        item = InventoryItem.from_dict(json.loads(data)["data"])
        with self.changed:
            self.quantities[item.pet_id] = item.quantity
            self.changed.notify_all()

    def until(self, pet_id: int, quantity: int, seconds: float) -> bool:
        """Waits (up to `seconds`) until the stream reports `pet_id` at `quantity`."""
        with self.changed:
            return self.changed.wait_for(lambda: self.quantities.get(pet_id) == quantity, seconds)


def find(client: AuthenticatedClient, text: str) -> Pet:
    """The pet with barcode `text` (when it is 8 to 14 digits), else the pet whose name is
    `text` (any case), else the first whose name contains it."""
    if re.fullmatch(r"[0-9]{8,14}", text):
        answer = list_pets.sync_detailed(client=client, barcode=text)
    else:
        answer = list_pets.sync_detailed(client=client, q=text, limit=100)
    if not isinstance(answer.parsed, list):
        raise refused(answer)
    for pet in answer.parsed:
        if pet.name.lower() == text.lower():
            return pet
    if not answer.parsed:
        raise StoreRefused(Error.from_dict({"code": "not_found", "message": f"no pet called {text}", "status": 404}))
    return answer.parsed[0]


def once(call: Callable[[str], Response[T | Error]], answer_type: type[T]) -> T:
    """Sends `call` with one Idempotency-Key, resending it after a network error, a 503, a 429
    or a 409 `conflict` (the first try still running): whatever it does is done once."""
    idempotency_key = f"till-{uuid.uuid4()}"
    attempt = 0
    while True:
        attempt += 1
        try:
            answer = call(idempotency_key)
        except httpx.TransportError:
            if attempt >= ATTEMPTS:
                raise  # the network stayed down
            time.sleep(backoff(attempt))
            continue
        if isinstance(answer.parsed, answer_type):
            return answer.parsed
        status = int(answer.status_code)
        code = answer.parsed.code.value if isinstance(answer.parsed, Error) else ""
        retry = status in (503, 429) or (status == 409 and code == "conflict")
        if not retry or attempt >= ATTEMPTS:
            raise refused(answer)
        time.sleep(backoff(attempt, answer.headers))


def sell(client: AuthenticatedClient, pet: Pet, quantity: int) -> Order:
    """Places the order, retrying with the same Idempotency-Key: it is never sold twice."""
    body = NewOrder(pet_id=pet.id, quantity=quantity)
    return once(lambda key: place_order.sync_detailed(client=client, body=body, idempotency_key=key), Order)


def ring_up(client: AuthenticatedClient, pets: list[Pet]) -> Sale:
    """One unit of each pet as one sale, paid in cash rounded up to the next 10 (in the
    currency's whole units, so there is change to give)."""
    total = sum(p.price for p in pets if isinstance(p.price, int))
    cash = (total // 1000 + 1) * 1000
    body = NewSale(
        lines=[NewSaleLine(pet_id=p.id, quantity=1) for p in pets],
        payments=[Payment(method=PaymentMethod("cash"), amount=cash)],
        till="Example till",
    )
    return once(lambda key: place_sale.sync_detailed(client=client, body=body, idempotency_key=key), Sale)


def receipt_text(client: AuthenticatedClient, sale: Sale) -> str:
    """The sale's receipt as plain text, at most 42 characters a line."""
    plain = client.with_headers({"Accept": "text/plain"})
    answer = get_sale_receipt.sync_detailed(sale.id, client=plain)
    if not isinstance(answer.parsed, str):
        raise refused(answer)
    return answer.parsed


def refund_first(client: AuthenticatedClient, sale: Sale) -> Refund:
    """Gives back one unit of the sale's first line, in cash, back into stock."""
    body = NewRefund(
        lines=[NewRefundLinesItem(pet_id=sale.lines[0].pet_id, quantity=1)],
        method=NewRefundMethod("cash"),
        reason="Changed their mind",
    )
    return once(lambda key: refund_sale.sync_detailed(sale.id, client=client, body=body, idempotency_key=key), Refund)


def money(minor: int) -> str:
    """Minor units as a plain amount in a currency of two decimals (the demo's): 1234 -> 12.34."""
    return f"{minor / 100:.2f}"


def basket(client: AuthenticatedClient, names: list[str]) -> None:
    sale = ring_up(client, [find(client, name) for name in names])
    print(
        f"sold sale {sale.id} (number {sale.number}): {len(sale.lines)} lines, total {money(sale.total)}, "
        f"paid {money(sale.payments[0].amount)} in cash, change {money(sale.change)}"
    )
    print(receipt_text(client, sale), end="")
    if not STAFF_KEY:
        print("no refund: it needs a staff key in PETSTORE_STAFF_KEY")
        return
    staff = AuthenticatedClient(base_url=BASE_URL, token=STAFF_KEY, timeout=httpx.Timeout(10.0))
    refund = refund_first(staff, sale)
    print(f"refunded {money(refund.amount)} of sale {sale.id}: 1 x {sale.lines[0].name}")


def hand_over(client: AuthenticatedClient, order: Order) -> Order:
    """Marks the order handed over."""
    answer = update_order.sync_detailed(order.id, client=client, body=OrderPatch(complete=True))
    if not isinstance(answer.parsed, Order):
        raise refused(answer)
    return answer.parsed


def stock_of(client: AuthenticatedClient, pet_id: int) -> int:
    answer = get_inventory_item.sync_detailed(pet_id, client=client)
    if not isinstance(answer.parsed, InventoryItem):
        raise refused(answer)
    return answer.parsed.quantity


def main(args: list[str]) -> int:
    if len(args) >= 2 and args[0] == "basket" and KEY:
        try:
            basket(AuthenticatedClient(base_url=BASE_URL, token=KEY, timeout=httpx.Timeout(10.0)), args[1:])
            return 0
        except StoreRefused as err:
            print(f"refused: {err.error.code.value} ({err.error.status}): {err.error.message}", file=sys.stderr)
            return 1
    if len(args) not in (2, 3) or args[0] != "sell" or not KEY:
        print('usage: PETSTORE_KEY=<pos key> python till.py sell "<pet name or barcode>" [quantity]', file=sys.stderr)
        print('       PETSTORE_KEY=<pos key> python till.py basket "<pet>" "<pet>" ...', file=sys.stderr)
        return 2
    name, quantity = args[1], int(args[2]) if len(args) == 3 else 1
    client = AuthenticatedClient(base_url=BASE_URL, token=KEY, timeout=httpx.Timeout(10.0))
    stock = StockView()
    stock.thread.start()
    try:
        pet = find(client, name)
        before = stock_of(client, pet.id)
        print(f"{pet.name} (pet {pet.id}): {before} in stock")
        # Sell only once the stream is open, so it cannot miss the sale's own stock change.
        stock.connected.wait(10.0)
        order = hand_over(client, sell(client, pet, quantity))
        print(f"sold order {order.id}: {order.quantity} x {pet.name}, handed over")
        if stock.until(pet.id, before - quantity, 10.0):
            print(f"stock of {pet.name} is now {before - quantity} (from /events)")
        else:
            print(f"no stock event yet for {pet.name}")
        return 0
    except StoreRefused as err:
        e = err.error
        print(f"refused: {e.code.value} ({e.status}): {e.message}", file=sys.stderr)
        return 1
    finally:
        stock.stopped.set()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
