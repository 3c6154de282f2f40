#!/usr/bin/env python3
"""Where a request's CPU goes: `python3 bench/profile.py [--scenario read] [--binary PATH]`.

Starts the release server on a fresh store (rate limiting off, 1,000 pets seeded through the
API, as bench/run.py does), drives one scenario with wrk while `perf record` samples the
server's threads with call stacks, and writes the flame graph as SVG to
bench/profiles/<scenario>.svg (and the folded stacks beside it, .folded). Also prints the
functions that take the most samples by themselves. Needs `perf` (linux-perf) and inferno
(`cargo install inferno`; installed by this script when missing).

Scenarios: read (GET /pets?ids=ID), list (GET /pets?limit=50), create (POST /pets),
order (POST /store/orders), sale (POST /store/sales, three lines).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import harness
import run
from harness import ROOT

PROFILES = ROOT / "bench" / "profiles"


def ensure_tools() -> None:
    if not shutil.which("perf"):
        sys.exit("profile: perf is needed (Debian: apt-get install linux-perf)")
    if not shutil.which("inferno-flamegraph"):
        print("inferno is missing: cargo install inferno", flush=True)
        subprocess.run(["cargo", "install", "--locked", "inferno"], check=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", choices=["read", "list", "create", "order", "sale"], default="read")
    parser.add_argument("--binary", type=Path, help="the petstore binary (default: target/release)")
    parser.add_argument("--duration", type=float, default=5.0, help="seconds of load sampled")
    parser.add_argument("--frequency", type=int, default=499, help="samples a second per CPU")
    parser.add_argument("--out", type=Path, help="the SVG to write (default bench/profiles/SCENARIO.svg)")
    args = parser.parse_args()
    ensure_tools()
    run.ensure_wrk()
    binary = args.binary or harness.build(["petstore"], release=True) / "petstore"
    work = Path(tempfile.mkdtemp(prefix="petstore-profile-"))
    env = harness.rate_limit_switch(binary) or {}
    store = run.Petstore(binary, work / "store.sqlite", "bench-admin-profile-key-0123456789abcdef",
                         env, work / "petstore.log")
    server = store.start()
    try:
        admin = harness.Client(server.base, store.admin_key)
        key = harness.create_key(admin, "profile") or store.admin_key
        admin.close()
        categories, pets = run.seed_api(server.base, key)
        pet_ids = run.write_ids(work, "pets.txt", pets)
        category_ids = run.write_ids(work, "categories.txt", categories)
        script, script_args = {
            "read": ("get.lua", ["/pets?ids={id}", pet_ids]),
            "list": ("get.lua", ["/pets?limit=50"]),
            "create": ("create.lua", [category_ids]),
            "order": ("order.lua", [pet_ids, f"profile-{int(time.time())}"]),
            "sale": ("sale.lua", [pet_ids, f"profile-{int(time.time())}"]),
        }[args.scenario]
        run.wrk(server.base + "/pets", script, script_args, 2, key)  # warm up
        data = work / "perf.data"
        perf = subprocess.Popen(["perf", "record", "-F", str(args.frequency), "-g", "--call-graph",
                                 "dwarf,8192", "-p", str(server.pid), "-o", str(data)],
                                stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(0.5)
        figures = run.wrk(server.base + "/pets", script, script_args, args.duration, key)
        perf.send_signal(2)
        perf.wait()
        print(f"{args.scenario}: {figures['rps']:,.0f} req/s under perf, p99 "
              f"{figures['latency_us']['p99'] / 1000:.2f} ms", flush=True)
    finally:
        server.stop()
    PROFILES.mkdir(parents=True, exist_ok=True)
    svg = args.out or PROFILES / f"{args.scenario}.svg"
    folded = svg.with_suffix(".folded")
    script_out = subprocess.run(["perf", "script", "-i", str(data)], capture_output=True, check=True).stdout
    collapsed = subprocess.run(["inferno-collapse-perf"], input=script_out, capture_output=True,
                               check=True).stdout
    folded.write_bytes(collapsed)
    title = f"petstore {args.scenario}: {figures['rps']:,.0f} req/s under perf"
    with open(svg, "wb") as out:
        subprocess.run(["inferno-flamegraph", "--title", title], input=collapsed, stdout=out, check=True)
    print(f"flame graph: {svg.resolve().relative_to(ROOT) if svg.resolve().is_relative_to(ROOT) else svg}")
    report = subprocess.run(["perf", "report", "-i", str(data), "--no-children", "--stdio",
                             "--percent-limit", "1.5", "-g", "none", "--sort", "symbol"],
                            capture_output=True, text=True).stdout
    print("\n".join(line for line in report.splitlines() if line.strip() and not line.startswith("#")))
    shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
