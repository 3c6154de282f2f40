"""Shared by the benchmark's scripts (bench/), tests/crash/run.py, tests/faults,
tests/postgres/two_processes.py, tests/desktop/drive.py and the Windows checks
(tests/windows/run.py, scripts/windows/check.py); Python 3 standard library only.

Builds the binaries, starts a server on port 0 and reads its address from the first line it
prints, times the start to the first 200 of GET /health, reads its memory and a thread's CPU
time from /proc, talks JSON over keep-alive HTTP/1.1, reports a suite's checks (`Checks`), and
says whether a pet's stock history adds up (`stock_history_problem`). Nothing here knows about
benchmarks or crash cycles.
"""

from __future__ import annotations

import http.client
import json
import os
import queue
import re
import signal
import socket
import subprocess
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LISTENING = re.compile(r"listening on http://(\S+)")


def target_dir() -> Path:
    return Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))


def build(packages: list[str], release: bool) -> Path:
    """Runs cargo build for the packages; returns the profile's output folder."""
    cmd = ["cargo", "build", "--quiet"] + (["--release"] if release else [])
    for package in packages:
        cmd += ["-p", package]
    subprocess.run(cmd, cwd=ROOT, check=True)
    return target_dir() / ("release" if release else "debug")


class Server:
    """A server process started with --bind 127.0.0.1:0.

    `start_ms` is the time from spawning the process to the first 200 of GET /health.
    Its output goes to `log` (a file), so a chatty server never blocks on a full pipe.
    """

    def __init__(self, argv: list[str], env: dict | None = None, log: Path | None = None,
                 health: str = "/health", timeout: float = 30.0, address: str | None = None,
                 preexec_fn=None):
        """`address`: where a server that does not print "listening on" was told to listen;
        `preexec_fn`: run in the child before the server starts (to set its limits)."""
        self.argv = argv
        self.log_path = log
        log_file = open(log, "ab") if log else subprocess.DEVNULL
        full_env = dict(os.environ, **(env or {}))
        lines: queue.Queue = queue.Queue()
        t0 = time.perf_counter()
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=log_file,
                                     env=full_env, cwd=ROOT, preexec_fn=preexec_fn)
        threading.Thread(target=self._drain, args=(lines, log_file), daemon=True).start()
        deadline = t0 + timeout
        while address is None:
            try:
                line = lines.get(timeout=max(0.0, deadline - time.perf_counter()))
            except queue.Empty:
                self.kill()
                raise RuntimeError(f"{argv[0]} printed no address within {timeout} s")
            if line is None:
                raise RuntimeError(f"{argv[0]} exited with {self.proc.wait()} before listening"
                                   + (f"; see {log}" if log else ""))
            match = LISTENING.search(line)
            if match:
                address = match.group(1)
        self.addr = address
        self.host, port = self.addr.rsplit(":", 1)
        self.port = int(port)
        self.base = f"http://{self.addr}"
        while True:
            if self._health_ok(health):
                break
            if self.proc.poll() is not None:
                raise RuntimeError(f"{argv[0]} exited before answering {health}")
            if time.perf_counter() > deadline:
                self.kill()
                raise RuntimeError(f"{argv[0]} did not answer {health} with 200 in {timeout} s")
            time.sleep(0.001)
        self.start_ms = (time.perf_counter() - t0) * 1000.0

    def _drain(self, lines: queue.Queue, log_file) -> None:
        for raw in self.proc.stdout:
            lines.put(raw.decode("utf-8", "replace"))
            if log_file is not subprocess.DEVNULL:
                log_file.write(raw)
                log_file.flush()
        if log_file is not subprocess.DEVNULL:
            log_file.close()
        lines.put(None)

    def _health_ok(self, path: str) -> bool:
        conn = http.client.HTTPConnection(self.host, self.port, timeout=1.0)
        try:
            conn.request("GET", path)
            return conn.getresponse().status == 200
        except OSError:
            return False
        finally:
            conn.close()

    @property
    def pid(self) -> int:
        return self.proc.pid

    def memory_kib(self) -> dict:
        """VmRSS (resident now) and VmHWM (peak resident) from /proc, in KiB."""
        out = {}
        with open(f"/proc/{self.pid}/status") as status:
            for line in status:
                key, _, value = line.partition(":")
                if key in ("VmRSS", "VmHWM"):
                    out[key] = int(value.split()[0])
        return out

    def thread_cpu_ns(self, name: str | None = None) -> int:
        """CPU time (ns) the server's threads called `name` (all its threads, without a name)
        have run, from /proc's schedstat."""
        total = 0
        for task in Path(f"/proc/{self.pid}/task").iterdir():
            try:
                if name is None or (task / "comm").read_text().strip() == name:
                    total += int((task / "schedstat").read_text().split()[0])
            except (OSError, ValueError):
                pass  # the thread ended while being read
        return total

    def stop(self, timeout: float = 15.0) -> int:
        """SIGTERM, then SIGKILL if it has not exited within the timeout."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.kill()
        return self.proc.wait()

    def kill(self) -> None:
        """SIGKILL: no chance to flush or clean up."""
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


class Checks:
    """A suite's checks as it makes them: each printed at once, `ok  NAME` or `FAIL NAME
    (detail)` (after `prefix`, such as a crash cycle), the failed names kept for the summary
    and the exit status. The desktop suite's shell scripts print their checks in the same
    shape (tests/desktop/checks.sh) and count drive.py's lines with their own."""

    def __init__(self):
        self.passed = 0
        self.failed: list[str] = []

    def check(self, name: str, ok: bool, detail: str = "", prefix: str = "") -> bool:
        if ok:
            self.passed += 1
        else:
            self.failed.append(name)
        print(f"{prefix}{'ok  ' if ok else 'FAIL'} {name}" + (f" ({detail})" if detail else ""), flush=True)
        return ok

    def summary(self) -> str:
        return f"{self.passed} passed, {len(self.failed)} failed" + (
            ": " + ", ".join(self.failed) if self.failed else "")

    def status(self) -> int:
        """The process's exit status: 1 when any check failed."""
        return 1 if self.failed else 0


class Client:
    """JSON over one keep-alive HTTP/1.1 connection; reconnects after a connection error.

    `call` returns (status, headers with lower-case names, decoded JSON body or None).
    Connection errors propagate as OSError / http.client.HTTPException.
    """

    def __init__(self, base: str, key: str | None = None, timeout: float = 10.0):
        host, port = base.removeprefix("http://").rsplit(":", 1)
        self.host, self.port, self.key, self.timeout = host, int(port), key, timeout
        self.conn: http.client.HTTPConnection | None = None

    def call(self, method: str, path: str, body=None, headers: dict | None = None):
        if self.conn is None:
            self.conn = http.client.HTTPConnection(self.host, self.port, timeout=self.timeout)
        all_headers = {"Accept": "application/json"}
        if self.key:
            all_headers["X-API-Key"] = self.key
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            all_headers["Content-Type"] = "application/json"
        all_headers.update(headers or {})
        try:
            self.conn.request(method, path, body=data, headers=all_headers)
            response = self.conn.getresponse()
            raw = response.read()
        except (OSError, http.client.HTTPException):
            self.close()
            raise
        head = {k.lower(): v for k, v in response.getheaders()}
        decoded = None
        if raw:
            try:
                decoded = json.loads(raw)
            except ValueError:
                decoded = raw.decode("utf-8", "replace")
        return response.status, head, decoded

    def expect(self, status: int, method: str, path: str, body=None, headers=None):
        """Like call, but raises unless the answer has the expected status; returns the body."""
        got, _, decoded = self.call(method, path, body, headers)
        if got != status:
            raise RuntimeError(f"{method} {path}: expected {status}, got {got}: {decoded}")
        return decoded

    def pages(self, path: str, limit: int = 500):
        """Every item of a paged list (limit + offset), in the order the server gives."""
        sep = "&" if "?" in path else "?"
        offset = 0
        while True:
            page = self.expect(200, "GET", f"{path}{sep}limit={limit}&offset={offset}")
            yield from page
            if len(page) < limit:
                return
            offset += limit

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
            self.conn = None


def free_port() -> int:
    """A loopback port nothing listens on now (for servers that cannot take port 0)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_help(binary: Path) -> str:
    """`petstore serve --help`, to learn which settings this build has."""
    done = subprocess.run([str(binary), "serve", "--help"], capture_output=True, text=True)
    return done.stdout + done.stderr


def rate_limit_switch(binary: Path) -> dict | None:
    """The environment that turns rate limiting off, if this build has such a setting."""
    if "PETSTORE_RATE_LIMITS" in serve_help(binary):
        return {"PETSTORE_RATE_LIMITS": "off"}
    return None


def create_key(admin: Client, name: str, role: str = "staff") -> str | None:
    """A key of its own on an enterprise plan with the highest limits; None if refused."""
    try:
        status, _, body = admin.call("POST", "/admin/keys", {
            "name": name, "role": role, "plan": "enterprise",
            "perMinute": 1_000_000, "perDay": 100_000_000,
        })
    except (OSError, http.client.HTTPException):
        return None
    if status == 201 and isinstance(body, dict) and body.get("secret"):
        return body["secret"]
    return None


def stock_history_problem(client: Client, pet: int, quantity: int, orders: list[dict]) -> str | None:
    """None if the pet's stock history sums to its stock `quantity`, each entry follows from
    the one before, and the orders it records are exactly `orders`; otherwise what does not.
    The crash and PostgreSQL suites check every pet they wrote to with it."""
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
