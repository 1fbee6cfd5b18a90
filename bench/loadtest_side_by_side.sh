#!/usr/bin/env bash
# Two or more builds of `ur` under the same single-node load test, alternating (A B A B …), so that
# a shared, noisy machine treats them alike. Each run is `ur loadtest` (server and bot clients in
# one process, SQLite in a temporary directory) under /usr/bin/time; it prints per run the p50 and
# p99 from action to broadcast, the errors, and the CPU time of the whole process per measured
# action (server + bots: robust when the p99 is not, because the machine is busy).
#   bench/loadtest_side_by_side.sh [-r ROUNDS] UR_A [UR_B …]
# Defaults: 3 rounds of LOADTEST_OPTS="--games 1000 --clients 2000 --duration 20 --think-ms 1000".
# Latency percentiles are comparable only when nothing else competes for the cores; each run
# prints the machine's load beside its figures so that a busy run can be recognised and repeated.
set -euo pipefail
rounds=3
if [[ ${1:-} == -r ]]; then rounds=$2; shift 2; fi
(($# >= 1)) || { echo "usage: $0 [-r ROUNDS] UR_A [UR_B …]" >&2; exit 2; }
read -ra opts <<<"${LOADTEST_OPTS:---games 1000 --clients 2000 --duration 20 --think-ms 1000}"
bins=("$@")
out=$(mktemp); trap 'rm -f "$out" "$out.t"' EXIT
for r in $(seq 1 "$rounds"); do
  for bin in "${bins[@]}"; do
    /usr/bin/time -f "%U %S" -o "$out.t" "$bin" loadtest "${opts[@]}" --json >"$out" 2>/dev/null
    python3 - "$out" "$out.t" "$r" "$bin" "$(cut -d' ' -f1 /proc/loadavg)" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
user, system = map(float, open(sys.argv[2]).read().split()[-2:])
actions = d["actions_per_s"] * d["duration_s"]
print("round %s  %-28s p50 %6.1f ms  p99 %6.1f ms  errors %d  cpu/action %.3f ms  actions %d  load %s"
      % (sys.argv[3], sys.argv[4][-28:], d["latency_ms"]["p50"], d["latency_ms"]["p99"],
         d["errors"], (user + system) * 1000 / actions, actions, sys.argv[5]))
EOF
  done
done
