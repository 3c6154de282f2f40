#!/usr/bin/env python3
"""Fault suite: does to the real `petstore` binary what a hostile network, a full disk and a
second copy of the program would, and checks that the tills keep working.

Every case is a function whose name states the expected behaviour. Each starts its own
server on a fresh store in a temporary folder, on 127.0.0.1 and a port of its own. All
traffic stays on loopback. Prints one line per case, then `N passed, M failed`; exits 1 on
any failure. A case that cannot run here (no permission to mount a tmpfs) prints why and
counts as skipped.

Usage: python3 tests/faults/run.py [--binary target/debug/petstore] [-k SUBSTRING]
"""

from __future__ import annotations

import argparse
import sys
import time
import traceback
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

import cases  # noqa: E402
from support import Skip  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    root = Path(__file__).resolve().parent.parent.parent
    parser.add_argument("--binary", type=Path, default=root / "target" / "debug" / "petstore")
    parser.add_argument("-k", dest="only", default="", help="run only cases whose name has this")
    args = parser.parse_args()
    if not args.binary.exists():
        print(f"no binary at {args.binary}; run `cargo build --bin petstore` first")
        return 2
    cases.BINARY = args.binary.resolve()
    selected = [(name, fn) for name, fn in cases.ALL if args.only in name]
    passed = failed = skipped = 0
    started = time.monotonic()
    for name, fn in selected:
        t0 = time.monotonic()
        try:
            fn()
        except Skip as why:
            skipped += 1
            print(f"skip {name}: {why}", flush=True)
            continue
        except Exception as err:  # noqa: BLE001 - every failure is reported, then the next case runs
            failed += 1
            print(f"FAIL {name} ({time.monotonic() - t0:.1f} s): {err}", flush=True)
            if not isinstance(err, AssertionError):
                traceback.print_exc()
            continue
        passed += 1
        print(f"ok   {name} ({time.monotonic() - t0:.1f} s)", flush=True)
    print(f"fault suite took {time.monotonic() - started:.0f} s; {skipped} skipped")
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
