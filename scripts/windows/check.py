#!/usr/bin/env python3
"""The Windows portable zip, checked as far as Linux and Wine allow.

Run by scripts/windows-desktop.sh on the zip it has just made:

  - the zip holds the two programs, the WebView2 loader, the shortcut script and the README,
    and nothing else (in particular not the Wine test stub bcryptprimitives.dll);
  - both programs are 64-bit Windows executables (PE32+, x86-64); petstore-desktop.exe is a
    GUI-subsystem program (no console window behind it), petstore.exe a console one;
  - every DLL either program imports is part of Windows or is in the zip;
  - the README has Windows line ends and names the WebView2 runtime;
  - from the unpacked zip, under Wine: `petstore.exe --help` lists the commands, and
    `petstore.exe serve` answers GET /health, then stops on Ctrl+C;
  - petstore-desktop.exe, from the unpacked zip, under Wine in a virtual X display
    (xvfb-run): what it does is reported, not judged, since Microsoft's WebView2 runtime cannot
    run under Wine: its exit code, what it printed, whether its embedded server answered
    GET /health before the window failed, and a screenshot of the display.

The test stub (tests/windows/processprng.c: Wine 8 lacks ProcessPrng, which Rust's standard
library calls) is copied beside the programs in a folder unpacked from the zip for these runs
only; the zip itself is never touched.

Prints one line per check, then `N passed, M failed`; exits 1 on any failure.
Usage: check.py --zip ZIP --stub bcryptprimitives.dll --prefix WINEPREFIX --work DIR
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent / "bench"))
import harness  # noqa: E402

FOLDER = "PetStore"
EXPECTED = {"petstore-desktop.exe", "petstore.exe", "WebView2Loader.dll", "add-shortcut.ps1",
            "README-Windows.txt"}
STUB = "bcryptprimitives.dll"


def pe_header(exe: Path) -> dict:
    """The format, subsystem and imported DLLs of a Windows executable, from `objdump -p`."""
    out = subprocess.run(["objdump", "-p", str(exe)], capture_output=True, text=True,
                         check=True).stdout
    fmt = re.search(r"file format (\S+)", out)
    subsystem = re.search(r"^Subsystem\s+\S+\s+\((.+)\)", out, re.MULTILINE)
    return {
        "format": fmt.group(1) if fmt else "",
        "subsystem": subsystem.group(1) if subsystem else "",
        "dlls": sorted({name.lower() for name in re.findall(r"DLL Name: (\S+)", out)}),
    }


def describe(path: Path) -> str:
    """What `file` says the file is."""
    return subprocess.run(["file", "-b", str(path)], capture_output=True, text=True).stdout.strip()


def windows_path(path: Path) -> str:
    """A Linux path as Wine's Z: drive shows it."""
    return "Z:" + str(path).replace("/", "\\")


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def health(port: int) -> int:
    """The status of GET /health on loopback, 0 when nothing answers."""
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as answer:
            return answer.status
    except urllib.error.HTTPError as error:
        return error.code
    except OSError:
        return 0


def tail(text: str, lines: int = 15) -> str:
    return "\n".join("    " + line for line in text.strip().splitlines()[-lines:])


def check_zip(zip_path: Path, results: harness.Checks) -> None:
    with zipfile.ZipFile(zip_path) as archive:
        names = archive.namelist()
    print(f"   {zip_path.name}: {zip_path.stat().st_size} bytes; {', '.join(names)}")
    inside = {name.split("/", 1)[1] for name in names if name.startswith(FOLDER + "/")}
    results.check("the zip holds the two programs, the WebView2 loader, the shortcut script and "
                  "the README, in one folder, and nothing else",
                  inside == EXPECTED and len(names) == len(EXPECTED),
                  f"unexpected {sorted(set(names) - {FOLDER + '/' + n for n in EXPECTED})}, "
                  f"missing {sorted(EXPECTED - inside)}" if inside != EXPECTED else "")
    results.check(f"the Wine test stub {STUB} is not in the zip",
                  not any(name.lower().endswith(STUB) for name in names))


