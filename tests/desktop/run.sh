#!/usr/bin/env bash
# Black-box test of petstore-desktop in a real window, under Xvfb, on a temporary store.
#
#   tests/desktop/run.sh        (from anywhere; CI runs it through ./scripts/test.sh desktop)
#
# 1. Launch: the embedded API answers on loopback only (200 with the key, 401 without), the
#    window maps; the time to each and the idle memory are printed as "# ..." lines.
# 2. A second launch hands over to the first (which is asked to come to the front) and exits.
# 3. Closing the window (WM_DELETE_WINDOW, as a close button sends) stops the server, ends open
#    event streams at once, closes the store and leaves no WAL behind.
# 4. kill -9 in the middle of writes leaves a store that passes PRAGMA integrity_check; a store
#    that cannot be opened is said in a window.
# 5. tauri-driver + WebKitWebDriver drive the real window (drive.py): signed in with no typed
#    key, stock adjusted through the UI; a low item raises a system notification (Notify on
#    this script's own session bus, answered by dunst and recorded by dbus-monitor); LAN access
#    on the chosen network only, tested from a network namespace this script makes (a veth
#    pair: the app's side 10.213.7.1, the "POS device" 10.213.7.2; no test traffic goes to this
#    machine's own LAN address; where namespaces are not allowed those checks are skipped with
#    the reason printed): the desktop session key refused from the LAN and accepted on
#    loopback, the listener on the chosen address only, LAN access stopped and asked again when
#    a network appears or the address goes away; HTTPS on the LAN switch (the certificate
#    served, read by openssl from the namespace, is the one whose fingerprint the panel shows,
#    beside the one-time browser warning in plain words); the Network panel with "Pair a till"; Restore…
#    (a backup from the folder, and a foreign file chosen in the system's file dialog, typed
#    into it with xdotool)
#    of a backup; "Who is at the counter?" once the store has staff members.
# Screenshots land in tests/desktop/screenshots/ (not committed); with UPDATE_SCREENSHOTS=1 a
# green run also copies the desktop window's screens to docs/screenshots/app-*.png. DESKTOP_APP=path skips the
# build and tests that binary (tests/desktop/deb.sh does so with the packaged one). Installs
# what it needs: Debian packages with apt-get (through sudo when not root) and tauri-driver
# with cargo. Each check prints `ok   NAME` or `FAIL NAME (detail)`, as bench/harness.py's
# Checks does (tests/desktop/checks.sh); ends with "N passed, M failed" and the failed names,
# and exits non-zero on any failure.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
SHOTS=$HERE/screenshots
PIDS=()
NETNS=""

# ok, not_ok, check NAME COMMAND..., count_checks FILE and finish, as drive.py reports.
# shellcheck source=tests/desktop/checks.sh
. "$HERE/checks.sh"
cleanup() {
    local pid
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null; done
    if [ -n "$NETNS" ]; then
        ip link del pst-host 2>/dev/null
        ip link del pst-new 2>/dev/null
        ip netns del "$NETNS" 2>/dev/null
    fi
    if [ -n "${WORK:-}" ]; then
        if [ "$FAILED" -gt 0 ]; then echo "# logs kept in $WORK"; else rm -rf "$WORK"; fi
    fi
}
trap cleanup EXIT

# ---------------------------------------------------------------- what the test needs
# build: Tauri 2's Linux prerequisites; run: Xvfb, WebKitWebDriver, ImageMagick, xwininfo,
# a session bus (single instance), dbus-monitor and a notification daemon (dunst), curl, ip.
PACKAGES=(build-essential pkg-config libssl-dev libwebkit2gtk-4.1-dev libxdo-dev
          libayatana-appindicator3-dev librsvg2-dev
          xvfb webkit2gtk-driver imagemagick x11-utils dbus-daemon dbus-bin dunst curl iproute2
          openssl xdotool fonts-dejavu-core)
missing=()
for pkg in "${PACKAGES[@]}"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
done
if [ "${#missing[@]}" -gt 0 ]; then
    echo "# installing ${missing[*]}"
    sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update -qq >/dev/null
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null ||
        { not_ok "the Debian packages install" "${missing[*]}"; finish; }
fi
export PATH="$HOME/.cargo/bin:$PATH"
if ! command -v tauri-driver >/dev/null; then
    echo "# installing tauri-driver"
    cargo install tauri-driver --version '^2' --locked --quiet || { not_ok "tauri-driver installs"; finish; }
fi

if [ -n "${DESKTOP_APP:-}" ]; then
    APP=$DESKTOP_APP # e.g. a release build, to measure it
