# The desktop scripts' checks (sourced by run.sh and deb.sh), in the shape of
# bench/harness.py's Checks, which drive.py reports through: each check printed at once as
# `ok   NAME` or `FAIL NAME (detail)`; `finish` prints one summary line, "N passed, M failed"
# and then the failed names, and exits 1 when any check failed. `count_checks FILE` adds the
# checks another script printed in that shape (drive.py's, or run.sh's for deb.sh).
PASSED=0
FAILED=0
FAILED_NAMES=()

ok() { PASSED=$((PASSED + 1)); echo "ok   $1"; }
not_ok() { FAILED=$((FAILED + 1)); FAILED_NAMES+=("$1"); echo "FAIL $1${2:+ ($2)}"; }
check() { # check NAME COMMAND...
    local name=$1
    shift
    if "$@"; then ok "$name"; else not_ok "$name"; fi
}
count_checks() { # count_checks FILE
    local failed names
    PASSED=$((PASSED + $(grep -c '^ok   ' "$1")))
    failed=$(grep -c '^FAIL ' "$1")
    FAILED=$((FAILED + failed))
    if [ "$failed" -gt 0 ]; then
        # The names as the script's own summary line gives them (its last such line).
        names=$(sed -n -E 's/^([^:]*: )?[0-9]+ passed, [0-9]+ failed: //p' "$1" | tail -1)
        FAILED_NAMES+=("${names:-$failed in $(basename "$1"), named above}")
    fi
}
finish() {
    local joined="" name
    for name in "${FAILED_NAMES[@]}"; do joined+="${joined:+, }$name"; done
    echo "$PASSED passed, $FAILED failed${joined:+: $joined}"
    [ "$FAILED" -eq 0 ]
    exit $?
}
