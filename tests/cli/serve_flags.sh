#!/usr/bin/env bash
# `ur serve`'s flags as docs/server.md ("Flags") lists them: every flag of `ur serve --help` has
# a row, and each row's environment variable is the one the command reads (the service's
# /etc/ur/ur.conf sets flags only through them, docs/operations.md). And a variable takes effect:
# UR_QUIET silences the access log as --quiet does.
# Usage: serve_flags.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"
root="$(cd "${2:?usage: serve_flags.sh <path-to-ur> <tests-dir>}/.." && pwd)"

"$UR" serve --help >"$work/help" || die "serve --help exited $?"
# The documented rows: "| `--flag` `[UR_X]` |".
grep -oE '^\| `--[a-z-]+` `\[UR_[A-Z_]+\]`' "$root/docs/server.md" |
  sed -E 's/^\| `(--[a-z-]+)` `\[(UR_[A-Z_]+)\]`/\1 \2/' >"$work/documented"
[ -s "$work/documented" ] || die "no flag rows found in docs/server.md"
grep -E '^\| `--' "$root/docs/server.md" | grep -v '\[UR_' | sed 's/^/FAIL: a row without its variable: /'
grep -E '^\| `--' "$root/docs/server.md" | grep -qv '\[UR_' && status=1

echo "check: each documented variable is the one the flag reads"
while read -r flag var; do
  # CLI11 names the variable on the flag's own line: "  -p,--port UINT=8080 (Env:UR_PORT)".
  line=$(grep -E "^ +(-[a-z],)?$flag\b" "$work/help" | head -1)
  [ -n "$line" ] || { fail "$flag is documented but not in ur serve --help"; continue; }
  [[ $line == *"(Env:$var)"* ]] || fail "$flag: help does not name $var: $line"
done <"$work/documented"

echo "check: every flag of ur serve --help is documented"
grep -oE '^ +(-[a-z],)?--[a-z-]+' "$work/help" | grep -oE -- '--[a-z-]+' | sort -u >"$work/flags"
while read -r flag; do
  [ "$flag" = --help ] && continue
  grep -q -- "^$flag " "$work/documented" ||
    grep -qE "^\| \`$flag\`" "$root/docs/server.md" || fail "$flag is not in docs/server.md's table"
done <"$work/flags"

echo "check: UR_QUIET=1 silences the access log as --quiet does"
UR_QUIET=1 "$UR" serve --port 0 --data-dir "$work/d" --web-root "$work/none" --no-solve \
  --no-puzzles 2>"$work/log" &
pid=$!
port=""
for _ in $(seq 1 100); do
  port=$(grep -oE 'listening on http://127\.0\.0\.1:[0-9]+' "$work/log" | grep -oE '[0-9]+$')
  [ -n "$port" ] && break
  sleep 0.1
done
[ -n "$port" ] || { kill $pid; die "the server did not start: $(cat "$work/log")"; }
curl -s "http://127.0.0.1:$port/api/health" >/dev/null || fail "no answer on /api/health"
sleep 0.3
kill $pid
wait $pid 2>/dev/null
grep -q "/api/health" "$work/log" && fail "UR_QUIET=1 still logged the request: $(cat "$work/log")"

[ $status = 0 ] && echo "PASS: serve_flags"
exit $status
