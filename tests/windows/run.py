#!/usr/bin/env python3
"""What differs on Windows, checked against petstore.exe under Wine.

Each check starts the Windows binary (through the `petstore` wrapper tests/windows/run.sh
writes, which runs `wine petstore.exe`) and looks at what a shop would see:

  - a first start with no --db makes the store in %LOCALAPPDATA%\\petstore\\data (the
    Windows profile's AppData\\Local), and says so with a Windows path;
  - a store an earlier version kept in %APPDATA%\\petstore\\petstore\\data is moved there,
    with a log line, or used where it is (and said so) when it cannot be moved;
  - a second petstore on the same store is refused while the first serves (the store's lock
    file, taken with LockFileEx);
  - Ctrl+C (a console control event) stops the server gracefully: exit 0, the store closed
    (its WAL emptied), as on Linux;
  - backups taken by the server and by `petstore backup` carry dated names without `:`, and
    `petstore restore` puts one back, keeping the replaced store under a name without `:`;
  - a store or a backup named as a Windows device (`NUL.sqlite`, `con`) is refused with a plain
    sentence, never written into the device;
  - CSV exports end their lines with CRLF, and an import of a file with CRLF lines (as Excel
    on Windows saves it) reads its cells without a stray carriage return;
  - the log file is rotated by size while the server writes it;
  - the staff UI and the docs page are served (embedded in the .exe, debug builds included);
  - `petstore service install` registers a Windows service for the store, Wine's service
    manager starts it (`net start`), it serves, `net stop` stops it gracefully (the store
    closed), and `petstore service uninstall` removes it.

Prints one line per check, then `N passed, M failed`; exits 1 on any failure.
Usage: python3 tests/windows/run.py --binary target/windows-wine/petstore --prefix WINEPREFIX
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "bench"))
import harness  # noqa: E402

BACKUP_NAME = re.compile(r"^petstore-(manual-)?\d{4}-\d{2}-\d{2}-\d{6}\.sqlite$")


def run(binary: Path, *args: str, env: dict | None = None) -> subprocess.CompletedProcess:
    """Runs a petstore command to its end; its output as text."""
    return subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ, **(env or {})))


def raw_call(base: str, key: str, method: str, path: str, data: bytes | None = None,
             headers: dict | None = None) -> tuple[int, bytes]:
    """One request with a raw body; the status and the raw answer (for CSV, which is no JSON)."""
    request = urllib.request.Request(base + path, data=data, method=method,
                                     headers={"X-API-Key": key, "Accept": "text/csv", **(headers or {})})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, answer.read()
    except urllib.error.HTTPError as error:
        return error.code, error.read()


def read_stdout(server: harness.Server) -> str:
    """What the server printed so far (its log file holds stdout and stderr)."""
    return server.log_path.read_text(errors="replace") if server.log_path else ""


def stop_gracefully(server: harness.Server, within: float = 90) -> int | None:
    """Ctrl+C, then the server's exit code once it has stopped (None if not within `within` s).

    Not `server.stop()`: its SIGTERM ends a Wine process at once, as Windows' TerminateProcess
    would, so the log lines still queued (written every 50 ms) are lost. After a Ctrl+C the
    server writes them all before it exits, so its log can be read whole.
    """
    server.proc.send_signal(signal.SIGINT)
    try:
        return server.proc.wait(within)
    except subprocess.TimeoutExpired:
        return None


def tail(text: str, lines: int = 12) -> str:
    """The last lines of `text`, for a failure's detail."""
    return " | ".join(text.strip().splitlines()[-lines:])


def profile(prefix: Path) -> Path:
    """The Wine prefix's user profile, as a Linux path."""
    users = [u for u in (prefix / "drive_c" / "users").iterdir() if u.name != "Public"]
    if len(users) != 1:
        raise RuntimeError(f"expected one user in the Wine prefix, found {users}")
    return users[0]


def data_folder(prefix: Path) -> Path:
    """%LOCALAPPDATA%\\petstore\\data inside the Wine prefix, as a Linux path."""
    return profile(prefix) / "AppData" / "Local" / "petstore" / "data"


