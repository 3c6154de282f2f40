#!/usr/bin/env bash
# Builds the pet-store .deb with the documented command, checks what is inside, installs it
# (dpkg -i) and tries the installed `petstore` command and its systemd unit, then runs the
# desktop test (tests/desktop/run.sh) against the packaged window, which also measures it.
#
#   tests/desktop/deb.sh                      (a release build: about 10 minutes on 2 idle cores)
#   DEB_WINDOW_TEST=0 tests/desktop/deb.sh    the same without the window test
#
# Not part of CI (`scripts/test.sh desktop` runs tests/desktop/run.sh on a debug build only):
# the release build is too heavy for every run; run this before a release.
#
# The build must leave the work tree as it found it: `npm ci` installs the pinned bundler from
# the committed lock and never rewrites it. Installing needs root (or a password-less sudo);
# the package is removed again afterwards unless it was installed before. The unit is checked
# with `systemd-analyze verify`, and its command line is run as the unit runs it (its
# environment, an unprivileged user, its umask), then stopped with SIGTERM as `systemctl stop`
# does. `systemctl start/stop` themselves are not tried: this runs where systemd is not PID 1.
# Prints the .deb's size (and, with the window test, the launch time and idle memory) as
# "# ..." lines; each check prints `ok   NAME` or `FAIL NAME (detail)` (tests/desktop/checks.sh,
# the shape of bench/harness.py's Checks); ends with "N passed, M failed" and the failed names.
set -uo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
CLEANUP=()
# ok, not_ok, check NAME COMMAND..., count_checks FILE and finish, as run.sh reports.
# shellcheck source=tests/desktop/checks.sh
. "$HERE/checks.sh"
cleanup() { local c; for c in "${CLEANUP[@]}"; do eval "$c"; done; }
trap cleanup EXIT
as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo -n "$@"; fi; }

cd "$ROOT"
tree_before=$(git status --porcelain --untracked-files=all 2>/dev/null)
# The documented command (src-tauri/README.md): the bundler from the committed lock, then the
# release `petstore` and the window, packaged together.
started=$(date +%s)
if npm ci --prefix src-tauri --no-audit --no-fund --loglevel=error &&
    npm --prefix src-tauri run --silent deb; then
    ok "the .deb builds ($(($(date +%s) - started)) s)"
else
    not_ok "the .deb builds"
    finish
fi
tree_after=$(git status --porcelain --untracked-files=all 2>/dev/null)
check "building the .deb leaves the work tree as it was (no rewritten lock, nothing new)" \
    test "$tree_before" = "$tree_after"
[ "$tree_before" = "$tree_after" ] || diff <(echo "$tree_before") <(echo "$tree_after") | sed 's/^/#   /'

