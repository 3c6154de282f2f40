#!/usr/bin/env python3
"""Two `petstore serve` processes on one PostgreSQL database behave as one store.

Checks, each printed as one line:
  - 40 one-unit orders sent at once, spread over both processes, against stock 10: exactly
    10 succeed (the others are 409), the stock is 0, and the stock history adds up;
  - an Idempotency-Key used on one process replays its answer on the other;
  - 248 sales sent from both processes at once, 48 of them short of their total: the 200
    made are numbered 1..200, each once, and took their units once;
  - 30 one-unit receipts of a purchase order for 10 units, sent at once over both
    processes: exactly 10 are received (never more than ordered), the stock is 10;
  - 8 opens of one till's shift at once over both processes, 10 times: one opens each time;
  - an event stream on each process sees the orders placed on both, in the same order;
  - a key made, or a member signed in, on one process is served by the other at its first
    use (no wait for the other's next re-read of the keys);
  - a key revoked on one process is refused by the other within 2 seconds;
  - a pairing code opened on one process is redeemed on the other, and a second redeem on
    the first is refused; a code redeemed on both at the same moment makes exactly one key;
  - wrong PINs sent alternately to both processes lock the name after the same number of
    tries as on one process, and the lock holds on both;
  - a ban started on one process reaches the store, and the other process then refuses the
    caller though it never counted a refusal of its own (its bans come from the store; the
    time it took is printed, not asserted: the machine may be busy);
  - a key's per-minute quota holds across both processes;
  - `kill -9` of one process while orders stream in loses nothing it acknowledged (the
    other process shows every acknowledged order, and stock, orders and history add up).

Usage: python3 tests/postgres/two_processes.py --db postgresql://… --bin target/debug/petstore
Exits 1 on any failure.
"""

from __future__ import annotations

import argparse
import http.client
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "bench"))
import harness  # noqa: E402

CHECKS = harness.Checks()
check = CHECKS.check
STARTED: list[harness.Server] = []  # killed at the end, whatever happened


class Stream(threading.Thread):
    """Reads one process's /events stream, keeping (id, type, order id) of each event."""

    def __init__(self, server: harness.Server, key: str):
        super().__init__(daemon=True)
        self.conn = http.client.HTTPConnection(server.host, server.port, timeout=30)
        self.conn.request("GET", "/events", headers={"X-API-Key": key, "Accept": "text/event-stream"})
        self.response = self.conn.getresponse()
        self.events: list[tuple[int, str, int | None]] = []
        self.lock = threading.Lock()

    def run(self) -> None:
        import json
        event_id, kind = None, None
        try:
            while True:
                raw = self.response.readline()
                if not raw:
                    return
                line = raw.decode().rstrip("\n")
                if line.startswith("id: "):
                    event_id = int(line[4:])
                elif line.startswith("event: "):
                    kind = line[7:]
                elif line.startswith("data: ") and event_id is not None:
                    data = json.loads(line[6:])
                    inner = data.get("data") if isinstance(data, dict) else None
                    order = inner.get("id") if isinstance(inner, dict) else None
                    with self.lock:
                        self.events.append((event_id, kind or "", order))
                    event_id, kind = None, None
        except OSError:
            return

    def orders(self) -> list[int]:
        with self.lock:
            return [o for (_, kind, o) in self.events if kind == "order.created"]

    def ids(self) -> list[int]:
        with self.lock:
            return [i for (i, _, _) in self.events]


def on_both_at_once(work, a: harness.Server, b: harness.Server, threads: int, *args) -> None:
    """Runs `work(server, *args)` on `threads` threads at once, alternately on b and a, and
    waits for them all. Each `work` waits at a barrier of its own so that the requests meet."""
    running = [threading.Thread(target=work, args=(a if i % 2 else b, *args)) for i in range(threads)]
    for t in running:
        t.start()
    for t in running:
        t.join()