def earlier_folder(prefix: Path) -> Path:
    """%APPDATA%\\petstore\\petstore\\data, where earlier versions kept the store."""
    return profile(prefix) / "AppData" / "Roaming" / "petstore" / "petstore" / "data"


def wine(*args: str) -> subprocess.CompletedProcess:
    """A Wine program (sc, net, reg) in the same prefix, to its end; its output as text.

    The output goes through files, not pipes: a Wine program that starts Wine's service manager
    hands its standard handles down to it, and a pipe held open by the manager would never end.
    """
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        done = subprocess.run(["wine", *args], stdin=subprocess.DEVNULL, stdout=out, stderr=err,
                              timeout=120)
        out.seek(0)
        err.seek(0)
        return subprocess.CompletedProcess(done.args, done.returncode,
                                           out.read().decode(errors="replace"),
                                           err.read().decode(errors="replace"))


def service_managers(prefix: Path) -> int:
    """How many of Wine's service managers (services.exe) run in this prefix now."""
    wanted = f"WINEPREFIX={prefix}".encode()
    count = 0
    for proc in Path("/proc").iterdir():
        try:
            if (proc.name.isdigit() and b"services.exe" in (proc / "cmdline").read_bytes()
                    and wanted in (proc / "environ").read_bytes().split(b"\0")):
                count += 1
        except OSError:
            pass  # ended while looked at, or not ours to read
    return count


