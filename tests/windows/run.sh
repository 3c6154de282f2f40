#!/usr/bin/env bash
# The Windows server, petstore.exe, cross-built from Linux and tested under Wine.
#
#   1. builds petstore.exe (debug, target x86_64-pc-windows-gnu, in target/x86_64-pc-windows-gnu),
#      linting the Windows build with clippy as it compiles;
#   2. builds the test fixture bcryptprimitives.dll beside it: Wine 8 lacks that DLL's
#      ProcessPrng, which Rust's standard library calls for random bytes (a stub over
#      RtlGenRandom, tests/windows/processprng.c; never shipped);
#   3. runs under Wine, in a Wine prefix of its own (target/wine-prefix):
#      - tests/windows/run.py: the Windows differences (data folder and the move from the earlier
#        one, lock, Ctrl+C, backup and restore names, device names, CSV line endings, log
#        rotation, the embedded pages, the Windows service through Wine's service manager);
#      - tests/crash/run.py: kill -9 during orders, restart, nothing lost;
#      - tests/contract/run.sh, twice: the OpenAPI document, /docs and /events, and schemathesis
#        against petstore.exe with the document's examples for every operation; then its edge
#        cases (the coverage phase) for the operations whose work differs on Windows: files and
#        their names (backups, the certificate), CSV in and out, dates and time zones
#        (reports, the store's profile). The server's code is the same on both systems, so the
#        edge cases of every other operation (about 10 minutes under Wine on a busy machine) and
#        the random phases (fuzzing, stateful) run on Linux only, in the contract suite.
#        WINDOWS_CONTRACT_PHASES (say examples,coverage,fuzzing,stateful) runs those phases
#        over every operation instead; WINDOWS_CONTRACT_MAX_EXAMPLES (default 25).
#
# The Rust HTTP suite (tests/api) cannot drive petstore.exe: it starts the server inside the
# test process, as a library, so under Wine it would test a Windows build of the tests, not the
# program a shop runs. The contract suite covers every operation of the served document
# against the .exe instead.
#
# Needs (installed by scripts/test.sh windows): gcc-mingw-w64-x86-64, wine, wine64, python3,
# and rustup's x86_64-pc-windows-gnu target.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
target_dir="${CARGO_TARGET_DIR:-$root/target}"
triple=x86_64-pc-windows-gnu
out="$target_dir/$triple/debug"
wrapper_dir="$target_dir/windows-wine"
export WINEPREFIX="${WINEPREFIX:-$target_dir/wine-prefix}"
export WINEDEBUG=-all
# No Wine desktop integration, no Gecko or Mono install prompts: a console server needs none.
export WINEDLLOVERRIDES="mscoree,mshtml,winemenubuilder.exe="

say() { printf '\n== %s\n' "$*"; }
started=$SECONDS

say "petstore.exe (debug, $triple)"
if command -v rustup >/dev/null && ! rustup target list --installed | grep -qx "$triple"; then
    rustup target add "$triple"
fi
# Built and linted in one compile: clippy-driver wraps rustc for this workspace's own crates, as
# `cargo clippy` does, so the ~200 dependencies are compiled once (a `cargo clippy` after the
# build compiled them all a second time, in check mode: 5 of the suite's 14 minutes, cold).
# The machine is shared: build at low priority.
clippy_driver="$(rustup which clippy-driver 2>/dev/null || command -v clippy-driver)"
RUSTC_WORKSPACE_WRAPPER="$clippy_driver" CLIPPY_ARGS="-D__CLIPPY_HACKERY__warnings__CLIPPY_HACKERY__" \
    nice -n 10 cargo build --target "$triple" --bin petstore
echo "built $out/petstore.exe in $((SECONDS - started)) s"

say "test fixture: bcryptprimitives.dll (ProcessPrng for Wine 8)"
x86_64-w64-mingw32-gcc -O2 -shared -o "$out/bcryptprimitives.dll" \
    tests/windows/processprng.c tests/windows/processprng.def -ladvapi32

mkdir -p "$wrapper_dir"
cat >"$wrapper_dir/petstore" <<EOF
#!/bin/sh
# petstore.exe under Wine (written by tests/windows/run.sh).
export WINEPREFIX="$WINEPREFIX" WINEDEBUG=-all WINEDLLOVERRIDES="$WINEDLLOVERRIDES"
exec wine "$out/petstore.exe" "\$@"
EOF
chmod +x "$wrapper_dir/petstore"

say "Wine prefix $WINEPREFIX"
wineboot --init >/dev/null 2>&1 || true
# A new prefix's first session runs two service managers (services.exe), each with a list of
# services of its own: a service installed through one is unknown to the other, so `net start`
# finds no service ("Could not get handle to service"). Let that session end (its programs
# exit on their own within seconds) so the checks' session starts with one service manager.
wineserver --wait 2>/dev/null || true
"$wrapper_dir/petstore" --version

stage=$SECONDS
say "Windows differences"
python3 tests/windows/run.py --binary "$wrapper_dir/petstore" --prefix "$WINEPREFIX"
echo "took $((SECONDS - stage)) s"

stage=$SECONDS
say "crash test under Wine: SIGKILL during orders"
python3 tests/crash/run.py --binary "$wrapper_dir/petstore" --cycles 2 --min-acked 50 --start-timeout 120
echo "took $((SECONDS - stage)) s"

stage=$SECONDS
say "contract suite against petstore.exe: every operation"
PETSTORE_BIN="$wrapper_dir/petstore" CONTRACT_MAX_EXAMPLES="${WINDOWS_CONTRACT_MAX_EXAMPLES:-25}" \
    CONTRACT_PHASES="${WINDOWS_CONTRACT_PHASES:-examples}" tests/contract/run.sh
echo "took $((SECONDS - stage)) s"

if [[ -z "${WINDOWS_CONTRACT_PHASES:-}" ]]; then
    stage=$SECONDS
    say "contract suite against petstore.exe: edge cases of files, CSV and dates"
    PETSTORE_BIN="$wrapper_dir/petstore" CONTRACT_PHASES=coverage CONTRACT_MAX_EXAMPLES="${WINDOWS_CONTRACT_MAX_EXAMPLES:-25}" \
        CONTRACT_OPERATIONS=takeBackup,listBackups,downloadBackup,getStoreCertificate,importPets,exportPets,exportStockChanges,getDailyReport,animalsReport,updateStoreProfile \
        tests/contract/run.sh
    echo "took $((SECONDS - stage)) s"
fi

# The service checks leave Wine's device services running, which keep the prefix's
# wineserver up for good: end everything in the prefix, then wait for the server to go.
wineserver -k 2>/dev/null || true
wineserver --wait 2>/dev/null || true
say "windows suite passed in $((SECONDS - started)) s"
