#!/usr/bin/env python3
"""Crash test: SIGKILL the server while 16 clients place orders and 4 sell baskets, restart it,
check nothing is lost.

Each cycle, on the same store file: seed a few pets with stock for orders and a few priced
ones for sales; 16 client threads place one-unit orders, and 4 more sell baskets of one to
three lines (`POST /store/sales`, some paid in cash with change, some split between card and
cash), each request with its own Idempotency-Key; SIGKILL the server at a random moment
(0.3-1.5 s in); restart it; then check

  - every answer before the kill was 201, or 409 once a pet ran out;
  - every order answered 201 exists (GET /store/orders/{id}, and in the listing);
  - retrying a request with its Idempotency-Key replays the first answer, and a request cut
    off by the kill is done exactly once when retried;
  - PRAGMA integrity_check is ok and foreign_key_check finds nothing (sqlite3 on the file,
    beside the running server);
  - for every pet: stock + its open orders' quantities == the stock it was given;
  - its stock history sums to its stock, each entry's quantityAfter follows from the one
    before, and the orders it records are exactly the pet's orders (nothing half-done);
  - every sale answered 201 is there exactly once, with its lines; the sales' numbers are
    1..N, each once (no gap, no repeat, also across kills); a resend with a sale's
    Idempotency-Key answers the same sale, and a sale cut off by the kill is done exactly once
    when resent; for every pet sold by sales: stock + units in the store's sales == the stock
    it was given, each line is a completed order, and its history adds up as above.

Prints one line per check per cycle, then `N passed, M failed`; exits 1 on any failure.
Usage: python3 tests/crash/run.py [--cycles 3] [--release] [--binary PATH] [--seed N] [--min-acked N]
"""

from __future__ import annotations

import argparse
import http.client
import random
import secrets
import sqlite3
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "bench"))
import harness  # noqa: E402


def check(results: harness.Checks, cycle: int, name: str, ok: bool, detail: str = "") -> bool:
    return results.check(name, ok, detail, prefix=f"cycle {cycle:2}: ")


class Acks:
    """Orders answered 201 across the clients; `wait(n)` returns once there are n."""

    def __init__(self):
        self.count = 0
        self.changed = threading.Condition()

    def add(self) -> None:
        with self.changed:
            self.count += 1
            self.changed.notify_all()

    def wait(self, n: int, timeout: float) -> bool:
        with self.changed:
            return self.changed.wait_for(lambda: self.count >= n, timeout)


class Orderer(threading.Thread):
    """One client: places one-unit orders until the server dies or every pet has run out."""

    def __init__(self, base: str, key: str, pets: list[int], tag: str, rng: random.Random,
                 acks: Acks):
        super().__init__(daemon=True)
        self.acks = acks
        self.client = harness.Client(base, key, timeout=5.0)
        self.pets = list(pets)
        self.tag = tag
        self.rng = rng
        self.acked: list[tuple[int, int, str, dict]] = []  # (order id, pet id, key, body)
        self.cut_off: tuple[int, str, dict] | None = None  # the request the kill interrupted
        self.unexpected: list[str] = []
        self.stop = threading.Event()

    def run(self) -> None:
        n = 0
        while self.pets and not self.stop.is_set():
            n += 1
            pet = self.rng.choice(self.pets)
            key = f"{self.tag}-{n}"
            body = {"petId": pet, "quantity": 1}
            try:
                status, _, answer = self.client.call("POST", "/store/orders", body,
                                                     {"Idempotency-Key": key})
            except (OSError, http.client.HTTPException):
                self.cut_off = (pet, key, body)
                return
            if status == 201 and isinstance(answer, dict) and isinstance(answer.get("id"), int):
                self.acked.append((answer["id"], pet, key, body))
                self.acks.add()
            elif status == 409 and isinstance(answer, dict) and answer.get("code") in (
                    "insufficient_stock", "pet_not_available"):
                self.pets.remove(pet)
            else:
                self.unexpected.append(f"{status} {answer}")
                if len(self.unexpected) > 20:
                    return
        # Out of stock everywhere: idle until the kill so the timing stays random.
        self.stop.wait()