def answers(base: str, key: str, path: str, within: float) -> tuple[int, bytes]:
    """GET `path` until it answers (a service has no output to wait on), at most `within` s."""
    deadline = time.monotonic() + within
    while True:
        try:
            return raw_call(base, key, "GET", path, headers={"Accept": "application/json"})
        except (urllib.error.URLError, ConnectionError, OSError):
            if time.monotonic() > deadline:
                return 0, b""
            time.sleep(0.5)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", type=Path, required=True, help="runs petstore.exe under Wine")
    parser.add_argument("--prefix", type=Path, required=True, help="the Wine prefix it uses")
    args = parser.parse_args()
    binary = args.binary.resolve()
    results = harness.Checks()
    work = Path(tempfile.mkdtemp(prefix="petstore-windows-"))
    env_clean = {k: v for k, v in os.environ.items() if not k.startswith("PETSTORE_")}
    os.environ.clear()
    os.environ.update(env_clean)
    admin_key = "windows-admin-5d1f0c7a9e3b42e8b6a4c2d0f8e6a4c2"

    # The data folder: a first start with no --db.
    folder = data_folder(args.prefix)
    earlier = earlier_folder(args.prefix)
    shutil.rmtree(folder.parent, ignore_errors=True)
    shutil.rmtree(earlier.parent.parent, ignore_errors=True)
    first = harness.Server([str(binary), "serve", "--bind", "127.0.0.1:0"], log=work / "first.log",
                           timeout=90)
    try:
        out = read_stdout(first)
        store_line = next((line for line in out.splitlines() if "Store: " in line), "")
        shown = store_line.split("Store: ", 1)[-1].strip()
        results.check("a first start with no --db makes the store in %LOCALAPPDATA%\\petstore\\data",
                      (folder / "store.sqlite").is_file() and not earlier.exists()
                      and re.fullmatch(r"C:\\users\\[^\\]+\\AppData\\Local\\petstore\\data"
                                       r"\\store\.sqlite", shown) is not None,
                      f"shown as {shown!r}")
        backups_line = next((line for line in out.splitlines() if line.startswith("Backups:")), "")
        results.check("the backups folder is named as a Windows path beside the store",
                      "\\data\\backups" in backups_line and "/" not in backups_line.split(" into ")[-1],
                      backups_line)
        results.check("a new store's admin key is printed once",
                      "This is a new store. Its admin key" in out)

        second = run(binary, "serve", "--bind", "127.0.0.1:0")
        results.check("a second petstore on the same store is refused while the first serves",
                      second.returncode != 0 and "already open by another petstore" in second.stderr,
                      f"exit {second.returncode}: {second.stderr.strip()[-200:]}")

        code = stop_gracefully(first, within=60)
        wal = folder / "store.sqlite-wal"
        log = read_stdout(first)
        results.check("Ctrl+C stops the server gracefully and closes the store",
                      code == 0 and "stopped" in log and (not wal.exists() or wal.stat().st_size == 0),
                      f"exit {code}, wal {wal.stat().st_size if wal.exists() else 'absent'} bytes")
    finally:
        first.kill()

    # An earlier version's store in %APPDATA%\petstore\petstore\data: moved, once, with a log line.
    earlier.parent.mkdir(parents=True)
    folder.rename(earlier)
    moved = harness.Server([str(binary), "serve", "--bind", "127.0.0.1:0"], log=work / "moved.log",
                           timeout=90)
    try:
        # The log line is written by the log's thread: read the log once the server has stopped.
        code = stop_gracefully(moved)
        out = read_stdout(moved)
        shown = next((line for line in out.splitlines() if "Store: " in line), "").split("Store: ", 1)[-1]
        left = sorted(p.name for p in earlier.parent.parent.rglob("*"))
        results.check("a store in the earlier %APPDATA% folder is moved to %LOCALAPPDATA%, said in the log",
                      code == 0 and re.search(r"moved the store's folder from C:\\users\\[^\\]+\\AppData\\Roaming"
                                r"\\petstore\\petstore\\data to C:\\users\\[^\\]+\\AppData\\Local"
                                r"\\petstore\\data", out) is not None
                      and "\\AppData\\Local\\petstore\\data\\store.sqlite" in shown
                      and "This is a new store" not in out
                      and (folder / "store.sqlite").is_file() and not earlier.parent.parent.exists(),
                      f"exit {code}, shown as {shown.strip()!r}, new folder "
                      f"{sorted(p.name for p in folder.iterdir()) if folder.exists() else 'absent'}, "
                      f"left in the earlier one {left}; log: {tail(out)}")
    finally:
        moved.kill()
    # One that cannot be moved (something else already in the new folder) is used where it is.
    earlier.parent.mkdir(parents=True)
    folder.rename(earlier)
    folder.mkdir()
    (folder / "notes.txt").write_text("not a store")
    kept = run(binary, "keys", "list")
    results.check("a store that cannot be moved is used where it is, and the log says why",
                  kept.returncode == 0 and "using the store in C:\\users\\" in kept.stderr
                  and "\\Roaming\\petstore\\petstore\\data" in kept.stderr
                  and (earlier / "store.sqlite").is_file() and not (folder / "store.sqlite").exists(),
                  f"exit {kept.returncode}: {kept.stderr.strip()[-300:]}")
    shutil.rmtree(folder.parent, ignore_errors=True)
    shutil.rmtree(earlier.parent.parent, ignore_errors=True)

    # Backups and restore, on a store of the test's own.
    db = work / "shop" / "store.sqlite"
    log_file = work / "logs" / "petstore.log"
    server = harness.Server([str(binary), "serve", "--db", str(db), "--bind", "127.0.0.1:0",
                             "--log-file", str(log_file), "--log-max-size", "2K", "--log-keep", "2"],
                            env={"PETSTORE_ADMIN_KEY": admin_key}, log=work / "shop.log", timeout=90)
    try:
        admin = harness.Client(server.base, admin_key, timeout=30)
        pages = {}
        for path in ["/", "/docs", "/docs/docs.js"]:
            status, body = raw_call(server.base, admin_key, "GET", path, headers={"Accept": "*/*"})
            pages[path] = (status, len(body))
        results.check("the staff UI and the docs page are served from the program itself",
                      all(status == 200 and size > 0 for status, size in pages.values()), f"{pages}")
        category = admin.expect(201, "POST", "/categories", {"name": "Fish"})["id"]
        admin.expect(201, "POST", "/pets", {"name": "Goldfish", "categoryId": category,
                                            "status": "available"})
        made = admin.expect(201, "POST", "/admin/backups")
        listed = admin.expect(200, "GET", "/admin/backups")
        names = [b.get("name", "") for b in listed]
        on_disk = sorted(p.name for p in (db.parent / "backups").iterdir())
        results.check("a backup taken by the server has a dated name without ':'",
                      bool(names) and all(BACKUP_NAME.match(n) for n in names)
                      and made.get("name") in on_disk,
                      f"listed {names}, on disk {on_disk}")

        status, raw = raw_call(server.base, admin_key, "GET", "/store/export/pets.csv")
        crlf_ends, line_ends = raw.count(b"\r\n"), raw.count(b"\n")
        results.check("a CSV export ends its lines with CRLF",
                      status == 200 and crlf_ends >= 2 and line_ends == crlf_ends,
                      f"status {status}, {crlf_ends} CRLF of {line_ends} line ends")

        crlf = "category,name,quantity\r\nFish,\"Koi, red\",4\r\nFish,Guppy,7\r\n".encode()
        status, answer = raw_call(server.base, admin_key, "POST", "/store/import/pets", crlf,
                                  {"Content-Type": "text/csv", "Accept": "application/json"})
        summary = json.loads(answer) if answer.startswith(b"{") else answer
        names = sorted(p["name"] for p in admin.pages("/pets"))
        results.check("a CSV with CRLF lines is imported without stray carriage returns",
                      status == 200 and isinstance(summary, dict) and summary.get("created") == 2
                      and names == ["Goldfish", "Guppy", "Koi, red"],
                      f"status {status}, {summary}, names {names}")
        admin.close()

        copy = work / "copies" / "shop-copy.sqlite"
        copy.parent.mkdir()
        cli = run(binary, "--db", str(db), "backup", str(copy))
        results.check("petstore backup copies the live store", cli.returncode == 0 and copy.is_file(),
                      (cli.stdout + cli.stderr).strip()[-200:])

        device = run(binary, "--db", str(db), "backup", str(work / "copies" / "NUL.sqlite"))
        results.check("a backup named as a Windows device (NUL.sqlite) is refused in plain words",
                      device.returncode != 0 and "keeps the name NUL for a device" in device.stderr,
                      f"exit {device.returncode}: {device.stderr.strip()[-200:]}")
        for _ in range(60):
            admin.expect(200, "GET", "/pets?limit=1")
        # Every line written, the last ones included: the files are looked at once it stopped.
        code = stop_gracefully(server)
    finally:
        server.kill()
    logs = sorted(p.name for p in log_file.parent.iterdir())
    sizes = {p.name: p.stat().st_size for p in sorted(log_file.parent.iterdir())}
    newest = log_file.read_text(errors="replace") if log_file.exists() else ""
    results.check("the log file is rotated by size while the server writes it",
                  code == 0 and logs == ["petstore.log", "petstore.log.1", "petstore.log.2"]
                  and "GET /pets" in log_file.with_name("petstore.log.1").read_text(errors="replace"),
                  f"exit {code}, files {sizes}; petstore.log ends: {tail(newest, 4)}")

    con = run(binary, "--db", str(work / "con"), "keys", "list")
    results.check("a store named as a Windows device (con) is refused in plain words",
                  con.returncode != 0 and "keeps the name CON for a device" in con.stderr,
                  f"exit {con.returncode}: {con.stderr.strip()[-200:]}")

    restored = run(binary, "--db", str(db), "restore", str(copy))
    kept = sorted(p.name for p in db.parent.iterdir() if ".before-restore-" in p.name)
    results.check("petstore restore puts a backup back and keeps the replaced store, named without ':'",
                  restored.returncode == 0 and "It holds 3 pets" in restored.stdout
                  and len(kept) == 1 and ":" not in kept[0],
                  f"exit {restored.returncode}: {restored.stdout.strip()[-300:]} {restored.stderr.strip()[-200:]}; kept {kept}")

    check_service(binary, args.prefix.resolve(), results, work, db, admin_key)

    print(results.summary(), flush=True)
    if not results.failed:
        shutil.rmtree(work, ignore_errors=True)
    else:
        print(f"kept {work} for a look", flush=True)
    return results.status()


