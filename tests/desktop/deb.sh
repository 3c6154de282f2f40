#!/usr/bin/env bash
# Builds the desktop .deb with the documented command, checks what is inside, and runs the
# desktop test (tests/desktop/run.sh) against the packaged binary, which also measures it.
#
#   tests/desktop/deb.sh       (a release build: about 8 minutes on 2 cores)
#
# Prints the .deb's size with the launch time and idle memory from run.sh ("# ..." lines), and
# ends with "N passed, M failed".
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
PASSED=0
FAILED=0
ok() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
not_ok() { FAILED=$((FAILED + 1)); echo "not ok - $1${2:+: $2}"; }
check() { local name=$1; shift; if "$@"; then ok "$name"; else not_ok "$name"; fi; }
finish() { echo "$PASSED passed, $FAILED failed"; [ "$FAILED" -eq 0 ]; exit $?; }

cd "$ROOT"
# The documented command (src-tauri/README.md). `npm install`, not `npm ci`: the registry this
# project reaches has only the Linux builds of the CLI's native part, so the lock cannot list
# the other platforms' optional packages and `npm ci` refuses it as out of sync.
started=$(date +%s)
if npm install --prefix src-tauri --no-audit --no-fund --loglevel=error &&
    npx --prefix src-tauri tauri build --bundles deb; then
    ok "the .deb builds ($(($(date +%s) - started)) s)"
else
    not_ok "the .deb builds"
    finish
fi
TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
DEB=$(ls -t "$TARGET_DIR"/release/bundle/deb/*.deb | head -1)
echo "# .deb: $DEB, $(du -k "$DEB" | cut -f1) KiB ($(python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1]) / 2**20:.1f}')" "$DEB") MiB);" \
     "installed size $(dpkg-deb -f "$DEB" Installed-Size) KiB"

check "the package is called pet-store" test "$(dpkg-deb -f "$DEB" Package)" = pet-store
check "it depends on WebKitGTK 4.1 and GTK 3" \
    bash -c "dpkg-deb -f '$DEB' Depends | grep -q libwebkit2gtk-4.1-0 && dpkg-deb -f '$DEB' Depends | grep -q libgtk-3-0"
check "it installs /usr/bin/petstore-desktop" bash -c "dpkg-deb -c '$DEB' | grep -q ' usr/bin/petstore-desktop\$'"
check "it installs a menu entry that starts petstore-desktop" \
    bash -c "dpkg-deb --fsys-tarfile '$DEB' | tar -xO 'usr/share/applications/Pet Store.desktop' | grep -qx 'Exec=petstore-desktop'"

# The packaged binary, unpacked (not installed), through the whole desktop test.
UNPACKED=$(mktemp -d)
trap 'rm -rf "$UNPACKED"' EXIT
dpkg-deb -x "$DEB" "$UNPACKED"
DESKTOP_APP=$UNPACKED/usr/bin/petstore-desktop "$HERE/run.sh" | tee "$UNPACKED/run.out" | grep -v ' passed, .* failed$'
PASSED=$((PASSED + $(grep -c '^ok - ' "$UNPACKED/run.out")))
FAILED=$((FAILED + $(grep -c '^not ok - ' "$UNPACKED/run.out")))
finish
