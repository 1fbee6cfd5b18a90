#!/usr/bin/env bash
# `ur solve --endgame K`: the endgame tables of the seven-counter Murray and boxed games (each
# side at most K pieces left). `--count` prints the k-piece game's count, the table is written
# under its own name, described, queried inside the endgame and refused outside it, and the
# perfect player and `ur analyse` read it from the data directory.
# Usage: endgame.sh <path-to-ur> [tests-dir]
source "$(dirname "$0")/lib.bash" "$@"

echo "check: --count of an endgame table is the k-piece game's count"
out=$("$UR" solve --count --rules murray --endgame 4) || fail "count exited $?"
echo "$out" | grep -Eq "^216877010 states \(multiset encoding, endgame: at most 4 pieces left a side, 10 layers\)" ||
  fail "count murray k=4: '$out'"
out=$("$UR" solve --count --rules boxed --endgame 5) || fail "count boxed exited $?"
echo "$out" | grep -q "^251249082 states" || fail "count boxed k=5: '$out'"
"$UR" solve --count --rules murray --endgame 7 >/dev/null 2>&1 && fail "--endgame 7 accepted"

echo "check: murray --endgame 1 and boxed --endgame 2 are solved into the data directory"
export UR_DATA_DIR="$work/data"
"$UR" solve --rules murray --endgame 1 >"$work/m1.out" 2>&1 || fail "solve murray k=1: $(cat "$work/m1.out")"
"$UR" solve --rules boxed --endgame 2 >"$work/b2.out" 2>&1 || fail "solve boxed k=2: $(cat "$work/b2.out")"
[ -f "$work/data/tables/murray.endgame1.urt" ] || fail "no murray.endgame1.urt"
[ -f "$work/data/tables/boxed.endgame2.urt" ] || fail "no boxed.endgame2.urt"
grep -q "start position" "$work/m1.out" && fail "an endgame solve printed a start value"

echo "check: info names the k; query answers inside and refuses outside"
"$UR" table info "$work/data/tables/murray.endgame1.urt" >"$work/info" || fail "info exited $?"
grep -q "^endgame: *at most 1 pieces left a side" "$work/info" || fail "info: $(cat "$work/info")"
q=$("$UR" table query "$work/data/tables/murray.endgame1.urt" --position 'Lr/0ssssss/3ssssss') ||
  fail "query inside exited $?"
echo "$q" | grep -Eq "^light to throw: wins with probability 0\.[0-9]{6}$" || fail "query inside: '$q'"
"$UR" table query "$work/data/tables/murray.endgame1.urt" --position 'Lr/00sssss/3ssssss' \
  >/dev/null 2>"$work/err"
[ $? = 2 ] || fail "query outside: expected exit 2"
grep -q "outside the endgame table of murray .*light has 2, dark 1" "$work/err" ||
  fail "query outside: '$(cat "$work/err")'"

echo "check: a truncated endgame table is refused"
head -c 5000 "$work/data/tables/murray.endgame1.urt" >"$work/cut.urt"
"$UR" table query "$work/cut.urt" --position 'Lr/0ssssss/3ssssss' >/dev/null 2>"$work/err" &&
  fail "a truncated table was read"
[ -s "$work/err" ] || fail "a truncated table: no reason given"

echo "check: ur engine's eval is exact inside the endgame and an estimate before it"
t="$work/data/tables/murray.endgame1.urt"
printf '%s\n' "setoption name Rules value murray" "setoption name Table value $t" \
  "position Lr/0ssssss/3ssssss" eval "position Lr/00sssss/3ssssss" eval quit |
  "$UR" engine >"$work/out" 2>"$work/err" || fail "ur engine exited $?: $(cat "$work/err")"
want=$("$UR" table query "$t" --position 'Lr/0ssssss/3ssssss' | grep -Eo "[0-9]\.[0-9]{6}$")
grep -v '^evalok$' "$work/out" | sed -n 1p | grep -qx "eval win $want" ||
  fail "eval inside: '$(cat "$work/out")', the table says $want"
grep -v '^evalok$' "$work/out" | sed -n 2p | grep -Eqx "eval win 0\.[0-9]{6} estimate" ||
  fail "eval outside: '$(cat "$work/out")'"

echo "check: the perfect player plays murray from the endgame table and search before it"
out=$("$UR" tournament --rules murray --a perfect --b greedy --games 2 2>&1) ||
  fail "tournament exited $?: $out"

echo "check: ur play names the perfect seat with an endgame table as exact in the endgame"
"$UR" play --rules boxed --light perfect --dark greedy --seed 1 --ascii </dev/null \
  >"$work/play" 2>"$work/play.err" || fail "play exited $?: $(tail -3 "$work/play.err")"
grep -q "computer (perfect: exact in the endgame)" "$work/play" || fail "seat: $(head -5 "$work/play")"
grep -q "^ur play: perfect: exact with at most 2 pieces left a side" "$work/play.err" ||
  fail "note: $(cat "$work/play.err")"

[ $status = 0 ] && echo "PASS: endgame"
exit $status