def check_service(binary: Path, prefix: Path, results: harness.Checks, work: Path, db: Path,
                  admin_key: str) -> None:
    """The Windows service, through Wine's service manager, on the store `db` (3 pets).

    Wine stops its service manager, and the services it runs, when the last program of the
    session ends: a Wine program kept running in the background holds the session open for the
    service's whole life, as a signed-in Windows would (a real Windows needs nobody signed in).
    """
    missing = run(binary, "--db", str(work / "none" / "store.sqlite"), "service", "install")
    results.check("petstore service install refuses a store that does not exist yet",
                  missing.returncode != 0 and "run `petstore serve` once first" in missing.stderr,
                  f"exit {missing.returncode}: {missing.stderr.strip()[-200:]}")
    session = subprocess.Popen(["wine", "cmd", "/c", "ping -n 600 127.0.0.1 >NUL"],
                               stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL)
    try:
        # Answered by the service manager, so it runs from here on (and starts no service of
        # ours at its boot: there is none yet).
        wine("sc", "query", "petstore")
        port = harness.free_port()  # a service cannot print the port it bound
        base = f"http://127.0.0.1:{port}"
        installed = run(binary, "--db", str(db), "service", "install", "--bind", f"127.0.0.1:{port}")
        try:
            key = r"HKLM\System\CurrentControlSet\Services\petstore"
            image = wine("reg", "query", key, "/v", "ImagePath").stdout
            start = wine("reg", "query", key, "/v", "Start").stdout
            results.check("petstore service install registers the service, started at boot, with the "
                          "store and its flags",
                          installed.returncode == 0 and "service run" in image
                          and f"--bind 127.0.0.1:{port}" in image and "store.sqlite" in image
                          and "--log-file" in image
                          and re.search(r"Start\s+REG_DWORD\s+0x2", start) is not None,
                          f"exit {installed.returncode}: {installed.stdout.strip()[-200:]}"
                          f"{installed.stderr.strip()[-200:]}; {image.strip()[-300:]} {start.strip()[-60:]}")
            started = wine("net", "start", "petstore")
            status, body = answers(base, admin_key, "/pets?limit=50", 90)
            pets = json.loads(body) if status == 200 else None
            state = wine("sc", "query", "petstore")
            results.check("net start petstore starts the service and it serves the store",
                          started.returncode == 0 and status == 200 and isinstance(pets, list)
                          and len(pets) == 3,
                          f"net start exit {started.returncode} {started.stdout.strip()[-100:]}; "
                          f"GET /pets {status}, {len(pets) if isinstance(pets, list) else pets} pets; "
                          f"sc query exit {state.returncode}: {tail(state.stdout, 3)}; "
                          f"{service_managers(prefix)} service manager(s) in the prefix")
            stopped = wine("net", "stop", "petstore")
            state = wine("sc", "query", "petstore").stdout
            log = db.parent / "petstore.log"
            text = log.read_text(errors="replace") if log.exists() else ""
            wal = db.with_name(db.name + "-wal")
            results.check("net stop petstore stops the service gracefully and closes the store",
                          stopped.returncode == 0 and "STOPPED" in state
                          and "the service manager asks the server to stop" in text
                          and "INFO stopped" in text
                          and (not wal.exists() or wal.stat().st_size == 0),
                          f"net stop exit {stopped.returncode}; {state.strip()[-120:]}; "
                          f"wal {wal.stat().st_size if wal.exists() else 'absent'}; log {text.strip()[-200:]}")
        finally:
            removed = run(binary, "service", "uninstall")
        gone = wine("sc", "query", "petstore")
        results.check("petstore service uninstall removes the service",
                      removed.returncode == 0 and "Removed the Windows service" in removed.stdout
                      and gone.returncode != 0,
                      f"exit {removed.returncode}: {removed.stderr.strip()[-200:]}; "
                      f"sc query exit {gone.returncode}")
    finally:
        session.kill()
        session.wait()


if __name__ == "__main__":
    sys.exit(main())
