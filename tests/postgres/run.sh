#!/usr/bin/env bash
# Runs inside `pg_virtualenv` (a throwaway PostgreSQL cluster; it sets PGHOST, PGPORT,
# PGUSER and PGPASSWORD): the whole HTTP suite on PostgreSQL, each test on a database of its
# own, then two `petstore serve` processes on one database.
set -euo pipefail
cd "$(dirname "$0")/../.."
base="postgresql://${PGUSER}:${PGPASSWORD}@${PGHOST}:${PGPORT}"
echo "== tests/api on PostgreSQL ${PGVERSION:-}"
# More test threads than cores: on PostgreSQL a test mostly waits on the server's processes.
PETSTORE_TEST_POSTGRES="$base" cargo test --test api -- --test-threads 4
if [ -f tests/postgres/two_processes.py ]; then
  echo "== two processes on one PostgreSQL database"
  psql -q -c "CREATE DATABASE petstore_two" postgres
  python3 tests/postgres/two_processes.py --db "$base/petstore_two" --bin target/debug/petstore
fi
