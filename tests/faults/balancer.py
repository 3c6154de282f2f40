"""The README's nginx configuration in front of two servers, one of them frozen (SIGSTOP) or
dead: reads still come back from the other, and with both gone every request is answered
502 or 504 instead of hanging. The configuration is taken from README.md as printed (only
its ports are changed), so the case fails when the README's advice would stall the tills.

Registered into cases.ALL by cases.py. Needs nginx (Debian's nginx-light, which
./scripts/test.sh installs); without it the case fails, it does not skip.
"""

from __future__ import annotations

import http.client
import os
import re
import shutil
import signal
import socket
import subprocess
from pathlib import Path

import cases
from support import ADMIN_KEY, Server, workdir

README = Path(__file__).resolve().parent.parent.parent / "README.md"
# Longest a till may wait for one answer before the case calls it hung: past the README's
# proxy_read_timeout twice over (a read tried on both servers), far below its old 1 h.
HUNG = 120.0


def readme_nginx_config() -> str:
    """The ```nginx block of the README's load-balancer step."""
    text = README.read_text(encoding="utf-8")
    blocks = re.findall(r"```nginx\n(.*?)```", text, flags=re.S)
    assert len(blocks) == 1, f"expected one nginx block in README.md, found {len(blocks)}"
    return blocks[0]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Nginx:
    """nginx in the foreground with the README's block, on 127.0.0.1:`port`."""

    def __init__(self, dir: Path, first: Server, second: Server):
        binary = shutil.which("nginx") or "/usr/sbin/nginx"
        assert Path(binary).exists(), "nginx is not installed (Debian's nginx-light)"
        block = readme_nginx_config()
        assert "127.0.0.1:8081" in block and "127.0.0.1:8082" in block and "listen 8080;" in block
        self.port = free_port()
        block = (block.replace("127.0.0.1:8081", f"127.0.0.1:{first.port}")
                 .replace("127.0.0.1:8082", f"127.0.0.1:{second.port}")
                 .replace("listen 8080;", f"listen 127.0.0.1:{self.port};"))
        user = "user root;\n" if os.geteuid() == 0 else ""
        temp = "".join(f"    {kind}_temp_path {dir}/{kind};\n"
                       for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
        conf = dir / "nginx.conf"
        conf.write_text(
            f"{user}daemon off;\nworker_processes 1;\npid {dir}/nginx.pid;\n"
            f"error_log {dir}/error.log warn;\nevents {{}}\n"
            f"http {{\n    access_log off;\n{temp}{block}}}\n")
        self.proc = subprocess.Popen([binary, "-p", str(dir), "-c", str(conf)],
                                     stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        # Ready once it accepts a connection (or gone, with its reason on stderr).
        while True:
            if self.proc.poll() is not None:
                raise AssertionError(f"nginx did not start: {self.proc.stderr.read()!r}")
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                break
            except OSError:
                continue

    def get(self, path: str) -> int:
        """The status of a GET through nginx; fails when no answer comes within HUNG."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=HUNG)
        try:
            conn.request("GET", path, headers={"X-API-Key": ADMIN_KEY})
            res = conn.getresponse()
            res.read()
            return res.status
        except TimeoutError as err:
            raise AssertionError(f"GET {path} through nginx hung past {HUNG:.0f} s") from err
        finally:
            conn.close()

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


class Shop:
    """Two servers on stores of their own behind the README's nginx."""

    def __enter__(self):
        self.dir = workdir()
        self.first = Server(cases.BINARY, self.dir / "a.sqlite")
        self.second = Server(cases.BINARY, self.dir / "b.sqlite")
        self.nginx = Nginx(self.dir, self.first, self.second)
        return self

    def __exit__(self, *exc):
        for server in (self.first, self.second):
            if server.proc.poll() is None:
                server.proc.send_signal(signal.SIGCONT)
            server.kill()
        self.nginx.stop()
        shutil.rmtree(self.dir, ignore_errors=True)


@cases.case
def the_readmes_nginx_answers_reads_past_a_frozen_server_and_504_or_502_when_both_are():
    with Shop() as shop:
        assert [shop.nginx.get("/pets") for _ in range(2)] == [200] * 2
        # One frozen (SIGSTOP): every read is answered, by the other server.
        shop.first.proc.send_signal(signal.SIGSTOP)
        assert [shop.nginx.get("/pets") for _ in range(3)] == [200] * 3
        # Both frozen: the read is answered (504, or 502 while nginx holds one as failed),
        # never held for the old hour.
        shop.second.proc.send_signal(signal.SIGSTOP)
        status = shop.nginx.get("/pets")
        assert status in (502, 504), status


@cases.case
def the_readmes_nginx_answers_past_a_dead_server_and_502_when_both_are():
    with Shop() as shop:
        shop.first.kill()
        assert [shop.nginx.get("/pets") for _ in range(4)] == [200] * 4
        shop.second.kill()
        status = shop.nginx.get("/pets")
        assert status == 502, status