def check_programs(folder: Path, prefix: Path, results: harness.Checks) -> None:
    system32 = prefix / "drive_c" / "windows" / "system32"
    windows_dlls = {p.name.lower() for p in system32.iterdir()}
    shipped = {p.name.lower() for p in folder.iterdir()}
    for exe, subsystem, kind in (("petstore-desktop.exe", "Windows GUI", "GUI"),
                                 ("petstore.exe", "Windows CUI", "console")):
        header = pe_header(folder / exe)
        print(f"   {exe}: {describe(folder / exe)}; objdump: {header['format']}, "
              f"subsystem {header['subsystem']}; imports {', '.join(header['dlls'])}")
        results.check(f"{exe} is a 64-bit Windows {kind} program (PE32+, x86-64, subsystem "
                      f"{subsystem})",
                      header["format"] == "pei-x86-64" and header["subsystem"] == subsystem,
                      f"{header['format']}, {header['subsystem']}")
        missing = [dll for dll in header["dlls"]
                   if dll not in shipped and dll not in windows_dlls
                   and not dll.startswith(("api-ms-win-", "ext-ms-win-"))]
        results.check(f"every DLL {exe} imports is part of Windows or in the zip",
                      not missing, f"neither: {missing}" if missing else "")
    readme = (folder / "README-Windows.txt").read_bytes()
    results.check("README-Windows.txt has Windows line ends and names the WebView2 runtime",
                  readme.count(b"\r\n") == readme.count(b"\n") > 0 and b"WebView2" in readme)


def wine_env(prefix: Path) -> dict:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PETSTORE_")}
    # No Gecko or Mono install prompts, no menu entries written into this Linux desktop.
    env.update(WINEPREFIX=str(prefix), WINEDEBUG="-all",
               WINEDLLOVERRIDES="mscoree,mshtml,winemenubuilder.exe=")
    return env


def check_server(folder: Path, prefix: Path, work: Path, results: harness.Checks) -> None:
    env = wine_env(prefix)
    os.environ.clear()
    os.environ.update(env)
    exe = str(folder / "petstore.exe")
    helped = subprocess.run(["wine", exe, "--help"], capture_output=True, text=True, timeout=180)
    print(tail(helped.stdout + helped.stderr, 30))
    results.check("petstore.exe --help, from the unpacked zip, lists its commands under Wine",
                  helped.returncode == 0
                  and all(word in helped.stdout for word in ("serve", "backup", "restore", "service")),
                  f"exit {helped.returncode}")
    db = work / "server" / "store.sqlite"
    db.parent.mkdir(parents=True, exist_ok=True)
    try:
        server = harness.Server(["wine", exe, "serve", "--bind", "127.0.0.1:0",
                                 "--db", windows_path(db)], log=work / "server.log", timeout=180)
    except RuntimeError as error:
        results.check("petstore.exe serve, from the unpacked zip, answers GET /health under Wine",
                      False, f"{error}; {(work / 'server.log').read_text(errors='replace')[-600:]}")
        return
    status = health(server.port)
    results.check("petstore.exe serve, from the unpacked zip, answers GET /health under Wine",
                  status == 200, f"GET {server.base}/health: {status}")
    server.proc.send_signal(signal.SIGINT)
    try:
        code = server.proc.wait(90)
    except subprocess.TimeoutExpired:
        server.kill()
        code = None
    results.check("petstore.exe serve stops on Ctrl+C with exit code 0", code == 0,
                  f"exit {code}")
    print(tail((work / "server.log").read_text(errors="replace"), 8))