SALE_PRICE = 250  # minor units, per unit of every pet the sellers sell


class Seller(threading.Thread):
    """One till: sells baskets of one to three distinct pets, one unit each, until the server
    dies or the pets have run out. Every other basket is paid by card and cash (split); the
    rest in cash rounded up, with change."""

    def __init__(self, base: str, key: str, pets: list[int], tag: str, rng: random.Random):
        super().__init__(daemon=True)
        self.client = harness.Client(base, key, timeout=5.0)
        self.pets = list(pets)
        self.tag = tag
        self.rng = rng
        self.acked: list[tuple[dict, str, dict]] = []  # (sale as answered, key, body)
        self.cut_off: tuple[str, dict] | None = None
        self.unexpected: list[str] = []
        self.stop = threading.Event()

    def basket(self, n: int) -> dict:
        lines = self.rng.sample(self.pets, min(len(self.pets), self.rng.randint(1, 3)))
        total = SALE_PRICE * len(lines)
        if n % 2:
            card = self.rng.randint(1, total - 1)
            payments = [{"method": "card", "amount": card}, {"method": "cash", "amount": total - card}]
        else:
            payments = [{"method": "cash", "amount": total + self.rng.choice([0, 50, 1000])}]
        return {"lines": [{"petId": p, "quantity": 1} for p in lines], "payments": payments,
                "till": self.tag[-20:]}

    def run(self) -> None:
        n = 0
        while self.pets and not self.stop.is_set():
            n += 1
            key = f"{self.tag}-{n}"
            body = self.basket(n)
            try:
                status, _, answer = self.client.call("POST", "/store/sales", body,
                                                     {"Idempotency-Key": key})
            except (OSError, http.client.HTTPException):
                self.cut_off = (key, body)
                return
            if status == 201 and isinstance(answer, dict) and isinstance(answer.get("id"), int):
                self.acked.append((answer, key, body))
            elif status == 409 and isinstance(answer, dict) and answer.get("code") in (
                    "insufficient_stock", "pet_not_available") and isinstance(answer.get("line"), int):
                pet = body["lines"][answer["line"]]["petId"]
                if pet in self.pets:
                    self.pets.remove(pet)
            else:
                self.unexpected.append(f"sale: {status} {answer}")
                if len(self.unexpected) > 20:
                    return
        self.stop.wait()


def check_sales(client: harness.Client, acked: dict[int, dict], stock: dict[int, int]) -> list[str]:
    """What does not add up among the store's sales: each acknowledged sale once and as
    answered, the numbers 1..N once each, and each sold pet's stock, orders and history."""
    problems = []
    sales = list(client.pages("/store/sales"))
    ids = [s["id"] for s in sales]
    if len(ids) != len(set(ids)):
        problems.append(f"a sale is listed twice: {len(ids)} rows, {len(set(ids))} ids")
    numbers = sorted(s["number"] for s in sales)
    if numbers != list(range(1, len(sales) + 1)):
        gaps = sorted(set(range(1, len(sales) + 1)) - set(numbers))
        problems.append(f"numbers of {len(sales)} sales are not 1..{len(sales)}: missing {gaps[:5]}, "
                        f"repeated {sorted({n for n in numbers if numbers.count(n) > 1})[:5]}")
    by_id = {s["id"]: s for s in sales}
    for sale_id, answered in acked.items():
        stored = by_id.get(sale_id)
        if stored is None:
            problems.append(f"sale {sale_id} (number {answered['number']}) answered 201 is missing")
        elif (stored["number"], stored["lines"], stored["payments"], stored["total"]) != (
                answered["number"], answered["lines"], answered["payments"], answered["total"]):
            problems.append(f"sale {sale_id} is not as it was answered")
    sold: dict[int, int] = {}
    for sale in sales:
        for line in sale["lines"]:
            sold[line["petId"]] = sold.get(line["petId"], 0) + line["quantity"]
    for pet, units in stock.items():
        quantity = client.expect(200, "GET", f"/store/inventory/{pet}")["quantity"]
        if quantity + sold.get(pet, 0) != units:
            problems.append(f"pet {pet}: stock {quantity} + sold {sold.get(pet, 0)} != {units}")
            continue
        orders = list(client.pages(f"/store/orders?petId={pet}"))
        if any(not o.get("complete") or not o.get("saleId") for o in orders) or \
                sum(o["quantity"] for o in orders) != sold.get(pet, 0):
            problems.append(f"pet {pet}: its orders are not exactly its sales' lines")
            continue
        problem = harness.stock_history_problem(client, pet, quantity, orders)
        if problem:
            problems.append(problem)
    return problems


