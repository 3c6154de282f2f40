#!/usr/bin/env bash
# The examples a POS developer starts from, tested as such a developer would use them.
#
#   1. `petstore demo` makes a demo shop on a temporary store and serves it;
#   2. for examples/python and examples/typescript, a copy of the example follows its README
#      word for word (the README's first ```sh block, run with PETSTORE_URL and a pos key
#      PETSTORE_KEY from the demo): it generates the client from the served /openapi.json,
#      type-checks the till (`mypy --strict`, `tsc --strict`) and sells one item;
#   3. the sale is checked in the store with the admin key: the order exists, is complete, is
#      for the pet the till named, and the stock went down by what was sold; the README's
#      basket is one sale of three lines paid in cash with change, its receipt text (at most 42
#      characters a line) was printed, and one unit of its first line was refunded (with the
#      demo's staff key, PETSTORE_STAFF_KEY);
#   4. each till is run once more, by barcode, asking for more than the stock, and must show the
#      store's error by its code (insufficient_stock) and exit 1;
#   5. the generated Python models hold one class per shared shape (no `*_type_1` copies);
#   6. the TypeScript till exits by itself once its work is done: run under a generous
#      timeout it is never killed, and when its main module has returned no timer is left
#      to keep Node running (a pending sleep once kept it alive for ten seconds).
#
# Needs python3 (with venv), Node.js 20+ with npm, and the built binary
# (PETSTORE_BIN, default target/debug/petstore). The examples install their own tools (pip in
# a venv, `npm ci` from the committed lock file), as their READMEs say.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
bin="${PETSTORE_BIN:-$root/target/debug/petstore}"

say() { printf '\n== %s\n' "$*"; }
fail() { printf 'clients: %s\n' "$*" >&2; exit 1; }

[[ -x "$bin" ]] || fail "no server binary at $bin: run cargo build first"
command -v node >/dev/null || fail "Node.js is needed (apt-get install nodejs npm)"

tmp="$(mktemp -d)"
server_pid=""
cleanup() {
    if [[ -n "$server_pid" ]]; then
        kill "$server_pid" 2>/dev/null || true
        wait "$server_pid" 2>/dev/null || true
    fi
    rm -rf "$tmp"
}
trap cleanup EXIT

