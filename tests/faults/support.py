"""What the fault cases share: a real server process on a fresh store, and plain HTTP calls.

Nothing here talks to anything but 127.0.0.1.
"""

from __future__ import annotations

import atexit
import http.client
import json
import os
import resource
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "bench"))
import harness  # noqa: E402

ADMIN_KEY = "psk_fault_suite_admin_key_0123456789abcdef"


class Skip(Exception):
    """The case cannot run on this machine; the message says why."""


def raise_own_file_limit(want: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(want, hard), hard))


class Server(harness.Server):
    """`petstore serve` on 127.0.0.1 (port chosen by the kernel) over `db`, started by the
    harness (bench/harness.py), which waits for its first 200 of GET /health."""

    def __init__(self, binary: Path, db: Path, *, nofile: int | None = None,
                 env: dict | None = None, args: list[str] | None = None):
        self.db = db

        def limit_files():
            if nofile is not None:
                resource.setrlimit(resource.RLIMIT_NOFILE, (nofile, nofile))

        super().__init__(
            [str(binary), "--db", str(db), "serve", "--bind", "127.0.0.1:0", *(args or [])],
            env={"PETSTORE_ADMIN_KEY": ADMIN_KEY, "PETSTORE_LOG": "warn", **(env or {})},
            preexec_fn=limit_files)

    def call(self, method: str, path: str, body=None, key: str | None = ADMIN_KEY,
             headers: dict | None = None, timeout: float = 5.0):
        """One request on a fresh connection: (status, headers, parsed body or text)."""
        conn = http.client.HTTPConnection(self.host, self.port, timeout=timeout)
        try:
            all_headers = dict(headers or {})
            if key:
                all_headers["X-API-Key"] = key
            data = None
            if body is not None:
                data = json.dumps(body)
                all_headers["Content-Type"] = "application/json"
            conn.request(method, path, body=data, headers=all_headers)
            res = conn.getresponse()
            raw = res.read()
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = raw.decode(errors="replace")
            return res.status, {k.lower(): v for k, v in res.getheaders()}, parsed
        finally:
            conn.close()

    def connect(self) -> socket.socket:
        return socket.create_connection((self.host, self.port), timeout=5)

    def key(self, role: str, name: str = "k") -> tuple[int, str]:
        status, _, body = self.call("POST", "/admin/keys",
                                    {"name": name, "role": role, "plan": "enterprise",
                                     "perMinute": 100000, "perDay": 1000000})
        assert status == 201, (status, body)
        return body["id"], body["secret"]

    def category(self, name: str = "Dogs") -> int:
        status, _, body = self.call("POST", "/categories", {"name": name})
        if status == 409:
            status, _, body = self.call("GET", "/categories")
            return next(c["id"] for c in body if c["name"] == name)
        assert status == 201, (status, body)
        return body["id"]

    def pet(self, stock: int = 10, name: str = "Rex") -> int:
        category = self.category()
        status, _, body = self.call("POST", "/pets", {"name": name, "status": "available",
                                                      "categoryId": category})
        assert status == 201, (status, body)
        pet = body["id"]
        status, _, body = self.call("PUT", f"/store/inventory/{pet}", {"quantity": stock})
        assert status == 200, (status, body)
        return pet

    def terminate(self, timeout: float = 15.0) -> tuple[int, float]:
        """SIGTERM; (exit code, seconds it took)."""
        t0 = time.monotonic()
        self.proc.send_signal(signal.SIGTERM)
        try:
            code = self.proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            return -9, time.monotonic() - t0
        return code, time.monotonic() - t0

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.kill()


def start_refused(binary: Path, db: Path, env: dict | None = None,
                  args: list[str] | None = None, timeout: float = 15) -> tuple[int, str, str]:
    """Starts `petstore serve` expecting it to refuse: (exit code, stdout, stderr)."""
    full_env = dict(os.environ)
    full_env.update({"PETSTORE_ADMIN_KEY": ADMIN_KEY, "PETSTORE_LOG": "warn"})
    full_env.update(env or {})
    proc = subprocess.run(
        [str(binary), "--db", str(db), "serve", "--bind", "127.0.0.1:0", *(args or [])],
        capture_output=True, text=True, env=full_env, timeout=timeout)
    return proc.returncode, proc.stdout, proc.stderr


def one_clear_line(stderr: str) -> str:
    """The refusal's text; asserts it is one line with no backtrace or panic."""
    lines = [line for line in stderr.splitlines() if line.strip()]
    assert len(lines) == 1, f"expected one line, got {lines!r}"
    assert "panicked" not in lines[0] and "backtrace" not in lines[0].lower(), lines[0]
    return lines[0]


_WORKDIRS: list[Path] = []


def workdir() -> Path:
    """A new folder for one case's store; removed when the suite ends (a case's store can be
    60 MiB, and a run makes about fifteen)."""
    made = Path(tempfile.mkdtemp(prefix="petstore-faults-"))
    _WORKDIRS.append(made)
    return made


@atexit.register
def _remove_workdirs() -> None:
    for made in _WORKDIRS:
        shutil.rmtree(made, ignore_errors=True)
