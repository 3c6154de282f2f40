"""The fault cases. Each function's name states what the program must do."""

from __future__ import annotations

import socket
import threading
import time
from pathlib import Path

from support import ADMIN_KEY, Server, raise_own_file_limit, workdir

BINARY: Path = Path("target/debug/petstore")
ALL: list = []


def case(fn):
    ALL.append((fn.__name__, fn))
    return fn


class Slowloris(threading.Thread):
    """Holds `count` connections that each send half a request, a header line now and then,
    and never finish; reopens any the server closes."""

    def __init__(self, server: Server, count: int, source: str = "127.0.0.1"):
        super().__init__(daemon=True)
        self.server, self.count, self.source = server, count, source
        self.socks: list[socket.socket] = []
        self.stop = threading.Event()
        self.opened = 0

    def open_one(self) -> socket.socket | None:
        try:
            s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
            s.setblocking(True)
            s.settimeout(2)
            s.bind((self.source, 0))
            s.connect((self.server.host, self.server.port))
            s.sendall(b"GET /pets HTTP/1.1\r\nHost: shop\r\nX-Api-Key: ")
            s.setblocking(False)
            self.opened += 1
            return s
        except OSError:
            return None

    def run(self) -> None:
        while len(self.socks) < self.count and not self.stop.is_set():
            s = self.open_one()
            if s is not None:
                self.socks.append(s)
        while not self.stop.is_set():
            for i, s in enumerate(self.socks):
                try:
                    s.send(b"a")
                except OSError:
                    s.close()
                    fresh = self.open_one()
                    if fresh is not None:
                        self.socks[i] = fresh
                if self.stop.is_set():
                    break
            self.stop.wait(1.0)
        for s in self.socks:
            s.close()


def timed(fn):
    t0 = time.monotonic()
    result = fn()
    return result, time.monotonic() - t0


@case
def slowloris_of_1100_connections_under_1024_files_leaves_health_and_pets_answered_within_1s():
    raise_own_file_limit(4096)
    d = workdir()
    with Server(BINARY, d / "store.sqlite", nofile=1024) as server:
        server.pet()
        attack = Slowloris(server, 1100)
        attack.start()
        deadline = time.monotonic() + 60
        while attack.opened < 1100 and time.monotonic() < deadline:
            time.sleep(0.2)
        assert attack.opened >= 1100, f"only {attack.opened} attack connections opened"
        slowest = 0.0
        try:
            for _ in range(20):
                (status, _, _), took = timed(lambda: server.call("GET", "/health", key=None, timeout=3))
                assert status == 200 and took < 1.0, f"/health: {status} in {took:.2f} s"
                (status, _, body), took2 = timed(lambda: server.call("GET", "/pets", timeout=3))
                assert status == 200 and took2 < 1.0, f"/pets: {status} in {took2:.2f} s"
                assert isinstance(body, list) and len(body) == 1, body
                slowest = max(slowest, took, took2)
                time.sleep(0.25)
        finally:
            attack.stop.set()
            attack.join(10)
        assert server.proc.poll() is None, "the server died"
        print(f"     slowest answer {slowest * 1000:.0f} ms while {attack.opened} attack connections were opened")
