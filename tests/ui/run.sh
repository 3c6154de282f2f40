#!/usr/bin/env bash
# Browser tests of the staff UI: real headless Chromium (Debian's package, driven by
# playwright-core) against the real petstore binary, plus unit tests of the UI's pure modules.
#
#   tests/ui/run.sh                   tests target/debug/petstore (built first if missing)
#   PETSTORE_BIN=path tests/ui/run.sh  tests another build
#   CHROMIUM=path tests/ui/run.sh      another Chromium (default /usr/bin/chromium)
#
# First the UI's JSDoc types are checked (tsc --checkJs --noEmit, tsconfig.ui.json; no build
# step). Screenshots of each page at 1280×800 are written to tests/ui/screenshots/.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"

export PETSTORE_BIN="${PETSTORE_BIN:-$root/target/debug/petstore}"
export CHROMIUM="${CHROMIUM:-/usr/bin/chromium}"

if [ ! -x "$PETSTORE_BIN" ]; then
    echo "building petstore ($PETSTORE_BIN is missing)" >&2
    (cd "$root" && cargo build --bin petstore)
fi

if [ ! -x "$CHROMIUM" ]; then
    # A fresh machine: Debian's chromium, never a browser download.
    if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null; then
        echo "installing Debian's chromium" >&2
        apt-get update -qq
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null
    else
        echo "no Chromium at $CHROMIUM: install Debian's chromium (apt-get install chromium) or set CHROMIUM" >&2
        exit 1
    fi
fi

cd "$here"
if [ -f package-lock.json ]; then
    npm ci --no-audit --no-fund --loglevel=error
else
    npm install --no-audit --no-fund --loglevel=error
fi
echo "== type-checking the UI's JSDoc (tsc --checkJs --noEmit over ui/)" >&2
./node_modules/.bin/tsc -p tsconfig.ui.json --checkJs --noEmit
rm -rf screenshots
exec node --test --test-concurrency=1 ./*.test.js
