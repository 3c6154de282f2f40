#!/usr/bin/env bash
# Rate limiting on against off for GET /pets?ids=1: three alternating pairs of runs of the
# release server (wrk, 2 threads, 32 connections), so that drift on a shared machine weighs
# on both. The key is an enterprise key with limits the run cannot reach, so "on" pays for
# every check and never answers 429. Prints each run and the mean ratio on/off.
#   bench/rate_limits.sh [seconds per run, default 8]
set -euo pipefail
cd "$(dirname "$0")/.."
SECONDS_PER_RUN=${1:-8}
BIN=target/release/petstore
ADMIN=psk_bench_admin_0123456789abcdef0123456789abcdef0123456
command -v wrk >/dev/null || { echo "wrk is needed (apt-get install wrk)" >&2; exit 1; }
cargo build --release --bin petstore >&2

run() { # run on|off → prints requests/s
  local mode=$1 dir addr key pid
  dir=$(mktemp -d)
  PETSTORE_ADMIN_KEY=$ADMIN PETSTORE_LOG=warn "$BIN" serve --db "$dir/store.sqlite" \
    --bind 127.0.0.1:0 --rate-limits "$mode" > "$dir/out" 2>/dev/null &
  pid=$!
  until grep -q listening "$dir/out" 2>/dev/null; do sleep 0.05; done
  addr=$(sed -n 's|^petstore listening on http://||p' "$dir/out")
  post() { curl -sf -X POST "http://$addr$1" -H "X-API-Key: $ADMIN" -H 'Content-Type: application/json' -d "$2"; }
  post /categories '{"name":"Dogs"}' >/dev/null
  post /pets '{"name":"Rex","categoryId":1}' >/dev/null
  key=$(post /admin/keys '{"name":"bench","role":"readonly","plan":"enterprise","perMinute":1000000,"perDay":100000000}' \
        | python3 -c 'import json, sys; print(json.load(sys.stdin)["secret"])')
  out=$(wrk -t2 -c32 -d"${SECONDS_PER_RUN}s" -H "X-API-Key: $key" "http://$addr/pets?ids=1")
  kill "$pid"; wait "$pid" 2>/dev/null || true; rm -rf "$dir"
  if grep -q "Non-2xx" <<<"$out"; then echo "errors in the $mode run" >&2; exit 1; fi
  awk '/Requests\/sec/ {print $2}' <<<"$out"
}

on=(); off=()
for _ in 1 2 3; do
  on+=("$(run on)"); off+=("$(run off)")
  echo "on ${on[-1]} req/s   off ${off[-1]} req/s"
done
python3 - "${on[@]}" "${off[@]}" <<'PY'
import sys
values = [float(v) for v in sys.argv[1:]]
on, off = values[:3], values[3:]
mean_on, mean_off = sum(on) / 3, sum(off) / 3
print(f"mean: on {mean_on:,.0f} req/s, off {mean_off:,.0f} req/s, on/off = {mean_on / mean_off:.2f}")
PY