TARGET_DIR=$(cargo metadata --format-version 1 --no-deps | python3 -c 'import json,sys; print(json.load(sys.stdin)["target_directory"])')
DEB=$(ls -t "$TARGET_DIR"/release/bundle/deb/*.deb | head -1)
echo "# .deb: $DEB, $(du -k "$DEB" | cut -f1) KiB ($(python3 -c "import os,sys; print(f'{os.path.getsize(sys.argv[1]) / 2**20:.1f}')" "$DEB") MiB);" \
     "installed size $(dpkg-deb -f "$DEB" Installed-Size) KiB"

check "the package is called pet-store" test "$(dpkg-deb -f "$DEB" Package)" = pet-store
check "it depends on WebKitGTK 4.1 and GTK 3" \
    bash -c "dpkg-deb -f '$DEB' Depends | grep -q libwebkit2gtk-4.1-0 && dpkg-deb -f '$DEB' Depends | grep -q libgtk-3-0"
check "it installs /usr/bin/petstore-desktop" bash -c "dpkg-deb -c '$DEB' | grep -q ' usr/bin/petstore-desktop\$'"
check "it installs /usr/bin/petstore, the command the README's instructions use" \
    bash -c "dpkg-deb -c '$DEB' | grep -q '^-rwxr-xr-x .* usr/bin/petstore\$'"
check "it installs the systemd unit petstore.service" \
    bash -c "dpkg-deb -c '$DEB' | grep -q ' usr/lib/systemd/system/petstore.service\$'"
check "it installs a menu entry that starts petstore-desktop" \
    bash -c "dpkg-deb --fsys-tarfile '$DEB' | tar -xO 'usr/share/applications/Pet Store.desktop' | grep -qx 'Exec=petstore-desktop'"

# ---------------------------------------------------------------- the installed package
UNIT=/usr/lib/systemd/system/petstore.service
# Not started on install: the package has no maintainer script that enables or starts a unit.
no_start_on_install() {
    local dir scripts
    dir=$(mktemp -d)
    dpkg-deb -e "$DEB" "$dir" || return 1
    scripts=$(cat "$dir"/preinst "$dir"/postinst 2>/dev/null)
    rm -rf "$dir"
    ! grep -qE 'systemctl|deb-systemd|invoke-rc.d|petstore' <<<"$scripts"
}
check "installing it starts nothing: no maintainer script enables or starts the unit" no_start_on_install
if ! as_root true 2>/dev/null; then
    echo "# skipped: installing the .deb: neither root nor a password-less sudo"
elif dpkg-query -W -f='${Status}' pet-store 2>/dev/null | grep -q "install ok installed" &&
    [ "${DEB_REINSTALL:-0}" != 1 ]; then
    echo "# skipped: installing the .deb: pet-store is already installed here (DEB_REINSTALL=1 to replace it)"
else
    installed_before=$(dpkg-query -W -f='${Status}' pet-store 2>/dev/null | grep -c "install ok installed")
    if out=$(as_root env DEBIAN_FRONTEND=noninteractive dpkg -i "$DEB" 2>&1); then
        ok "dpkg -i installs the package"
        [ "$installed_before" = 1 ] || CLEANUP+=("as_root dpkg -r pet-store >/dev/null 2>&1")
    else
        not_ok "dpkg -i installs the package" "$(echo "$out" | tail -5)"
        finish
    fi
    check "the installed petstore is on the PATH at /usr/bin/petstore" test "$(command -v petstore)" = /usr/bin/petstore
    check "no petstore server was started by installing" bash -c "! pgrep -f '^/usr/bin/petstore' >/dev/null"
    help_names_commands() {
        local help
        help=$(/usr/bin/petstore --help 2>&1) || return 1
        grep -qw serve <<<"$help" && grep -qw backup <<<"$help" && grep -qw restore <<<"$help" && grep -qw keys <<<"$help"
    }
    check "the installed petstore --help names serve, backup, restore and keys" help_names_commands

    # The unit as systemd reads it (a static check: the unit file's syntax, its directives and
    # that its ExecStart is an executable).
    if command -v systemd-analyze >/dev/null; then
        if out=$(systemd-analyze verify "$UNIT" 2>&1); then
            ok "systemd-analyze verify finds nothing wrong with petstore.service"
        else
            not_ok "systemd-analyze verify finds nothing wrong with petstore.service" "$out"
        fi
    else
        echo "# skipped: systemd-analyze verify: systemd-analyze is not installed"
    fi
    mapfile -t unit_env < <(sed -n 's/^Environment=//p' "$UNIT")
    exec_start=$(sed -n 's/^ExecStart=//p' "$UNIT")
    check "the unit runs /usr/bin/petstore serve" test "$exec_start" = "/usr/bin/petstore serve"
    unit_is() { grep -qx "$1" "$UNIT"; }
    check "the unit runs as a user of its own (DynamicUser=yes)" unit_is 'DynamicUser=yes'
    unit_store() { unit_is 'StateDirectory=petstore' && printf '%s\n' "${unit_env[@]}" | grep -qx 'PETSTORE_DB=/var/lib/petstore/store.sqlite'; }
    check "the unit keeps its store in its state directory, /var/lib/petstore" unit_store
    check "the unit is not enabled by default: it is wanted only once enabled" bash -c "! ls /etc/systemd/system/*.wants/petstore.service >/dev/null 2>&1"

    # The unit's command line as the unit runs it: its environment and nothing else, an
    # unprivileged user (as DynamicUser gives it; here `nobody`), UMask=0077, and a state
    # directory of that user's (mode 0700), here a temporary one in place of /var/lib/petstore.
    # systemd is not PID 1 in the container CI uses, so `systemctl start/stop petstore` is not
    # tried here: this runs what systemd would run, and sends the SIGTERM its stop sends.
    WORK=$(mktemp -d)
    CLEANUP+=("rm -rf '$WORK'")
    chmod 0711 "$WORK"
    STATE=$WORK/state
    mkdir -m 0700 "$STATE"
    as_root chown 65534:65534 "$STATE"
    port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
    env_args=()
    for assignment in "${unit_env[@]}"; do
        case $assignment in
        PETSTORE_DB=*) env_args+=("PETSTORE_DB=$STATE/store.sqlite") ;;
        PETSTORE_BIND=*) env_args+=("PETSTORE_BIND=127.0.0.1:$port") ;;
        *) env_args+=("$assignment") ;;
        esac
    done
    # shellcheck disable=SC2086 # the unit's ExecStart is split into words as systemd splits it
    as_root_prefix=()
    [ "$(id -u)" -eq 0 ] || as_root_prefix=(sudo -n)
    "${as_root_prefix[@]}" setpriv --reuid=65534 --regid=65534 --clear-groups \
        env -i PATH=/usr/bin:/bin "${env_args[@]}" sh -c 'umask 0077 && exec "$@"' sh $exec_start \
        >"$WORK/serve.log" 2>&1 &
    serve_pid=$!
    CLEANUP+=("kill $serve_pid 2>/dev/null")
    up=""
    for _ in $(seq 600); do
        [ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/health")" = 200 ] && { up=1; break; }
        kill -0 "$serve_pid" 2>/dev/null || break
        sleep 0.1
    done
    check "the unit's command serves the store (GET /health 200)" test -n "$up"
    [ -n "$up" ] || sed 's/^/#   /' "$WORK/serve.log"
    admin_key=$(grep -A1 'Its admin key' "$WORK/serve.log" | tail -1 | tr -d ' ')
    check "its first start prints the new store's admin key once, for the journal" \
        test "$(grep -c 'Its admin key' "$WORK/serve.log")" = 1 -a -n "$admin_key"
    owned_by_service() { [ "$(stat -c '%u %a' "$STATE/store.sqlite")" = "65534 600" ]; }
    check "the store is the service user's own, private to it (0600)" owned_by_service
    created=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $admin_key" -H 'Content-Type: application/json' \
        -d '{"name":"Packaged fish"}' "http://127.0.0.1:$port/categories")
    check "the served store takes a change (POST /categories 201)" test "$created" = 201

    # The README's backup of the service's store: `sudo petstore --db … backup FILE`, while
    # the service runs.
    backup_has_the_change() {
        /usr/bin/petstore --db "$STATE/store.sqlite" backup "$WORK/copy.sqlite" >"$WORK/backup.log" 2>&1 || return 1
        python3 - "$WORK/copy.sqlite" <<'PY'
import sqlite3, sys
db = sqlite3.connect(sys.argv[1])
assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
assert db.execute("SELECT count(*) FROM categories WHERE name = 'Packaged fish'").fetchone()[0] == 1
PY
    }
    if backup_has_the_change; then
        ok "the installed petstore backup copies the live store, the change included, into a sound file"
    else
        not_ok "the installed petstore backup copies the live store" "$(tail -3 "$WORK/backup.log")"
    fi
    others=$(find "$STATE" -not -uid 65534 | sed "s|$STATE|STATE|")
    check "the backup, run as root, leaves every file of the service's store to the service" \
        test -e "$STATE/store.sqlite" -a -z "$others"
    [ -z "$others" ] || echo "# not the service's: $others"
    still=$(curl -s -o /dev/null -w '%{http_code}' -H "X-API-Key: $admin_key" "http://127.0.0.1:$port/categories")
    check "the service serves on after the backup (GET /categories 200)" test "$still" = 200

    kill -TERM "$serve_pid" 2>/dev/null
    code=124
    for _ in $(seq 300); do kill -0 "$serve_pid" 2>/dev/null || { wait "$serve_pid"; code=$?; break; }; sleep 0.1; done
    check "SIGTERM (what systemctl stop sends) ends it with status 0" test "$code" = 0
    closed() { grep -q 'INFO stopped' "$WORK/serve.log" && [ ! -s "$STATE/store.sqlite-wal" ]; }
    check "it stops cleanly: it logs that it stopped and the store is checkpointed (no WAL left)" closed
    echo "# not tested here: systemctl start/stop petstore (systemd is not PID 1 here: $(ps -p 1 -o comm=));" \
         "the unit's command line was run as the unit runs it instead"
fi

if [ "${DEB_WINDOW_TEST:-1}" = 0 ]; then
    echo "# skipped: the window test on the packaged petstore-desktop (DEB_WINDOW_TEST=0)"
    finish
fi
# The packaged window, unpacked (not installed), through the whole desktop test.
UNPACKED=$(mktemp -d)
CLEANUP+=("rm -rf '$UNPACKED'")
dpkg-deb -x "$DEB" "$UNPACKED"
DESKTOP_APP=$UNPACKED/usr/bin/petstore-desktop "$HERE/run.sh" | tee "$UNPACKED/run.out" | grep -v -E '^[0-9]+ passed, [0-9]+ failed'
count_checks "$UNPACKED/run.out"
finish
