#!/usr/bin/env python3
"""Crash test: SIGKILL the server while 16 clients place orders, restart it, check nothing is lost.

Each cycle, on the same store file: seed a few pets with stock; 16 client threads place
one-unit orders, each with its own Idempotency-Key; SIGKILL the server at a random moment
(0.3-1.5 s in); restart it; then check

  - every answer before the kill was 201, or 409 once a pet ran out;
  - every order answered 201 exists (GET /store/orders/{id}, and in the listing);
  - retrying a request with its Idempotency-Key replays the first answer, and a request cut
    off by the kill is done exactly once when retried;
  - PRAGMA integrity_check is ok and foreign_key_check finds nothing (sqlite3 on the file,
    beside the running server);
  - for every pet: stock + its open orders' quantities == the stock it was given;
  - its stock history sums to its stock, each entry's quantityAfter follows from the one
    before, and the orders it records are exactly the pet's orders (nothing half-done).

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


class Results:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, cycle: int, name: str, ok: bool, detail: str = "") -> bool:
        if ok:
            self.passed += 1
        else:
            self.failed += 1
        print(f"cycle {cycle:2}: {'ok  ' if ok else 'FAIL'} {name}" + (f" ({detail})" if detail else ""),
              flush=True)
        return ok


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
    history = list(client.pages(f"/store/inventory/{pet}/adjustments"))  # newest first
    if sum(h["delta"] for h in history) != quantity:
        return f"pet {pet}: history deltas sum to {sum(h['delta'] for h in history)}, stock is {quantity}"
    after = 0
    for entry in reversed(history):
        if entry["quantityAfter"] != after + entry["delta"]:
            return f"pet {pet}: history entry {entry['id']} does not follow from the one before"
        after = entry["quantityAfter"]
    if history and history[0]["quantityAfter"] != quantity:
        return f"pet {pet}: newest history entry says {history[0]['quantityAfter']}, stock is {quantity}"
    in_history = sorted(h["orderId"] for h in history if h["source"] == "order")
    if in_history != sorted(o["id"] for o in orders):
        return f"pet {pet}: orders in history {len(in_history)} != orders {len(orders)}"
    return None


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cycles", type=int, default=3)
    parser.add_argument("--release", action="store_true", help="build and test the release binary")
    parser.add_argument("--binary", type=Path, help="test this petstore binary, do not build")
    parser.add_argument("--clients", type=int, default=16)
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

    results = Results()
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
            client.close()

            acks = Acks()
            clients = [Orderer(server.base, key, pets, f"crash-{seed}-{cycle}-{c}",
                               random.Random(rng.random()), acks) for c in range(args.clients)]
            for c in clients:
                c.start()
            if args.min_acked and not acks.wait(args.min_acked, 120):
                results.check(cycle, f"{args.min_acked} orders are answered 201 within 120 s", False,
                              f"{acks.count} were")
            time.sleep(rng.uniform(0.3, 1.5))
            server.kill()
            for c in clients:
                c.stop.set()
                c.join(10)
            acked = [a for c in clients for a in c.acked]
            unexpected = [u for c in clients for u in c.unexpected]
            results.check(cycle, "every answer before the kill was 201 or 409 out of stock",
                          not unexpected, "; ".join(unexpected[:3]))

            try:
                server = start()
            except RuntimeError as error:
                results.check(cycle, "the server restarts on the killed store", False, str(error))
                return finish(results, work, args.keep)
            results.check(cycle, "the server restarts on the killed store", True,
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
            results.check(cycle, "every order answered 201 is there", not missing,
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
            results.check(cycle, "a retry with the same Idempotency-Key acts once", not replay_problems,
                          f"{min(10, len(acked))} replays, {len(cut_off)} cut-off requests retried"
                          if not replay_problems else "; ".join(replay_problems[:3]))

            verdict = integrity(db)
            results.check(cycle, "PRAGMA integrity_check, foreign_key_check", verdict == "ok", verdict[:200])

            problems = []
            for pet, units in stock.items():
                try:
                    problem = check_pet(client, pet, units)
                except (RuntimeError, KeyError, TypeError) as error:
                    problem = f"pet {pet}: {error}"
                if problem:
                    problems.append(problem)
            results.check(cycle, "stock + open orders = stock given; history adds up, one entry per order",
                          not problems, f"{len(stock)} pets" if not problems else "; ".join(problems[:3]))
            client.close()
    except (RuntimeError, OSError, http.client.HTTPException, KeyError, TypeError) as error:
        # A request the checks rely on failed outright: that cycle cannot be judged.
        results.check(cycle, "the cycle runs to its end", False, f"{type(error).__name__}: {error}")
        server.kill()
        return finish(results, work, args.keep)
    finally:
        server.stop()
    verdict = integrity(db)
    results.check(args.cycles, "PRAGMA integrity_check, foreign_key_check after a clean stop", verdict == "ok",
                  verdict[:200])
    return finish(results, work, args.keep)


def finish(results: Results, work: Path, keep: bool) -> int:
    if keep or results.failed:
        print(f"store and server log kept in {work}")
    else:
        for path in sorted(work.iterdir()):
            path.unlink()
        work.rmdir()
    print(f"{results.passed} passed, {results.failed} failed", flush=True)
    return 1 if results.failed else 0


if __name__ == "__main__":
    sys.exit(main())