def history_adds_up(client: harness.Client, pet: int, given: int) -> str | None:
    """None if the pet's stock plus its orders is the `given` stock and its history adds up."""
    quantity = client.expect(200, "GET", f"/store/inventory/{pet}")["quantity"]
    orders = list(client.pages(f"/store/orders?petId={pet}"))
    if quantity + sum(o["quantity"] for o in orders) != given:
        return f"stock {quantity} + ordered {sum(o['quantity'] for o in orders)} != {given}"
    return harness.stock_history_problem(client, pet, quantity, orders)


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--db", required=True)
    parser.add_argument("--bin", default="target/debug/petstore")
    args = parser.parse_args()
    binary = Path(args.bin).resolve()
    admin_key = "two-admin-" + secrets.token_urlsafe(32)
    env = {"PETSTORE_ADMIN_KEY": admin_key, **(harness.rate_limit_switch(binary) or {})}
    work = Path(tempfile.mkdtemp(prefix="petstore-two-"))

    def start(name: str) -> harness.Server:
        server = harness.Server([str(binary), "serve", "--db", args.db, "--bind", "127.0.0.1:0"],
                                env=env, log=work / f"{name}.log")
        STARTED.append(server)
        return server

    # Started together: the migrations and the first admin key are made once.
    started: dict[str, harness.Server] = {}
    threads = [threading.Thread(target=lambda n=n: started.__setitem__(n, start(n))) for n in "ab"]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    a, b = started["a"], started["b"]
    admin_a, admin_b = harness.Client(a.base, admin_key), harness.Client(b.base, admin_key)
    keys = admin_a.expect(200, "GET", "/admin/keys")
    check("two processes started together made one admin key", len(keys) == 1, f"{len(keys)} keys")

    # 40 one-unit orders over both processes against stock 10.
    category = admin_a.expect(201, "POST", "/categories", {"name": "two-" + secrets.token_hex(4)})["id"]
    pet = admin_a.expect(201, "POST", "/pets", {"name": "Last ten", "categoryId": category,
                                                "status": "available"})["id"]
    admin_b.expect(200, "PUT", f"/store/inventory/{pet}", {"quantity": 10})
    answers: list[int] = []
    lock = threading.Lock()
    gate = threading.Barrier(40)

    def order(server: harness.Server) -> None:
        client = harness.Client(server.base, admin_key)
        gate.wait()
        status, _, _ = client.call("POST", "/store/orders", {"petId": pet, "quantity": 1})
        with lock:
            answers.append(status)
        client.close()

    on_both_at_once(order, a, b, 40)
    check("40 parallel orders over two processes against stock 10: exactly 10 succeed",
          answers.count(201) == 10 and answers.count(409) == 30,
          f"201 x{answers.count(201)}, 409 x{answers.count(409)}, others {sorted(set(answers) - {201, 409})}")
    problem = history_adds_up(admin_a, pet, 10)
    check("the stock is 0 and the history adds up", problem is None, problem or "")

    # An Idempotency-Key replays across processes (on a pet of its own: the first is pending
    # now that its last unit went).
    pet = admin_a.expect(201, "POST", "/pets", {"name": "Plenty", "categoryId": category,
                                                "status": "available"})["id"]
    admin_a.expect(200, "PUT", f"/store/inventory/{pet}", {"quantity": 100})
    key = "two-" + secrets.token_hex(8)
    s1, _, first = admin_a.call("POST", "/store/orders", {"petId": pet, "quantity": 2}, {"Idempotency-Key": key})
    s2, _, again = admin_b.call("POST", "/store/orders", {"petId": pet, "quantity": 2}, {"Idempotency-Key": key})
    check("an Idempotency-Key used on one process replays on the other",
          s1 == 201 and s2 == 201 and first == again, f"{s1} {s2}")
    stock = admin_b.expect(200, "GET", f"/store/inventory/{pet}")["quantity"]
    check("the replayed order took its units once", stock == 98, f"stock {stock}")

    # 248 sales sent from both processes at once, every fifth short of its total: the 200
    # made take the numbers 1..200, each once; the refused ones take none.
    seller = admin_a.expect(201, "POST", "/pets", {"name": "Sold in pairs", "categoryId": category,
                                                   "status": "available", "price": 250})["id"]
    admin_a.expect(200, "PUT", f"/store/inventory/{seller}", {"quantity": 1000})
    sale_answers: list[int] = []
    sale_gate = threading.Barrier(8)

    def sell(server: harness.Server, count: int) -> None:
        client = harness.Client(server.base, admin_key)
        sale_gate.wait()
        for i in range(count):
            paid = 1 if i % 5 == 4 else 500  # every fifth is short: 422, no number
            status, _, _ = client.call("POST", "/store/sales", {
                "lines": [{"petId": seller, "quantity": 2}],
                "payments": [{"method": "cash", "amount": paid}],
            })
            with lock:
                sale_answers.append(status)
        client.close()

    on_both_at_once(sell, a, b, 8, 31)
    sold = sale_answers.count(201)
    listed = admin_b.expect(200, "GET", "/store/sales?limit=500")
    numbers = sorted(s["number"] for s in listed)
    check("200 sales from two processes at once: the numbers are 1..200, each once",
          sold == 200 and numbers == list(range(1, 201)) and sale_answers.count(422) == len(sale_answers) - 200,
          f"201 x{sold}, others {sorted(set(sale_answers) - {201})}, {len(numbers)} listed, "
          f"first {numbers[:3]}, last {numbers[-3:]}")
    stock = admin_a.expect(200, "GET", f"/store/inventory/{seller}")["quantity"]
    check("the 200 sales took their units once", stock == 1000 - 400, f"stock {stock}")

    # 30 one-unit receipts of one purchase order for 10 units, sent at once over both
    # processes: exactly 10 are received, the others refused (409), the stock is 10.
    supplier = admin_a.expect(201, "POST", "/store/suppliers", {"name": "two-" + secrets.token_hex(4)})["id"]
    boxed = admin_a.expect(201, "POST", "/pets", {"name": "Boxed", "categoryId": category,
                                                  "supplierId": supplier, "cost": 100})["id"]
    ordered = admin_a.expect(201, "POST", "/store/purchase-orders",
                             {"supplierId": supplier, "lines": [{"petId": boxed, "quantity": 10}]})
    admin_b.expect(200, "POST", f"/store/purchase-orders/{ordered['id']}/send")
    receipts: list[int] = []
    receive_gate = threading.Barrier(30)

    def receive(server: harness.Server) -> None:
        client = harness.Client(server.base, admin_key)
        receive_gate.wait()
        status, _, _ = client.call("POST", f"/store/purchase-orders/{ordered['id']}/receive",
                                   {"lines": [{"petId": boxed, "quantity": 1}]})
        with lock:
            receipts.append(status)
        client.close()

    on_both_at_once(receive, a, b, 30)
    stock = admin_b.expect(200, "GET", f"/store/inventory/{boxed}")["quantity"]
    now = admin_a.expect(200, "GET", f"/store/purchase-orders/{ordered['id']}")
    check("30 receipts of a 10-unit order over two processes at once: exactly 10 received",
          receipts.count(200) == 10 and receipts.count(409) == 20 and stock == 10
          and now["lines"][0]["received"] == 10 and now["status"] == "received",
          f"200 x{receipts.count(200)}, 409 x{receipts.count(409)}, stock {stock}, "
          f"received {now['lines'][0]['received']}, {now['status']}")

    # One open shift per till: 8 opens of the same till at once, over both processes, in each
    # of 10 rounds: exactly one opens, the others are 409 shift_open.
    shift_answers: list[tuple[int, int, str]] = []
    shift_gate = threading.Barrier(8)

    def open_shift(server: harness.Server, round_: int) -> None:
        client = harness.Client(server.base, admin_key)
        shift_gate.wait()
        status, _, answer = client.call("POST", "/store/shifts", {"till": f"race {round_}", "openingCash": 100})
        code = answer.get("code", "") if isinstance(answer, dict) else ""
        with lock:
            shift_answers.append((round_, status, code))
        client.close()

    for round_ in range(10):
        on_both_at_once(open_shift, a, b, 8, round_)
    opened = [r for r, status, _ in shift_answers if status == 201]
    refused = [code for _, status, code in shift_answers if status != 201]
    open_tills = sorted(s["till"] for s in admin_b.expect(200, "GET", "/store/shifts?status=open&limit=500"))
    check("8 opens of one till at once over two processes, 10 times: one shift each time",
          sorted(opened) == list(range(10)) and refused == ["shift_open"] * 70
          and open_tills == sorted(f"race {r}" for r in range(10)),
          f"opened in rounds {sorted(opened)}, refused {sorted(set(refused))} x{len(refused)}, "
          f"{len(open_tills)} open")

    # A stream on each process sees every order, in one order.
    streams = [Stream(a, admin_key), Stream(b, admin_key)]
    for s in streams:
        s.start()
    time.sleep(0.3)
    placed = []
    for i in range(8):
        placed.append((admin_a if i % 2 else admin_b).expect(
            201, "POST", "/store/orders", {"petId": pet, "quantity": 1})["id"])
    deadline = time.time() + 10
    while time.time() < deadline and not all(set(placed) <= set(s.orders()) for s in streams):
        time.sleep(0.05)
    seen = [s.orders() for s in streams]
    check("a stream on each process sees the orders placed on both",
          all(set(placed) <= set(o) for o in seen), f"placed {placed}, seen {seen}")
    check("both streams deliver the events in the same order, once each",
          streams[0].ids() == streams[1].ids() and len(set(streams[0].ids())) == len(streams[0].ids()),
          f"{streams[0].ids()[:12]} vs {streams[1].ids()[:12]}")

    # A key made on one process, and a member signed in on one, are served by the other at
    # their first use: a key the keyring does not know is looked up in the store before 401.
    fresh = [admin_a.expect(201, "POST", "/admin/keys", {"name": f"fresh {i}", "role": "pos",
                                                         "plan": "business"})["secret"]
             for i in range(3)]
    first_use = [harness.Client(b.base, secret).call("GET", "/pets")[0] for secret in fresh]
    check("a key made on one process is served by the other at its first use",
          first_use == [200] * 3, f"first uses on the other process: {first_use}")
    clerk = "Fresh " + secrets.token_hex(3)
    # The first member a store takes is a manager.
    admin_a.expect(201, "POST", "/admin/staff", {"name": "Owner " + secrets.token_hex(3), "role": "admin", "pin": "8642"})
    admin_a.expect(201, "POST", "/admin/staff", {"name": clerk, "role": "staff", "pin": "7305"})
    s_in, _, signed = harness.Client(a.base).call("POST", "/session", {"name": clerk, "pin": "7305"})
    used = harness.Client(b.base, signed["secret"]).call("GET", "/pets")[0] if s_in == 201 else 0
    check("a member signed in on one process is served by the other at the session's first use",
          s_in == 201 and used == 200, f"sign-in {s_in}, first use on the other {used}")

    # A key revoked on one process is refused by the other within 2 s.
    made = admin_a.expect(201, "POST", "/admin/keys", {"name": "till", "role": "pos", "plan": "business"})
    till_b = harness.Client(b.base, made["secret"])
    deadline = time.time() + 5
    while till_b.call("GET", "/pets")[0] != 200 and time.time() < deadline:
        time.sleep(0.05)
    admin_a.call("DELETE", f"/admin/keys/{made['id']}")
    revoked = time.time()
    refused_after = None
    while time.time() - revoked < 5:
        if till_b.call("GET", "/pets")[0] == 401:
            refused_after = time.time() - revoked
            break
        time.sleep(0.05)
    check("a key revoked on one process is refused by the other within 2 s",
          refused_after is not None and refused_after <= 2.0,
          f"after {refused_after:.2f} s" if refused_after is not None else "still accepted after 5 s")

    # A pairing code opened on one process is redeemed on the other, once.
    stranger_a, stranger_b = harness.Client(a.base), harness.Client(b.base)
    till = {"name": "two till", "role": "pos", "plan": "pro"}
    code = admin_a.expect(201, "POST", "/admin/pairings", till)["code"]
    s_b, _, paired = stranger_b.call("POST", "/pair", {"code": code})
    s_a, _, _ = stranger_a.call("POST", "/pair", {"code": code})
    check("a pairing code opened on one process is redeemed on the other, and not again on the first",
          s_b == 201 and isinstance(paired, dict) and paired.get("name") == "two till" and s_a == 404,
          f"redeemed on b: {s_b}, again on a: {s_a}")
    if s_b == 201:
        paired_a = harness.Client(a.base, paired["secret"])
        deadline = time.time() + 5
        while paired_a.call("GET", "/pets")[0] != 200 and time.time() < deadline:
            time.sleep(0.05)
        served = paired_a.call("GET", "/pets")[0]
        check("the key paired on one process is served by the other", served == 200, f"{served}")
    keys_before = len(admin_a.expect(200, "GET", "/admin/keys"))
    code = admin_b.expect(201, "POST", "/admin/pairings", till)["code"]
    redeems: list[int] = []
    gate = threading.Barrier(2)

    def redeem(server: harness.Server) -> None:
        client = harness.Client(server.base)
        gate.wait()
        status = client.call("POST", "/pair", {"code": code})[0]
        with lock:
            redeems.append(status)
        client.close()

    on_both_at_once(redeem, a, b, 2)
    keys_after = len(admin_a.expect(200, "GET", "/admin/keys"))
    check("a code redeemed on both processes at the same moment makes exactly one key",
          sorted(redeems) == [201, 404] and keys_after == keys_before + 1,
          f"answers {sorted(redeems)}, keys {keys_before} -> {keys_after}")

    # Wrong PINs sent alternately to both lock the name after five, as on one process.
    member = "Two " + secrets.token_hex(3)
    admin_a.expect(201, "POST", "/admin/staff", {"name": member, "role": "staff", "pin": "0481"})
    tries = [(stranger_a if i % 2 == 0 else stranger_b).call(
        "POST", "/session", {"name": member, "pin": "1111"})[0] for i in range(5)]
    right = [client.call("POST", "/session", {"name": member, "pin": "0481"})
             for client in (stranger_a, stranger_b)]
    locked = [status == 429 and isinstance(body, dict) and body.get("code") == "temporarily_banned"
              and "retry-after" in headers for status, headers, body in right]
    check("five wrong PINs sent alternately to two processes lock the name, on both",
          tries == [401] * 5 and all(locked),
          f"wrong PINs {tries}, then the right PIN {[status for status, _, _ in right]}")

    # kill -9 of one process while orders stream in loses nothing it acknowledged.
    stock_pet = admin_a.expect(201, "POST", "/pets", {"name": "Busy", "categoryId": category,
                                                      "status": "available"})["id"]
    admin_a.expect(200, "PUT", f"/store/inventory/{stock_pet}", {"quantity": 100000})
    acked: list[int] = []
    stop = threading.Event()

    def stream_orders(server: harness.Server) -> None:
        client = harness.Client(server.base, admin_key, timeout=5.0)
        while not stop.is_set():
            try:
                status, _, body = client.call("POST", "/store/orders", {"petId": stock_pet, "quantity": 1})
            except (OSError, http.client.HTTPException):
                return
            if status == 201:
                with lock:
                    acked.append(body["id"])

    writers = [threading.Thread(target=stream_orders, args=(a if i % 2 else b,)) for i in range(8)]
    for t in writers:
        t.start()
    time.sleep(1.0)
    a.kill()
    time.sleep(0.5)
    stop.set()
    for t in writers:
        t.join(10)
    missing = [o for o in acked if admin_b.call("GET", f"/store/orders/{o}")[0] != 200]
    check("kill -9 of one process loses no acknowledged order (read on the other)",
          bool(acked) and not missing, f"{len(acked)} acknowledged, missing {missing[:5]}")
    problem = history_adds_up(admin_b, stock_pet, 100000)
    check("after the kill, stock, orders and history add up", problem is None, problem or "")
    a2 = start("a2")
    status = harness.Client(a2.base, admin_key).call("GET", f"/store/orders/{acked[-1]}")[0] if acked else 0
    check("the killed process restarts and serves the same store", status == 200, f"{status}")

    for server in (a2, b):
        server.stop()

    # A ban started on one process refuses the caller on the other within 2 s, and lifting
    # holds for both. Two more processes, with rate limits on (bans need them).
    limited_env = {k: v for k, v in env.items() if k != "PETSTORE_RATE_LIMITS"}

    def start_limited(name: str) -> harness.Server:
        server = harness.Server([str(binary), "serve", "--db", args.db, "--bind", "127.0.0.1:0"],
                                env=limited_env, log=work / f"{name}.log")
        STARTED.append(server)
        return server

    c, d = start_limited("c"), start_limited("d")
    stranger_c, stranger_d = harness.Client(c.base), harness.Client(d.base)
    assert stranger_d.call("POST", "/pair", {"code": "WRONGCOD"})[0] == 404
    codes = []
    for _ in range(40):
        codes.append(stranger_c.call("POST", "/pair", {"code": "WRONGCOD"})[0])
        if codes[-1] == 429:
            break
    banned = time.time()

    def bans_in_store() -> int:
        out = subprocess.run(["psql", "-Atq", args.db, "-c",
                              "SELECT count(*) FROM bans WHERE until > extract(epoch FROM now())"],
                             capture_output=True, text=True, check=False)
        return int(out.stdout.strip() or 0) if out.returncode == 0 else -1

    # State, not time: first the ban reaches the store (c writes the bans it started on its
    # next share), then d, asked only with sign-ins that succeed (so d counts no refusal of
    # its own, and could not ban the caller by itself), refuses the caller once it has read
    # the store. Each wait is bounded by a number of tries, generous for a busy machine.
    stored = 0
    for _ in range(300):
        stored = bans_in_store()
        if stored > 0:
            break
        time.sleep(0.1)
    check("a ban started on one process is written to the store for the others",
          429 in codes and stored > 0, f"codes on c {codes[-3:]}; bans in force in the store: {stored}")
    ban_pin = "2580"
    banned_name = "Ban " + secrets.token_hex(3)
    admin_c0 = harness.Client(c.base, admin_key)
    admin_c0.expect(201, "POST", "/admin/staff", {"name": banned_name, "role": "admin", "pin": ban_pin})
    answers_d: list[int] = []
    refused_on_d = False
    # With c's refusals, still fewer requests than the Free plan's minute (60) for the caller,
    # so no answer is a plain rate limit; d shares the store's bans every second.
    for _ in range(20):
        status, _, body = stranger_d.call("POST", "/session", {"name": banned_name, "pin": ban_pin})
        if status == 429 and isinstance(body, dict) and body.get("code") == "temporarily_banned":
            refused_on_d = True
            break
        answers_d.append(status)
        time.sleep(0.25)
    refused_after = time.time() - banned
    check("the other process then refuses the caller, having counted no refusal of its own",
          refused_on_d and all(s == 201 for s in answers_d),
          f"answers on d before: {answers_d[-5:]} ({len(answers_d)} tries)")
    print(f"#   the ban reached the other process {refused_after:.2f} s after it started"
          f" ({len(answers_d)} sign-ins answered there first)")

    # A key's per-minute quota holds across both: 40 requests on one, then 40 on the other.
    admin_c = harness.Client(c.base, admin_key)
    free = admin_c.expect(201, "POST", "/admin/keys", {"name": "free till", "role": "pos", "plan": "free"})
    till_c, till_d = harness.Client(c.base, free["secret"]), harness.Client(d.base, free["secret"])
    while time.time() % 60 > 45:  # all 80 within one minute window (they take about 6 s)
        time.sleep(0.5)
    served = sum(till_c.call("GET", "/pets")[0] == 200 for _ in range(40))
    time.sleep(5)
    served += sum(till_d.call("GET", "/pets")[0] == 200 for _ in range(40))
    check("a key's per-minute quota (free, 60) holds across both processes",
          served == 60, f"{served} of 80 answered 200")
    for server in (c, d):
        server.stop()
    print(f"two-process checks: {CHECKS.summary()}", flush=True)
    return CHECKS.status()


if __name__ == "__main__":
    try:
        code = main()
    finally:
        for started in STARTED:
            started.kill()
    sys.exit(code)
