"""Prepares a fresh store for the contract run, through the interface itself.

usage: prepare.py BASE_URL ADMIN_KEY

- Lifts the limits of the admin key the run uses (its own key, found by listing keys) to the
  highest a key may have, so the fuzzer measures the interface, not the quota. The rate-limit
  headers are still sent and checked.
- Adds a category and a few pets with plenty of stock, so that generated ids often name real
  records and orders can be placed, completed and cancelled.
- Adds a staff member who is a manager, as a shop would first: the last enabled one always
  stays, so the fuzzer's changes to members cannot all be refused for it.
- Creates a second key for the operations that change or revoke a key, and prints its id: the
  run points those operations at it, so that the fuzzer cannot demote or revoke its own key
  half-way.

Standard library only.
"""

import json
import sys
import urllib.request


def call(base, admin_key, method, path, body=None):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(base + path, data=data, method=method)
    req.add_header("X-API-Key", admin_key)
    if data is not None:
        req.add_header("Content-Type", "application/json")
    with urllib.request.urlopen(req, timeout=10) as response:
        return json.load(response)


def main(base, admin_key):
    keys = call(base, admin_key, "GET", "/admin/keys")
    own = [k for k in keys if admin_key.startswith(k["prefix"]) and k["role"] == "admin"]
    if len(own) != 1:
        sys.exit(f"prepare: cannot tell the run's own key among {len(keys)} keys")
    call(
        base,
        admin_key,
        "PATCH",
        f"/admin/keys/{own[0]['id']}",
        {"plan": "enterprise", "perMinute": 1000000, "perDay": 100000000},
    )
    target = call(
        base,
        admin_key,
        "POST",
        "/admin/keys",
        {"name": "contract target", "role": "readonly", "plan": "free"},
    )
    call(base, admin_key, "POST", "/admin/staff", {"name": "contract manager", "role": "admin", "pin": "8642"})
    category = call(base, admin_key, "POST", "/categories", {"name": "contract animals"})
    for n in range(1, 6):
        pet = call(
            base,
            admin_key,
            "POST",
            "/pets",
            {"name": f"contract pet {n}", "categoryId": category["id"], "status": "available"},
        )
        call(base, admin_key, "PUT", f"/store/inventory/{pet['id']}", {"quantity": 1000000})
    print(target["id"])


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit("usage: prepare.py BASE_URL ADMIN_KEY")
    main(*sys.argv[1:])