def integrity(db: Path) -> str:
    """PRAGMA integrity_check and foreign_key_check on the file: "ok", or what they found."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True, timeout=10)
    try:
        verdict = ";".join(row[0] for row in conn.execute("PRAGMA integrity_check"))
        dangling = conn.execute("PRAGMA foreign_key_check").fetchall()
        return verdict + (f"; foreign_key_check: {dangling[:5]}" if dangling else "")
    finally:
        conn.close()


def check_pet(client: harness.Client, pet: int, initial: int) -> str | None:
    """None if the pet's stock, orders and history add up; otherwise what does not."""
    quantity = client.expect(200, "GET", f"/store/inventory/{pet}")["quantity"]
    orders = list(client.pages(f"/store/orders?petId={pet}"))
    ordered = sum(o["quantity"] for o in orders if not o.get("complete"))
    if quantity + ordered != initial:
        return f"pet {pet}: stock {quantity} + open orders {ordered} != {initial}"
    return harness.stock_history_problem(client, pet, quantity, orders)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=3)
    parser.add_argument("--release", action="store_true", help="build and test the release binary")
    parser.add_argument("--binary", type=Path, help="test this petstore binary, do not build")
    parser.add_argument("--clients", type=int, default=16)
    parser.add_argument("--sellers", type=int, default=4, help="clients selling baskets")
    parser.add_argument("--pets", type=int, default=5, help="pets seeded per cycle")
    parser.add_argument("--stock", type=int, default=1000, help="units per pet")
    parser.add_argument("--seed", type=int, default=None, help="random seed (printed if not given)")
    parser.add_argument("--start-timeout", type=float, default=30.0,
                        help="seconds a (re)start may take to answer /health")
    parser.add_argument("--min-acked", type=int, default=0,
                        help="orders answered 201 before the random wait to the kill starts (a slow "
                             "server, such as petstore.exe under Wine, may otherwise answer none)")
    parser.add_argument("--keep", action="store_true", help="keep the store and logs")
    args = parser.parse_args()

    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    rng = random.Random(seed)
    binary = args.binary or harness.build(["petstore"], args.release) / "petstore"
    work = Path(tempfile.mkdtemp(prefix="petstore-crash-"))
    db, log = work / "store.sqlite", work / "server.log"
    admin_key = "crash-admin-" + secrets.token_urlsafe(32)
    env = {"PETSTORE_ADMIN_KEY": admin_key}
    print(f"crash test: {args.cycles} cycles, {args.clients} clients, seed {seed}, store {db}",
          flush=True)

    def start() -> harness.Server:
        return harness.Server([str(binary), "serve", "--db", str(db), "--bind", "127.0.0.1:0"],
                              env=env, log=log, timeout=args.start_timeout)

    results = harness.Checks()
    server = start()
    admin = harness.Client(server.base, admin_key)
    key = harness.create_key(admin, "crash-test")
    admin.close()
    print("orders are placed with " + ("a staff key of their own (enterprise plan, 1,000,000 a minute)"
                                       if key else "the admin key (POST /admin/keys refused)"), flush=True)
    key = key or admin_key
    client = harness.Client(server.base, key)
    category = client.expect(201, "POST", "/categories", {"name": f"crash-{seed}"})["id"]
    stock: dict[int, int] = {}  # pet id -> units it was given
    acked_all: dict[int, int] = {}  # order id -> pet id, every 201 of every cycle
    sale_stock: dict[int, int] = {}  # the same for the pets the sellers sell
    sales_acked: dict[int, dict] = {}  # sale id -> the sale as answered, every cycle

    cycle = 0
    try:
        for cycle in range(1, args.cycles + 1):
            pets = []
            for i in range(args.pets):
                pet = client.expect(201, "POST", "/pets", {
                    "name": f"crash {cycle}.{i}", "categoryId": category, "status": "available"})["id"]
                client.expect(200, "PUT", f"/store/inventory/{pet}", {"quantity": args.stock})
                stock[pet] = args.stock
                pets.append(pet)
            for_sale = []
            for i in range(args.pets):
                pet = client.expect(201, "POST", "/pets", {
                    "name": f"crash sale {cycle}.{i}", "categoryId": category, "status": "available",
                    "price": SALE_PRICE})["id"]
                client.expect(200, "PUT", f"/store/inventory/{pet}", {"quantity": args.stock})
                sale_stock[pet] = args.stock
                for_sale.append(pet)
            client.close()

            acks = Acks()
            clients = [Orderer(server.base, key, pets, f"crash-{seed}-{cycle}-{c}",
                               random.Random(rng.random()), acks) for c in range(args.clients)]
            sellers = [Seller(server.base, key, for_sale, f"crash-{seed}-{cycle}-s{c}",
                              random.Random(rng.random())) for c in range(args.sellers)]
            for c in [*clients, *sellers]:
                c.start()
            if args.min_acked and not acks.wait(args.min_acked, 120):
                check(results, cycle, f"{args.min_acked} orders are answered 201 within 120 s", False,
                              f"{acks.count} were")
            time.sleep(rng.uniform(0.3, 1.5))
            server.kill()
            for c in [*clients, *sellers]:
                c.stop.set()
                c.join(10)
            acked = [a for c in clients for a in c.acked]
            sold = [a for c in sellers for a in c.acked]
            unexpected = [u for c in [*clients, *sellers] for u in c.unexpected]
            check(results, cycle, "every answer before the kill was 201 or 409 out of stock",
                          not unexpected, "; ".join(unexpected[:3]))

            try:
                server = start()
            except RuntimeError as error:
                check(results, cycle, "the server restarts on the killed store", False, str(error))
                return finish(results, work, args.keep)
            check(results, cycle, "the server restarts on the killed store", True,
                          f"first 200 after {server.start_ms:.0f} ms")
            client = harness.Client(server.base, key)

            missing = []
            for order_id, pet, _, _ in acked:
                status, _, body = client.call("GET", f"/store/orders/{order_id}")
                if status != 200 or body.get("petId") != pet:
                    missing.append(f"GET /store/orders/{order_id}: {status}")
                acked_all[order_id] = pet
            listed = {o["id"] for o in client.pages("/store/orders")}
            unlisted = [o for o in acked_all if o not in listed]
            if unlisted:
                missing.append(f"{len(unlisted)} of {len(acked_all)} not in GET /store/orders, "
                               f"e.g. {unlisted[:5]}")
            check(results, cycle, "every order answered 201 is there", not missing,
                          f"{len(acked)} this cycle, {len(acked_all)} in all" if not missing
                          else "; ".join(missing[:5]))

            replay_problems = []
            for order_id, pet, idem, body in rng.sample(acked, min(10, len(acked))):
                status, _, answer = client.call("POST", "/store/orders", body, {"Idempotency-Key": idem})
                if status != 201 or answer.get("id") != order_id:
                    replay_problems.append(f"key {idem}: {status} {answer}")
            cut_off = [c.cut_off for c in clients if c.cut_off]
            for pet, idem, body in cut_off:
                first = client.call("POST", "/store/orders", body, {"Idempotency-Key": idem})
                again = client.call("POST", "/store/orders", body, {"Idempotency-Key": idem})
                ok_first = first[0] == 201 or (first[0] == 409 and first[2].get("code") in (
                    "insufficient_stock", "pet_not_available"))
                if not ok_first or again[0] != first[0] or again[2] != first[2]:
                    replay_problems.append(f"key {idem}: {first[0]} then {again[0]}")
                elif first[0] == 201:
                    acked_all[first[2]["id"]] = pet
            check(results, cycle, "a retry with the same Idempotency-Key acts once", not replay_problems,
                          f"{min(10, len(acked))} replays, {len(cut_off)} cut-off requests retried"
                          if not replay_problems else "; ".join(replay_problems[:3]))

            resent = []
            for answered, idem, body in rng.sample(sold, min(10, len(sold))):
                status, _, answer = client.call("POST", "/store/sales", body, {"Idempotency-Key": idem})
                if status != 201 or answer != answered:
                    resent.append(f"key {idem}: {status} {answer}")
            sale_cut_off = [c.cut_off for c in sellers if c.cut_off]
            for idem, body in sale_cut_off:
                first = client.call("POST", "/store/sales", body, {"Idempotency-Key": idem})
                again = client.call("POST", "/store/sales", body, {"Idempotency-Key": idem})
                ok_first = first[0] == 201 or (first[0] == 409 and first[2].get("code") in (
                    "insufficient_stock", "pet_not_available"))
                if not ok_first or again[0] != first[0] or again[2] != first[2]:
                    resent.append(f"key {idem}: {first[0]} then {again[0]}")
                elif first[0] == 201:
                    sold.append((first[2], idem, body))
            check(results, cycle, "a resent sale with its Idempotency-Key answers the same sale, once",
                          not resent, f"{min(10, len(sold))} resends, {len(sale_cut_off)} cut-off sales resent"
                          if not resent else "; ".join(resent[:3]))
            for answered, _, _ in sold:
                sales_acked[answered["id"]] = answered
            problems = check_sales(client, sales_acked, sale_stock)
            check(results, cycle, "every sale answered 201 is there once, numbered 1..N; stock = given - sold",
                          not problems, f"{len(sold)} this cycle, {len(sales_acked)} in all" if not problems
                          else "; ".join(problems[:3]))

            verdict = integrity(db)
            check(results, cycle, "PRAGMA integrity_check, foreign_key_check", verdict == "ok", verdict[:200])

            problems = []
            for pet, units in stock.items():
                try:
                    problem = check_pet(client, pet, units)
                except (RuntimeError, KeyError, TypeError) as error:
                    problem = f"pet {pet}: {error}"
                if problem:
                    problems.append(problem)
            check(results, cycle, "stock + open orders = stock given; history adds up, one entry per order",
                          not problems, f"{len(stock)} pets" if not problems else "; ".join(problems[:3]))
            client.close()
    except (RuntimeError, OSError, http.client.HTTPException, KeyError, TypeError) as error:
        # A request the checks rely on failed outright: that cycle cannot be judged.
        check(results, cycle, "the cycle runs to its end", False, f"{type(error).__name__}: {error}")
        server.kill()
        return finish(results, work, args.keep)
    finally:
        server.stop()
    verdict = integrity(db)
    check(results, args.cycles, "PRAGMA integrity_check, foreign_key_check after a clean stop", verdict == "ok",
                  verdict[:200])
    return finish(results, work, args.keep)


def finish(results: harness.Checks, work: Path, keep: bool) -> int:
    if keep or results.failed:
        print(f"store and server log kept in {work}")
    else:
        for path in sorted(work.iterdir()):
            path.unlink()
        work.rmdir()
    print(results.summary(), flush=True)
    return results.status()


if __name__ == "__main__":
    sys.exit(main())
