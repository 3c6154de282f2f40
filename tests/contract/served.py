"""Checks what the contract run cannot leave to the fuzzer, against a running server.

usage: served.py BASE_URL ADMIN_KEY COMMITTED_OPENAPI_JSON OUT_FILE

- GET /openapi.json answers application/json, byte for byte the committed document (the
  binary embeds it, so a difference means a stale build); it is written to OUT_FILE.
- GET /docs, /docs/ and the files the page loads answer 200 with the right types, and the page
  loads nothing from another origin.
- GET /events (left out of the fuzzing: the stream never ends) answers text/event-stream with
  X-Stability: experimental and the rate-limit headers, and 401 without a key.

Prints one line per check; exits 1 if any failed. Standard library only.
"""

import http.client
import re
import sys
import urllib.parse

RATE_LIMIT_HEADERS = [
    "X-RateLimit-Limit",
    "X-RateLimit-Remaining",
    "X-RateLimit-Reset",
    "RateLimit-Policy",
    "RateLimit",
]

failures = []


def check(ok, what):
    print(("ok     " if ok else "FAILED ") + what)
    if not ok:
        failures.append(what)


def request(base, path, headers=None, read_body=True):
    url = urllib.parse.urlsplit(base)
    conn = http.client.HTTPConnection(url.hostname, url.port, timeout=10)
    conn.request("GET", path, headers=headers or {})
    response = conn.getresponse()
    body = response.read() if read_body else b""
    conn.close()
    return response, body


def main(base, admin_key, committed_path, out_path):
    response, body = request(base, "/openapi.json")
    check(response.status == 200, f"GET /openapi.json answers 200 (got {response.status})")
    check(
        (response.getheader("Content-Type") or "").startswith("application/json"),
        "GET /openapi.json is application/json",
    )
    with open(committed_path, "rb") as committed:
        check(
            body == committed.read(),
            "GET /openapi.json is the committed openapi/openapi.json (rebuild if not)",
        )
    with open(out_path, "wb") as out:
        out.write(body)

    for path in ["/docs", "/docs/"]:
        response, page = request(base, path)
        check(
            response.status == 200
            and (response.getheader("Content-Type") or "").startswith("text/html"),
            f"GET {path} answers the reference page",
        )
    assets = re.findall(rb'(?:src|href)="([^"]+)"', page)
    foreign = [a for a in assets if re.match(rb"^(?:[a-z]+:)?//", a)]
    check(not foreign, f"the reference page loads nothing from elsewhere {foreign or ''}")
    expected_types = {b".js": "text/javascript", b".css": "text/css"}
    for asset in assets:
        if asset.startswith(b"data:"):
            continue
        response, _ = request(base, asset.decode())
        kind = expected_types.get(asset[asset.rfind(b".") :], "")
        check(
            response.status == 200 and (response.getheader("Content-Type") or "").startswith(kind),
            f"GET {asset.decode()} answers 200 {kind}",
        )
    response, script = request(base, "/docs/docs.js")
    check(b"validatorUrl: null" in script, "the reference page calls no online validator")

    response, _ = request(
        base, "/events", {"X-API-Key": admin_key, "Accept": "text/event-stream"}, read_body=False
    )
    check(response.status == 200, f"GET /events answers 200 (got {response.status})")
    check(
        (response.getheader("Content-Type") or "").startswith("text/event-stream"),
        "GET /events is text/event-stream",
    )
    check(
        response.getheader("X-Stability") == "experimental",
        "GET /events carries X-Stability: experimental",
    )
    missing = [h for h in RATE_LIMIT_HEADERS if response.getheader(h) is None]
    check(not missing, f"GET /events carries the rate-limit headers {missing or ''}")

    response, body = request(base, "/events")
    check(
        response.status == 401 and b'"unauthorized"' in body,
        f"GET /events without a key answers 401 unauthorized (got {response.status})",
    )
    return 1 if failures else 0


if __name__ == "__main__":
    if len(sys.argv) != 5:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        sys.exit(2)
    sys.exit(main(*sys.argv[1:]))
