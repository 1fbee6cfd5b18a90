#!/usr/bin/env bash
# The load test through HAProxy against one node and against three (docs/scaling.md,
# "Measurements"), alternated round by round so that both see the same machine: each round
# starts a fresh cluster (scripts/cluster up N), runs `ur loadtest` through the balancer and
# prints its JSON with PostgreSQL's counters (WAL position, commits, rows updated and inserted,
# before -> after) and Redis's own time per PUBLISH and EVAL, then stops the cluster.
# Usage: bench/cluster_loadtest.sh [ROUNDS [CLIENTS [GAMES [SECONDS]]]]   (default 3 400 200 15)
# A benchmark, not a test: it needs what scripts/cluster needs, and build/release/ur.
set -u
cd "$(dirname "$0")/.."
R=${1:-3}; C=${2:-400}; G=${3:-200}; D=${4:-15}
export UR_CLUSTER_DIR="${UR_CLUSTER_DIR:-${TMPDIR:-/tmp}/ur-cluster-bench}"
export UR_CLUSTER_NODE_ARGS="--max-open-tables-per-address 100000 --max-open-tables 100000"
for r in $(seq 1 "$R"); do
  for n in 1 3; do
    scripts/cluster up $n >/dev/null 2>&1 || { echo "up $n failed"; continue; }
    . "$UR_CLUSTER_DIR/env"
    redis-cli -p $REDIS_PORT config resetstat >/dev/null
    pg0=$(psql -h 127.0.0.1 -p $PG_PORT -U postgres -d ur -Atc "select pg_current_wal_lsn(), xact_commit, tup_updated, tup_inserted from pg_stat_database where datname='ur'")
    load=$(cut -d' ' -f1 /proc/loadavg)
    out=$(build/release/ur loadtest --port $BALANCER_PORT --clients $C --games $G --duration $D --connect-rate 200 --json 2>/dev/null)
    pg1=$(psql -h 127.0.0.1 -p $PG_PORT -U postgres -d ur -Atc "select pg_current_wal_lsn(), xact_commit, tup_updated, tup_inserted from pg_stat_database where datname='ur'")
    pub=$(redis-cli -p $REDIS_PORT info commandstats | grep -E "cmdstat_(publish|eval|evalsha):" | tr -d '\r' | tr '\n' ' ')
    echo "round $r nodes $n load $load :: $out :: pg $pg0 -> $pg1 :: $pub"
    scripts/cluster down >/dev/null 2>&1
  done
done