say "petstore demo"
mkfifo "$tmp/stdout"
"$bin" --db "$tmp/demo.sqlite" demo --bind 127.0.0.1:0 >"$tmp/stdout" 2>"$tmp/server.log" &
server_pid=$!
exec 3<"$tmp/stdout"
base="" admin_key="" pos_key="" staff_key=""
while IFS= read -r -t 120 line <&3; do
    printf '%s\n' "$line"
    if [[ "$line" =~ petstore\ listening\ on\ (http://[^[:space:]]+) ]]; then base="${BASH_REMATCH[1]%/}"; fi
    if [[ "$line" =~ ^Admin\ key:\ (psk_[0-9a-f]+) ]]; then admin_key="${BASH_REMATCH[1]}"; fi
    if [[ "$line" =~ ^POS\ key.*:\ (psk_[0-9a-f]+) ]]; then pos_key="${BASH_REMATCH[1]}"; fi
    if [[ "$line" =~ ^Staff\ key.*:\ (psk_[0-9a-f]+) ]]; then staff_key="${BASH_REMATCH[1]}"; break; fi
done
[[ -n "$base" && -n "$admin_key" && -n "$pos_key" && -n "$staff_key" ]] || {
    tail -n 20 "$tmp/server.log" >&2 || true
    fail "the demo did not print its address and keys"
}
cat <&3 >/dev/null &

# GET a path with the admin key and print one field of the JSON answer (a dotted path).
field() {
    curl -fsS -H "X-API-Key: $admin_key" "$base$1" |
        python3 -c 'import json,sys; v=json.load(sys.stdin)
for k in sys.argv[1].split("."): v=v[int(k)] if k.isdigit() else v[k]
print(v)' "$2"
}

# Pet id and stock of the item whose exact name is $1.
pet_id_of() {
    curl -fsS -G -H "X-API-Key: $admin_key" "$base/pets" --data-urlencode "q=$1" |
        python3 -c 'import json,sys; print(next(p["id"] for p in json.load(sys.stdin) if p["name"]==sys.argv[1]))' "$1"
}

# Runs the README of examples/$1 word for word in a copy of the example, then checks the sale.
check_example() {
    local name="$1" dir="$tmp/$1"
    say "examples/$name: its README, word for word"
    rm -rf "$dir" && mkdir -p "$dir"
    # The example as a fresh clone has it: no generated code, tools or builds.
    tar -C "examples/$name" --exclude=node_modules --exclude=.venv --exclude=dist \
        --exclude=petstore_client --exclude=schema.d.ts --exclude=.mypy_cache -cf - . | tar -C "$dir" -xf -
    local commands
    commands="$(awk '/^```sh$/ {on=1; next} /^```$/ && on {exit} on' "$dir/README.md")"
    [[ -n "$commands" ]] || fail "examples/$name/README.md has no sh block"
    local sold_name
    sold_name="$(printf '%s\n' "$commands" | grep -E ' sell "' | tail -n1 | sed -E 's/.* sell "([^"]+)".*/\1/')"
    local pet before
    pet="$(pet_id_of "$sold_name")" || fail "the demo has no pet named $sold_name"
    before="$(field "/store/inventory/$pet" quantity)"
    printf '%s\n' "$commands" | sed 's/^/  $ /'
    (cd "$dir" && PETSTORE_URL="$base" PETSTORE_KEY="$pos_key" PETSTORE_STAFF_KEY="$staff_key" \
        bash -euo pipefail -c "$commands") \
        >"$tmp/$name.out" 2>"$tmp/$name.err" || {
        tail -n 40 "$tmp/$name.out" "$tmp/$name.err" >&2
        fail "examples/$name: following the README failed"
    }
    tail -n 3 "$tmp/$name.out"
    local order
    order="$(grep -oE '^sold order [0-9]+' "$tmp/$name.out" | grep -oE '[0-9]+$')" ||
        fail "examples/$name: the till did not say which order it placed"
    [[ "$(field "/store/orders/$order" petId)" == "$pet" ]] || fail "order $order is not for pet $pet"
    [[ "$(field "/store/orders/$order" complete)" == "True" ]] || fail "order $order was not handed over"
    local sold after
    sold="$(field "/store/orders/$order" quantity)"
    after="$(field "/store/inventory/$pet" quantity)"
    [[ "$after" -eq $((before - sold)) ]] || fail "stock of pet $pet went from $before to $after, $sold sold"
    grep -q "(from /events)" "$tmp/$name.out" || fail "examples/$name: the till never saw its sale on /events"
    echo "ok     examples/$name sold order $order ($sold of pet $pet); stock $before -> $after"
    check_basket "$name"
}

# The README's basket: one sale of three lines, cash with change, its receipt text printed,
# one unit of its first line refunded.
check_basket() {
    local name="$1" out="$tmp/$1.out" sale
    sale="$(grep -oE '^sold sale [0-9]+' "$out" | grep -oE '[0-9]+$')" ||
        fail "examples/$name: the till did not say which sale it rang up"
    curl -fsS -H "X-API-Key: $admin_key" "$base/store/sales/$sale" | python3 -c '
import json, sys
sale = json.load(sys.stdin)
lines, payments, refunded = sale["lines"], sale["payments"], sale["refunded"]
problems = []
if len(lines) != 3: problems.append(f"{len(lines)} lines, not 3")
if [p["method"] for p in payments] != ["cash"]: problems.append(f"payments {payments}")
if sale["change"] <= 0: problems.append("no change given")
if refunded != lines[0]["unitPrice"]: problems.append(f"refunded {refunded}, not one unit of line 0")
if problems: sys.exit("; ".join(problems))
' || fail "examples/$name: sale $sale is not the README's basket"
    # The receipt text: everything the till printed between the sale and its refund.
    local receipt
    receipt="$(sed -n '/^sold sale /,/^refunded /p' "$out" | sed '1d;$d')"
    grep -q 'TOTAL' <<<"$receipt" || fail "examples/$name: no receipt text was printed"
    awk 'length($0) > 42 { bad = 1 } END { exit bad }' <<<"$receipt" ||
        fail "examples/$name: a receipt line is longer than 42 characters"
    grep -qE '^refunded [0-9]+\.[0-9]{2} of sale '"$sale"': 1 x ' "$out" ||
        fail "examples/$name: the till did not say what it refunded"
    echo "ok     examples/$name rang up sale $sale (3 lines, cash with change), printed its receipt ($(wc -l <<<"$receipt") lines) and refunded one unit"
}

# The TypeScript till exits by itself: it is never killed under a generous timeout, and once
# its main module has returned no timer is left to keep Node running.
check_exits() {
    local dir="$tmp/typescript" status=0
    (cd "$dir" && PETSTORE_URL="$base" PETSTORE_KEY="$pos_key" timeout 120 node --input-type=module -e '
const till = "./dist/till.js";
process.argv.splice(1, 0, till);
await import(till);
console.error("left open: " + JSON.stringify(process.getActiveResourcesInfo()));
' sell "$1") >"$tmp/exits.out" 2>"$tmp/exits.err" || status=$?
    [[ "$status" -ne 124 ]] || fail "examples/typescript did not exit by itself within 120 s"
    [[ "$status" -eq 0 ]] || fail "examples/typescript exited $status: $(tail -n 5 "$tmp/exits.err")"
    grep -q '^left open: ' "$tmp/exits.err" || fail "examples/typescript: the exit probe did not run"
    if grep '^left open: ' "$tmp/exits.err" | grep -q '"Timeout"'; then
        fail "examples/typescript left a timer running after its work: $(grep '^left open: ' "$tmp/exits.err")"
    fi
    echo "ok     examples/typescript exits by itself; after its work: $(grep '^left open: ' "$tmp/exits.err" | cut -c12-)"
}

check_refusal() {
    local name="$1" run="$2" item="$3" status=0
    (cd "$tmp/$name" && PETSTORE_URL="$base" PETSTORE_KEY="$pos_key" bash -euo pipefail -c "$run \"$item\" 10000") \
        >"$tmp/$name.refused.out" 2>"$tmp/$name.refused.err" || status=$?
    [[ "$status" -eq 1 ]] || fail "examples/$name: selling past the stock exited $status, not 1"
    grep -q "refused: insufficient_stock (409)" "$tmp/$name.refused.err" ||
        fail "examples/$name: the refusal was not shown by its code: $(cat "$tmp/$name.refused.err")"
    echo "ok     examples/$name shows a refusal by its code: $(cat "$tmp/$name.refused.err")"
}

check_example python
# By barcode: the demo's first pet (a puppy: one in stock, never sold by the demo).
check_refusal python ". .venv/bin/activate && python till.py sell" "2000000000015"
models="$tmp/python/petstore_client/models"
[[ -d "$models" ]] || fail "no generated Python models at $models"
copies="$(find "$models" -name '*_type_[0-9]*.py' -printf '%f\n')"
[[ -z "$copies" ]] || fail "generated Python models copy shared shapes: $copies"
echo "ok     the generated Python models have one class per shared shape ($(ls "$models" | wc -l) files)"

check_example typescript
check_refusal typescript "node dist/till.js sell" "2000000000015"
check_exits "Neon tetra"

if grep -qE 'panicked at' "$tmp/server.log"; then
    grep -E -A3 'panicked at' "$tmp/server.log" >&2
    fail "the server panicked"
fi
say "clients checks passed"
