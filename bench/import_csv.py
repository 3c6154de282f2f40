#!/usr/bin/env python3
"""The CSV import figure: a generated 5,000-row pets file imported end to end.

    python3 bench/import_csv.py                 # builds the release binary, prints the figures
    python3 bench/import_csv.py --rows 5000 --bin target/release/petstore --no-build
    python3 bench/import_csv.py --write pets.csv   # only write the generated file

Starts `petstore serve` (release build) on a fresh store in a temporary folder, on loopback
(port 0, through harness.Server),
then:
  1. a dry run of the file (`?dryRun=true`): timed, and the pets export before and after must
     be byte for byte the same (a dry run changes nothing);
  2. the import itself: timed from the first byte sent to the last byte of the answer (the
     client's view, "end to end"), and checked: every row created, the stock set;
  3. the same file again: every row matched (by sku) and unchanged.
The target is under 2 s for step 2. Standard library only.
"""

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

import harness

ROOT = Path(__file__).resolve().parent.parent
KEY = "bench-import-admin-key-0123456789abcdef"
CATEGORIES = ["Fish", "Dogs", "Cats", "Birds", "Reptiles", "Small animals", "Food, dry", "Toys \"fun\""]
WORDS = ["gold", "koi", "guppy", "beagle", "tabby", "parrot", "gecko", "hamster", "blue", "giant", "mini"]


def gtin13(body12):
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(body12))
    return body12 + str((10 - total % 10) % 10)


def generate(rows, seed=11):
    """A pets CSV of `rows` rows in the export's columns, with quoting where a shop's data has it."""
    rnd = random.Random(seed)
    out = ["id,sku,barcode,name,category,status,price,quantity,reorderPoint"]
    for i in range(rows):
        name = f"{rnd.choice(WORDS).title()} {rnd.choice(WORDS)} {i}"
        if i % 7 == 0:
            name = f'"{name}, large"'
        if i % 11 == 0:
            name = f'"{name} ""special"""' if not name.startswith('"') else name
        cat = rnd.choice(CATEGORIES)
        if "," in cat or '"' in cat:
            cat = '"' + cat.replace('"', '""') + '"'
        barcode = gtin13(f"{400000000000 + i:012d}") if i % 2 == 0 else ""
        status = rnd.choice(["available", "available", "pending", ""])
        price = rnd.randrange(0, 200_000)
        quantity = rnd.randrange(0, 500)
        reorder = rnd.randrange(0, 20) if i % 3 == 0 else ""
        out.append(f",SKU-{i:06d},{barcode},{name},{cat},{status},{price},{quantity},{reorder}")
    return ("\r\n".join(out) + "\r\n").encode()


def call(base, method, path, body=None, content_type=None):
    req = urllib.request.Request(base + path, data=body, method=method)
    req.add_header("X-API-Key", KEY)
    if content_type:
        req.add_header("Content-Type", content_type)
    started = time.perf_counter()
    try:
        with urllib.request.urlopen(req, timeout=60) as res:
            data = res.read()
            status = res.status
    except urllib.error.HTTPError as err:
        data, status = err.read(), err.code
    return status, data, time.perf_counter() - started


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rows", type=int, default=5000)
    ap.add_argument("--bin", default=str(ROOT / "target/release/petstore"))
    ap.add_argument("--no-build", action="store_true")
    ap.add_argument("--write", help="only write the generated CSV to this file")
    args = ap.parse_args()

    csv = generate(args.rows)
    if args.write:
        Path(args.write).write_bytes(csv)
        print(f"wrote {args.write}: {args.rows} rows, {len(csv):,} bytes")
        return 0
    if not args.no_build:
        subprocess.run(["cargo", "build", "--release", "-p", "petstore"], cwd=ROOT, check=True)

    with tempfile.TemporaryDirectory() as tmp:
        server = harness.Server(
            [args.bin, "--db", f"{tmp}/store.sqlite", "serve", "--bind", "127.0.0.1:0"],
            env={"PETSTORE_ADMIN_KEY": KEY, "PETSTORE_RATE_LIMITS": "off"},
        )
        base = server.base
        try:
            before = call(base, "GET", "/store/export/pets.csv")[1]
            status, body, dry = call(base, "POST", "/store/import/pets?dryRun=true", csv, "text/csv")
            assert status == 200, (status, body[:500])
            dry_summary = json.loads(body)
            after = call(base, "GET", "/store/export/pets.csv")[1]
            unchanged = before == after

            status, body, took = call(base, "POST", "/store/import/pets", csv, "text/csv")
            assert status == 200, (status, body[:500])
            summary = json.loads(body)

            status, body, again = call(base, "POST", "/store/import/pets", csv, "text/csv")
            second = json.loads(body)
        finally:
            server.stop()

    print(f"file: {args.rows} rows, {len(csv):,} bytes")
    print(f"dry run:       {dry * 1000:7.0f} ms  {dry_summary['created']} would be created; store unchanged: {unchanged}")
    print(f"import:        {took * 1000:7.0f} ms  created {summary['created']}, updated {summary['updated']}, unchanged {summary['unchanged']}  (target < 2000 ms)")
    print(f"same again:    {again * 1000:7.0f} ms  created {second['created']}, updated {second['updated']}, unchanged {second['unchanged']}")
    ok = unchanged and summary["created"] == args.rows and second["unchanged"] == args.rows and took < 2.0
    print("OK" if ok else "FAILED")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
