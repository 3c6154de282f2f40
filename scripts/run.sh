#!/usr/bin/env bash
# Starts Pet Store from a checkout.
#
#   ./scripts/run.sh            the desktop app where there is a display (DISPLAY or
#                               WAYLAND_DISPLAY); the headless server everywhere else
#   ./scripts/run.sh --headless the headless server even where there is a display
#
# On Debian or Ubuntu the desktop app's system libraries (WebKitGTK and friends) are
# installed with apt-get first if any is missing (through sudo when not root).
# PETSTORE_DB, PETSTORE_BIND and PETSTORE_ADMIN_KEY apply to both, as for `petstore serve`.
set -euo pipefail
cd "$(dirname "$0")/.."

# What building and running petstore-desktop needs (Tauri 2's Linux prerequisites).
DESKTOP_PACKAGES=(build-essential pkg-config libssl-dev libwebkit2gtk-4.1-dev libxdo-dev
                  libayatana-appindicator3-dev librsvg2-dev)

headless() {
    echo "Starting the headless server; the staff UI is at the address it prints." >&2
    exec cargo run --release -p petstore -- serve "$@"
}

missing_packages() {
    local pkg
    for pkg in "${DESKTOP_PACKAGES[@]}"; do
        dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || echo "$pkg"
    done
}

install_desktop_packages() {
    command -v dpkg-query >/dev/null && command -v apt-get >/dev/null || {
        echo "Not Debian or Ubuntu: install WebKitGTK 4.1 and its development files yourself" \
             "(see the README), then run: cargo run --release -p petstore-desktop" >&2
        return 0
    }
    local missing
    missing=$(missing_packages)
    [ -z "$missing" ] && return 0
    echo "Installing the desktop app's system libraries:" $missing >&2
    local sudo=()
    [ "$(id -u)" -eq 0 ] || sudo=(sudo)
    "${sudo[@]}" apt-get update
    # shellcheck disable=SC2086  # one word per package
    DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends $missing
}

if [ "${1:-}" = "--headless" ]; then
    shift
    headless "$@"
fi
if [ -z "${DISPLAY:-}" ] && [ -z "${WAYLAND_DISPLAY:-}" ]; then
    echo "No display here (DISPLAY and WAYLAND_DISPLAY are unset)." >&2
    headless "$@"
fi
install_desktop_packages
exec cargo run --release -p petstore-desktop