else
    echo "# building petstore-desktop (debug)"
    build_started=$(date +%s)
    if ! (cd "$ROOT" && cargo build -p petstore-desktop --quiet); then
        not_ok "petstore-desktop builds"
        finish
    fi
    ok "petstore-desktop builds ($(($(date +%s) - build_started)) s)"
    if unit_out=$(cd "$ROOT" && cargo test -p petstore-desktop --quiet 2>&1); then
        ok "the shell's unit tests pass"
    else
        not_ok "the shell's unit tests pass" "$(echo "$unit_out" | tail -20)"
    fi
    TARGET_DIR=$(cd "$ROOT" && cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
    APP=$TARGET_DIR/debug/petstore-desktop
fi

# ---------------------------------------------------------------- a private world
WORK=$(mktemp -d)
mkdir -p "$SHOTS" "$WORK/store"
rm -f "$SHOTS"/*.png
free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("0.0.0.0", 0)); print(s.getsockname()[1])'; }
API_PORT=$(free_port)
export PETSTORE_DB=$WORK/store/petstore.sqlite
export PETSTORE_BIND=127.0.0.1:$API_PORT
export PETSTORE_ADMIN_KEY=desktop-test-$(python3 -c 'import secrets; print(secrets.token_hex(16))')
export XDG_CONFIG_HOME=$WORK/config XDG_DATA_HOME=$WORK/data XDG_CACHE_HOME=$WORK/cache
export PETSTORE_LOG=${PETSTORE_LOG:-info}
API=http://$PETSTORE_BIND
unset WAYLAND_DISPLAY

Xvfb -displayfd 3 -screen 0 1280x900x24 -nolisten tcp 3>"$WORK/display" 2>"$WORK/xvfb.log" &
PIDS+=($!)
for _ in $(seq 100); do [ -s "$WORK/display" ] && break; sleep 0.1; done
export DISPLAY=:$(cat "$WORK/display")
{ read -r DBUS_SESSION_BUS_ADDRESS; read -r dbus_pid; } < <(dbus-daemon --session --fork --print-address=1 --print-pid=1)
export DBUS_SESSION_BUS_ADDRESS
PIDS+=("$dbus_pid")
# The desktop's notification service on this bus (drawn on the Xvfb screen), and a record of
# every Notify call made on the bus.
dbus-monitor --session "type='method_call',interface='org.freedesktop.Notifications',member='Notify'" \
    >"$WORK/notify.log" 2>&1 &
PIDS+=($!)
dunst >"$WORK/dunst.log" 2>&1 &
PIDS+=($!)
echo "# Xvfb on $DISPLAY, store $PETSTORE_DB, API $API"

status_of() { curl -s -o /dev/null -w '%{http_code}' --max-time 10 "$@"; }
window_id() { xwininfo -root -tree 2>/dev/null | awk '/"Pet Store"/ { print $1; exit }'; }
window_viewable() { local id; id=$(window_id); [ -n "$id" ] && xwininfo -id "$id" | grep -q "IsViewable"; }
now() { date +%s.%N; }
seconds_since() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$(now)"; }
wait_exit() { # wait_exit PID SECONDS: the exit code, or 124 if still running
    local i
    for i in $(seq $(($2 * 10))); do
        kill -0 "$1" 2>/dev/null || { wait "$1"; return $?; }
        sleep 0.1
    done
    return 124
}
integrity() { python3 -c 'import sqlite3, sys; print(sqlite3.connect(sys.argv[1]).execute("PRAGMA integrity_check").fetchone()[0])' "$PETSTORE_DB" 2>&1; }

# ---------------------------------------------------------------- 1. launch
launched=$(now)
"$APP" >"$WORK/app.log" 2>&1 &
app_pid=$!
PIDS+=("$app_pid")
http_after="" window_after=""
for _ in $(seq 600); do
    [ -z "$http_after" ] && [ "$(status_of "$API/")" = 200 ] && http_after=$(seconds_since "$launched")
    [ -z "$window_after" ] && window_viewable && window_after=$(seconds_since "$launched")
    [ -n "$http_after" ] && [ -n "$window_after" ] && break
    kill -0 "$app_pid" 2>/dev/null || break
    sleep 0.02
done
if [ -n "$http_after" ] && [ -n "$window_after" ]; then
    ok "the app starts: GET / answers 200 and the window is mapped"
    # Usable: the page has signed in and opened its live event stream (the server logs it).
    ui_after=""
    for _ in $(seq 1000); do
        grep -q 'GET /events 200 .*key=desktop' "$WORK/app.log" && { ui_after=$(seconds_since "$launched"); break; }
        sleep 0.01
    done
    echo "# launch to first 200 of GET /: ${http_after}s; to window mapped: ${window_after}s;" \
         "to the signed-in UI's event stream: ${ui_after:-not seen}s"
else
    not_ok "the app starts" "GET / after ${http_after:-never}, window after ${window_after:-never}; log: $(tail -5 "$WORK/app.log")"
    finish
fi
check "the embedded API answers 200 on loopback with the admin key" \
    test "$(status_of -H "X-API-Key: $PETSTORE_ADMIN_KEY" "$API/store/inventory")" = 200
check "the embedded API answers 200 with the key as a Bearer token" \
    test "$(status_of -H "Authorization: Bearer $PETSTORE_ADMIN_KEY" "$API/store/inventory")" = 200
check "the embedded API refuses a request without a key (401)" test "$(status_of "$API/store/inventory")" = 401
check "the embedded API refuses a wrong key (401)" test "$(status_of -H "X-API-Key: nope" "$API/store/inventory")" = 401
listening_beyond_loopback() { # any listening socket of the app that is not on 127.0.0.1
    ss -ltnpH | grep "pid=$app_pid," | awk '{ print $4 }' | grep -v '^127\.0\.0\.1:'
}
check "the server listens on loopback only by default" test -z "$(listening_beyond_loopback)"

sleep 4 # the UI draws itself; then it is idle
/usr/bin/import -window root "$SHOTS/launch.png" 2>/dev/null
check "a screenshot of the window after launch was taken" test -s "$SHOTS/launch.png"
sleep 4
rss_kib() { # RSS of a process and all its descendants (the WebKit web and network processes)
    ps -eo pid=,ppid=,rss= | awk -v root="$1" '
        { parent[$1] = $2; rss[$1] = $3 }
        END { for (p in parent) { q = p; while (q != "" && q != 0 && q != root) q = parent[q]; if (q == root) sum += rss[p] } print sum + 0 }'
}
echo "# idle memory (RSS): petstore-desktop $(($(ps -o rss= -p "$app_pid") / 1024)) MiB, with its WebKit processes $(($(rss_kib "$app_pid") / 1024)) MiB"

# ---------------------------------------------------------------- 2. one instance only
timeout 30 "$APP" >"$WORK/second.log" 2>&1
second=$?
check "a second launch hands over to the first and exits 0" test "$second" = 0
check "the first instance keeps running after a second launch" kill -0 "$app_pid"
check "the first instance was asked to come to the front" grep -q "bringing it to the front" "$WORK/app.log"
check "there is still one window" test "$(xwininfo -root -tree | grep -c '"Pet Store"')" = 1

# ---------------------------------------------------------------- 3. closing the window
# An open event stream (as every POS device keeps) must not hold the close up.
curl -s -N --max-time 60 -H "X-API-Key: $PETSTORE_ADMIN_KEY" "$API/events" >"$WORK/events.out" 2>&1 &
stream_pid=$!
sleep 0.5
closing=$(now)
python3 "$HERE/close_window.py" "$(window_id)"
wait_exit "$app_pid" 30
code=$?
close_took=$(seconds_since "$closing")
echo "# window close to process exit: ${close_took}s"
check "closing the window ends the app with status 0" test "$code" = 0
# Held up, the server would wait its whole grace period and then drop the stream, saying so
# in the log; the time is printed above, not bounded (a busy machine takes longer to close).
check "an open event stream ends with the close instead of holding it up (nothing dropped after the grace period)" \
    bash -c "! grep -q 'still open after the grace period' '$WORK/app.log'"
wait_exit "$stream_pid" 5
check "the event stream's client sees its stream end" test "$?" != 124
check "closing the window stops the server first, then closes the store" \
    bash -c "grep -q 'stopped serving' '$WORK/app.log' && grep -q 'the store is closed' '$WORK/app.log'"
check "the API is gone after the window closed" test "$(status_of "$API/health")" = 000
check "the WAL is checkpointed on close (no -wal left, or an empty one)" test ! -s "$PETSTORE_DB-wal"

# ---------------------------------------------------------------- 4. a crash
"$APP" >"$WORK/crash.log" 2>&1 &
crash_pid=$!
PIDS+=("$crash_pid")
for _ in $(seq 300); do [ "$(status_of "$API/health")" = 200 ] && break; sleep 0.1; done
(
    for i in $(seq 200); do
        curl -s -o /dev/null --max-time 5 -H "X-API-Key: $PETSTORE_ADMIN_KEY" -H 'Content-Type: application/json' \
            -d "{\"name\": \"Crash test $i $RANDOM\"}" "$API/categories" || break
    done
) &
writer=$!
sleep 1.5
kill -9 "$crash_pid"
wait "$writer" 2>/dev/null
wait "$crash_pid" 2>/dev/null
check "after kill -9 in the middle of writes the store passes integrity_check" test "$(integrity)" = ok

# ---------------------------------------------------------------- 4b. a store that cannot be opened
PETSTORE_DB=/proc/no-such-folder/store.sqlite "$APP" >"$WORK/unopenable.log" 2>&1 &
bad_pid=$!
PIDS+=("$bad_pid")
for _ in $(seq 300); do window_viewable && break; sleep 0.1; done
check "a store that cannot be opened is said in a window" window_viewable
/usr/bin/import -window root "$SHOTS/cannot-open.png" 2>/dev/null
python3 "$HERE/close_window.py" "$(window_id)"
wait_exit "$bad_pid" 20
check "closing that window ends the app with a failure status" test "$?" = 1

# ---------------------------------------------------------------- 5. the real window, driven
# The LAN as a POS device sees it: a network namespace with a veth pair. The app's side gets
# 10.213.7.1, the namespace calls it from 10.213.7.2. Nothing leaves this machine, and this
# machine's own LAN address is never used.
LAN_HOST=10.213.7.1
LAN_NETNS=""
NETNS=petstore-test-$$
if netns_error=$(ip netns add "$NETNS" 2>&1); then
    if ip link add pst-host type veth peer name pst-pos && ip link set pst-pos netns "$NETNS" &&
        ip addr add 10.213.7.1/30 dev pst-host && ip link set pst-host up &&
        ip -n "$NETNS" addr add 10.213.7.2/30 dev pst-pos && ip -n "$NETNS" link set pst-pos up &&
        ip -n "$NETNS" link set lo up; then
        LAN_NETNS=$NETNS
        echo "# LAN checks against $LAN_HOST from namespace $LAN_NETNS"
    else
        not_ok "a veth pair for the LAN test can be made in namespace $NETNS"
    fi
else
    NETNS=""
    echo "# skipped: the LAN checks: network namespaces are not allowed here ($netns_error)"
fi

WD_PORT=$(free_port)
NATIVE_PORT=$(free_port)
tauri-driver --port "$WD_PORT" --native-port "$NATIVE_PORT" --native-driver "$(command -v WebKitWebDriver || echo /usr/bin/WebKitWebDriver)" \
    >"$WORK/driver.log" 2>&1 &
PIDS+=($!)
for _ in $(seq 100); do [ "$(status_of "http://127.0.0.1:$WD_PORT/status")" = 200 ] && break; sleep 0.1; done

DESKTOP_APP=$APP API=$API ADMIN_KEY=$PETSTORE_ADMIN_KEY SHOTS=$SHOTS LAN_HOST=$LAN_HOST LAN_NETNS=$LAN_NETNS \
    LAN_IF=pst-host LAN_PORT=$(free_port) CONFIG=$XDG_CONFIG_HOME/petstore/desktop.json \
    WEBDRIVER=http://127.0.0.1:$WD_PORT NOTIFY_LOG=$WORK/notify.log DRIVER_LOG=$WORK/driver.log \
    python3 "$HERE/drive.py" >"$WORK/drive.out" 2>&1
cat "$WORK/drive.out"
count_checks "$WORK/drive.out"
if ! grep -q '^ok   ' "$WORK/drive.out"; then
    not_ok "the WebDriver session ran" "see $WORK/drive.out and $WORK/driver.log"
fi
sleep 1
check "the store is intact after the WebDriver session ended the app" test "$(integrity)" = ok

if [ "${UPDATE_SCREENSHOTS:-}" = 1 ] && [ "$FAILED" -eq 0 ]; then
    for pair in network-https-webview:app-network-https network-pairing-webview:app-network-pairing \
        network-changed-screen:app-network-changed restore-dialog-webview:app-restore-dialog \
        restore-done-webview:app-restore-done counter-webview:app-counter \
        low-stock-notification-screen:app-low-stock-notification; do
        cp "$SHOTS/${pair%%:*}.png" "$ROOT/docs/screenshots/${pair##*:}.png"
    done
    echo "# the desktop window's screens copied to docs/screenshots/app-*.png"
fi

finish
