#!/usr/bin/env bash
# The whole test suite, as CI runs it: `./scripts/test.sh` on a fresh Debian or Ubuntu
# machine installs what the suites need (as root, or through sudo), then runs them in
# order of cost. `./scripts/test.sh rust` (or contract, clients, ui, crash, faults, postgres, desktop,
# windows) runs one suite.
set -euo pipefail
cd "$(dirname "$0")/.."

suites=("$@")
[ ${#suites[@]} -gt 0 ] || suites=(rust contract clients ui crash faults postgres desktop windows)

as_root() { if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi; }

# Debian packages a suite needs, installed once if any is missing.
need_packages() {
  local missing=()
  for pkg in "$@"; do
    dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q "install ok installed" || missing+=("$pkg")
  done
  if [ ${#missing[@]} -gt 0 ]; then
    echo "== installing ${missing[*]}"
    as_root apt-get update -q
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends "${missing[@]}"
  fi
}

suite_rust() {
  echo "== formatting, lints, unit and HTTP tests"
  # The pairing test renders the QR code with rsvg-convert and reads it back with zbarimg.
  need_packages librsvg2-bin zbar-tools
  cargo fmt --all -- --check
  cargo clippy --all-targets -- -D warnings
  cargo test
}

suite_contract() {
  echo "== OpenAPI document and contract tests"
  cargo build --bin petstore
  tests/contract/run.sh
}

suite_clients() {
  echo "== example tills on clients generated from the served document, against a demo shop"
  need_packages python3-venv curl
  command -v npm >/dev/null || need_packages nodejs npm
  cargo build --bin petstore
  tests/clients/run.sh
}

suite_ui() {
  echo "== staff UI in headless Chromium"
  need_packages chromium fonts-dejavu-core
  cargo build --bin petstore
  tests/ui/run.sh
}

suite_crash() {
  echo "== crash test: SIGKILL during orders and sales"
  cargo build --bin petstore
  python3 tests/crash/run.py --cycles 3
}

suite_faults() {
  echo "== fault suite: hostile clients, full disk, bad store files, a second process"
  # nginx-light: the README's load-balancer configuration is tried against frozen and dead servers.
  need_packages python3 sqlite3 util-linux nginx-light
  cargo build --bin petstore
  python3 tests/faults/run.py
}

suite_postgres() {
  echo "== the HTTP suite and two processes on PostgreSQL (a throwaway cluster)"
  need_packages postgresql postgresql-common python3
  cargo build --bin petstore
  cargo test --test api --no-run
  # fsync off: the cluster lives for this run only; the store's own commits are still
  # acknowledged only after PostgreSQL has them.
  pg_virtualenv -o fsync=off -o max_connections=400 tests/postgres/run.sh
}

suite_desktop() {
  echo "== desktop app under Xvfb"
  tests/desktop/run.sh
  cargo clippy -p petstore-desktop --all-targets -- -D warnings
}

suite_windows() {
  echo "== petstore.exe cross-built for Windows, tested under Wine"
  # wine64 runs the 64-bit program (no i386 packages needed); mingw links it and the test
  # fixture DLL.
  need_packages gcc-mingw-w64-x86-64 wine wine64 python3 python3-venv
  tests/windows/run.sh
}

for suite in "${suites[@]}"; do
  "suite_$suite"
done
echo "== all suites passed: ${suites[*]}"
