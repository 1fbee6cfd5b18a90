#!/usr/bin/env bash
# `ur loadtest --puzzles N --db URL` (docs/server.md): the puzzle mode on a named database. Two
# runs on one SQLite file both register every solver (a run lasts more than 5 s, so the second
# names its accounts anew) and answer without error; a database that does not open exits with 1
# and says why. A few seconds of loopback load each; no figure is checked.
source "$(dirname "$0")/lib.bash" "$@"
db="sqlite:$work/load.db"
for run in 1 2; do
  "$UR" loadtest --puzzles 2000 --clients 3 --duration 1 --think-ms 200 --db "$db" --json \
    >"$work/out$run" 2>"$work/err$run" || fail "run $run exited $?: $(cat "$work/err$run")"
  grep -q '"registered": 3' "$work/out$run" || fail "run $run registered: $(cat "$work/out$run")"
  grep -q '"errors": 0' "$work/out$run" || fail "run $run errors: $(cat "$work/out$run")"
done
"$UR" loadtest --puzzles 5 --clients 2 --duration 1 --db "sqlite:$work/no/such/dir/x.db" \
  >"$work/bad" 2>&1
code=$?
[ "$code" = 1 ] || fail "a database that does not open: exit $code, not 1: $(cat "$work/bad")"
grep -q 'ur loadtest:' "$work/bad" || fail "no message: $(cat "$work/bad")"
exit $status
