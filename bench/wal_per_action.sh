#!/usr/bin/env bash
# What an accepted action writes to PostgreSQL (docs/scaling.md, "The per-action write"): two
# builds of `ur` side by side, alternating, each as one `ur serve` node on a fresh database of one
# throwaway server, under the same `ur loadtest` (whole games, so every stage of a game is in the
# mix). Prints per run the WAL bytes, the row writes and the state's size, and with WALDUMP=1 what
# the WAL is made of (pg_waldump --stats=record). Run it under scripts/pg-test:
#   scripts/pg-test bench/wal_per_action.sh OLD_UR NEW_UR [ROUNDS]
set -u
old=$1 new=$2 rounds=${3:-2}
base=${UR_TEST_PG_URL%/postgres}
q() { psql "$base/$1" -Atc "$2"; }
pgdata=$(q postgres "show data_directory")
bindir=$(ls -d /usr/lib/postgresql/*/bin | sort -rV | head -1)
for r in $(seq 1 "$rounds"); do
  for which in old new; do
    bin=${!which}
    db=ur_${which}_$r
    q postgres "CREATE DATABASE $db" >/dev/null
    port=$((20000 + RANDOM % 20000))
    dir=$(mktemp -d "${TMPDIR:-/tmp}/ur-wal-XXXXXX")
    UR_NO_SOLVE=1 "$bin" serve --port $port --db "$base/$db" --data-dir "$dir" \
      --max-open-tables 100000 --max-open-tables-per-address 100000 >"$dir/log" 2>&1 &
    pid=$!
    for _ in $(seq 100); do curl -sf "http://127.0.0.1:$port/api/rules" >/dev/null && break; sleep 0.2; done
    lsn0=$(q "$db" "select pg_current_wal_lsn()")
    "$new" loadtest --port $port --clients 40 --games 20 --think-ms 10 --duration 20 --json \
      >"$dir/lt.json" 2>&1
    lsn1=$(q "$db" "select pg_current_wal_lsn()")
    sleep 0.6  # the statistics reach pg_stat_user_tables within 500 ms
    wal=$(q "$db" "select pg_wal_lsn_diff('$lsn1', '$lsn0')::bigint")
    stat() { q "$db" "select coalesce((select $1 from pg_stat_user_tables where relname = '$2'), 0)"; }
    upd=$(stat n_tup_upd tables)
    echo "round $r $which: wal_bytes=$wal tables_updates=$upd" \
      "events_inserts=$(stat n_tup_ins table_events) events_deletes=$(stat n_tup_del table_events)" \
      "wal_per_update=$((wal / (upd > 0 ? upd : 1)))" \
      "state_bytes=$(q "$db" "select avg(octet_length(state))::int from tables")" \
      "state_stored=$(q "$db" "select avg(pg_column_size(state))::int from tables")" \
      "loadtest=$(tr -d '\n ' <"$dir/lt.json" | grep -o '"actions_per_s":[0-9.]*\|"errors":[0-9]*' | tr '\n' ' ')"
    if [ "${WALDUMP:-0}" = 1 ]; then
      "$bindir/pg_waldump" -p "$pgdata/pg_wal" -s "$lsn0" -e "$lsn1" --stats=record 2>&1
    fi
    kill $pid
    wait $pid 2>/dev/null
    rm -rf "$dir"
  done
done