def try_desktop(folder: Path, prefix: Path, work: Path) -> int:
    """petstore-desktop.exe under Wine, in the X display xvfb-run gave this process.

    Waits up to 180 s for it to exit, asking GET /health of its embedded server every 50 ms
    meanwhile, then reports what it did. Returns 0: this is an observation, not a check.
    """
    env = wine_env(prefix)
    port = free_port()
    # No PETSTORE_DB: the store goes where a shop's would, in this prefix's profile.
    data = local_appdata(prefix) / "petstore"
    shutil.rmtree(data, ignore_errors=True)
    env.update(PETSTORE_BIND=f"127.0.0.1:{port}")
    log = work / "desktop.log"
    started = time.monotonic()
    with open(log, "wb") as out:
        proc = subprocess.Popen(["wine", str(folder / "petstore-desktop.exe")], env=env,
                                stdin=subprocess.DEVNULL, stdout=out, stderr=subprocess.STDOUT)
    answered = None
    shot_taken = False
    pressed = None
    while proc.poll() is None and time.monotonic() - started < 180:
        if answered is None and health(port) == 200:
            answered = time.monotonic() - started
        if not shot_taken and time.monotonic() - started > 60:
            shot_taken = screenshot(work / "desktop-60s.png")
            # A message box waits for OK (Return), as a clerk would press it.
            pressed = subprocess.run(["xdotool", "key", "Return"], capture_output=True).returncode
            pressed_at = time.monotonic() - started
        time.sleep(0.05)
    running = proc.poll() is None
    if running:
        shot_taken = screenshot(work / "desktop-180s.png") or shot_taken
        proc.send_signal(signal.SIGINT)
        try:
            proc.wait(30)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
    print(f"   petstore-desktop.exe under Wine (no WebView2 runtime): "
          f"{'still running after 180 s, then stopped' if running else 'exited'} with code "
          f"{proc.returncode} after {time.monotonic() - started:.1f} s")
    if pressed is not None:
        print(f"   Return pressed on its display {pressed_at:.1f} s after the start "
              f"(xdotool exit {pressed}); after that it "
              + ("still ran" if running else f"exited {time.monotonic() - started - pressed_at:.1f} s later"))
    print("   its embedded server "
          + (f"answered GET /health with 200 {answered:.1f} s after the start" if answered
             else "never answered GET /health"))
    print(f"   {'a screenshot is in ' + str(work) if shot_taken else 'no screenshot taken'}")
    made = sorted(str(p.relative_to(prefix / "drive_c")) for p in data.rglob("*") if p.is_file())
    print(f"   files it made under %LOCALAPPDATA%\\petstore: {made or 'none'}")
    print("   what it printed:")
    print(tail(log.read_text(errors="replace"), 25))
    return 0


def local_appdata(prefix: Path) -> Path:
    """%LOCALAPPDATA% of the Wine prefix's one user, as a Linux path."""
    users = [u for u in (prefix / "drive_c" / "users").iterdir() if u.name != "Public"]
    return users[0] / "AppData" / "Local"


def screenshot(path: Path) -> bool:
    done = subprocess.run(["import", "-window", "root", str(path)], capture_output=True)
    return done.returncode == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--zip", type=Path, required=True)
    parser.add_argument("--stub", type=Path, required=True, help="the test fixture " + STUB)
    parser.add_argument("--prefix", type=Path, required=True, help="the Wine prefix to use")
    parser.add_argument("--work", type=Path, required=True, help="a folder for the runs")
    parser.add_argument("--desktop-only", action="store_true",
                        help="only run petstore-desktop.exe (inside xvfb-run)")
    args = parser.parse_args()
    folder = args.work / "unpacked" / FOLDER
    if args.desktop_only:
        return try_desktop(folder, args.prefix, args.work)

    results = harness.Checks()
    shutil.rmtree(args.work, ignore_errors=True)
    args.work.mkdir(parents=True)
    check_zip(args.zip, results)
    with zipfile.ZipFile(args.zip) as archive:
        archive.extractall(args.work / "unpacked")
    # The stub goes beside the programs in this unpacked copy only, for the runs under Wine.
    shutil.copy(args.stub, folder / STUB)
    check_programs(folder, args.prefix, results)
    check_server(folder, args.prefix, args.work, results)
    print("== petstore-desktop.exe under Wine (xvfb-run)", flush=True)
    subprocess.run(["xvfb-run", "-a", "-s", "-screen 0 1280x800x24", sys.executable,
                    __file__, "--desktop-only", "--zip", str(args.zip), "--stub", str(args.stub),
                    "--prefix", str(args.prefix), "--work", str(args.work)], check=False)
    with zipfile.ZipFile(args.zip) as archive:
        results.check(f"the zip is unchanged by the runs: still no {STUB} in it",
                      not any(n.lower().endswith(STUB) for n in archive.namelist()))
    print(results.summary(), flush=True)
    return results.status()


if __name__ == "__main__":
    sys.exit(main())
