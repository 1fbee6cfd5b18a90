#!/usr/bin/env bash
# GET /metrics (docs/operations.md, "Watch"): off without --metrics-token (404), 401 without the
# token or with a wrong one, the Prometheus text format with it; every metric the sample Grafana
# dashboard (docs/monitoring/grafana-dashboard.json) queries is one the server exports, and every
# metric the server exports is documented in docs/operations.md. Also --log-format json: one JSON
# object per line.
# Usage: metrics.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"
root="$(cd "${2:?usage: metrics.sh <path-to-ur> <tests-dir>}/.." && pwd)"
pids=()
trap 'for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done; rm -rf "$work"' EXIT

# Starts `ur serve` on a free port with the extra flags given; sets $port.
serve() {
  local name=$1
  shift
  "$UR" serve --port 0 --data-dir "$work/$name" --web-root "$work/none" --no-solve "$@" \
    2>"$work/$name.log" &
  pids+=($!)
  port=""
  for _ in $(seq 1 200); do
    port=$(sed -n 's|.*listening on http://127.0.0.1:\([0-9]*\)/.*|\1|p' "$work/$name.log" | head -1)
    [ -n "$port" ] && return 0
    sleep 0.05
  done
  die "ur serve did not start: $(cat "$work/$name.log")"
}
status_of() { curl -s -o /dev/null -w '%{http_code}' "$@"; }

serve off
[ "$(status_of "http://127.0.0.1:$port/metrics")" = 404 ] || fail "/metrics answers without a token configured"

serve on --metrics-token s3cret --log-format json
base="http://127.0.0.1:$port"
curl -fsS "$base/api/health" >/dev/null || fail "no health answer"
curl -s "$base/api/nothing-here" >/dev/null
[ "$(status_of "$base/metrics")" = 401 ] || fail "/metrics without the token is not 401"
[ "$(status_of -H 'Authorization: Bearer wrong' "$base/metrics")" = 401 ] ||
  fail "/metrics with a wrong token is not 401"
curl -fsS -H 'Authorization: Bearer s3cret' "$base/metrics" >"$work/metrics" ||
  die "/metrics with the token failed"
grep -q '^ur_http_requests_total{code="200"} [1-9]' "$work/metrics" ||
  fail "no 200s counted: $(head -20 "$work/metrics")"
grep -q '^ur_http_requests_total{code="404"} [1-9]' "$work/metrics" || fail "no 404 counted"
grep -q '^ur_http_request_duration_seconds_bucket{le="+Inf"} [1-9]' "$work/metrics" ||
  fail "no request duration histogram"

python3 - "$work/metrics" "$root/docs/monitoring/grafana-dashboard.json" "$root/docs/operations.md" \
  >"$work/check" 2>&1 <<'PY' || fail "$(cat "$work/check")"
import json, re, sys
scrape, dashboard, guide = sys.argv[1:4]
families = {}
for line in open(scrape):
    m = re.match(r"# TYPE (\S+) (\S+)", line)
    if m:
        families[m.group(1)] = m.group(2)
    elif line.strip() and not line.startswith("#"):
        if not re.match(r'[a-z_]+(\{[^}]*\})? -?[0-9.e+Inf-]+$', line.strip()):
            sys.exit("not the text format: " + line)
def family(name):
    for suffix in ("_bucket", "_sum", "_count"):
        if name.endswith(suffix) and families.get(name[: -len(suffix)]) == "histogram":
            return name[: -len(suffix)]
    return name
bad = []
queries = 0
for panel in json.load(open(dashboard))["panels"]:
    for target in panel["targets"]:
        queries += 1
        for name in re.findall(r"\bur_[a-z_]+", target["expr"]):
            if family(name) not in families:
                bad.append(f'{panel["title"]}: {name}')
if bad:
    sys.exit("the dashboard queries metrics the server does not export: " + ", ".join(bad))
text = open(guide).read()
undocumented = [f for f in families if f"`{f}`" not in text]
if undocumented:
    sys.exit("exported but not in docs/operations.md: " + ", ".join(undocumented))
print(f"{queries} queries, {len(families)} metrics")
PY

# --log-format json: every line of the log is one JSON object with time and msg.
python3 - "$work/on.log" >"$work/logcheck" 2>&1 <<'PY' || fail "$(cat "$work/logcheck")"
import json, sys
lines = [l for l in open(sys.argv[1]) if l.strip()]
if not lines:
    sys.exit("empty log")
for l in lines:
    o = json.loads(l)
    if not isinstance(o, dict) or "time" not in o or "msg" not in o:
        sys.exit("not a log object: " + l)
PY
[ $status -eq 0 ] && echo "ok: /metrics ($(cat "$work/check")) and the JSON log"
exit $status
