#!/usr/bin/env bash
# `ur play` with the computer in both seats, for every preset: the game must end with a win,
# boxed must print the score of the win, and a seed must fix the whole game.
# Usage: play_computer.sh <path-to-ur> [tests-dir]
set -euo pipefail

UR=${1:?usage: play_computer.sh <path-to-ur> [tests-dir]}
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT

fail() {
  echo "FAIL: $*" >&2
  exit 1
}

PRESETS="finkel gamepotion basic finkel6 conventional murray murray-royalur british-museum bell
boxed masters blitz aseb"

for r in $PRESETS; do
  echo "check: $r, computer vs computer, seed 1, ends with exit 0 and a final line with 'wins'"
  status=0
  "$UR" play --rules "$r" --light computer --dark computer --seed 1 --ascii </dev/null \
    >"$TMP/$r.out" 2>"$TMP/$r.err" || status=$?
  [[ $status -eq 0 ]] || fail "$r: exit status $status; stderr: $(cat "$TMP/$r.err")"
  last=$(tail -n 1 "$TMP/$r.out")
  [[ $last == *wins* ]] || fail "$r: last line is '$last', expected a line with 'wins'"
  grep -q "=== Game over ===" "$TMP/$r.out" || fail "$r: no end-of-game summary"
  grep -Eq "^Light: borne off [0-9]+/[0-9]+, captures [0-9]+, rosettes landed [0-9]+, throws [0-9]+" \
    "$TMP/$r.out" || fail "$r: no statistics line for light"
  grep -Eq "^Dark: borne off [0-9]+/[0-9]+" "$TMP/$r.out" || fail "$r: no statistics line for dark"
  if LC_ALL=C grep -q $'[\x80-\xff\x1b]' "$TMP/$r.out"; then
    fail "$r: --ascii output holds non-ASCII bytes or escape sequences"
  fi
done

echo "check: boxed prints the score of the win"
grep -Eq "wins .*score [0-9]+\.$" "$TMP/boxed.out" ||
  fail "boxed: no score in the final line: '$(tail -n 1 "$TMP/boxed.out")'"

echo "check: bell prints the kitty result"
grep -Eq "^Kitty: (Light|Dark) takes [0-9]+; balances Light -?[0-9]+, Dark -?[0-9]+\.$" \
  "$TMP/bell.out" || fail "bell: no kitty result in the summary"

echo "check: the roll-off and the coin call are narrated"
grep -q "^Roll-off: Light throws" "$TMP/conventional.out" || fail "conventional: no roll-off line"
grep -Eq "^Coin call: (Light|Dark) starts\.$" "$TMP/boxed.out" || fail "boxed: no coin-call line"

echo "check: throws and computer moves are narrated with square names"
grep -Eq "^Light throws [0-4] \(" "$TMP/finkel.out" || fail "finkel: no 'Light throws' line"
grep -Eq "^(Light|Dark) moves [a-h][1-3] -> ([a-h][1-3]|off)" "$TMP/finkel.out" ||
  fail "finkel: no 'moves x -> y' line"
grep -Eq "^(Light|Dark) enters a piece at [a-d][13]" "$TMP/finkel.out" ||
  fail "finkel: no entry line"

echo "check: the same seed gives the same game (finkel and boxed, seed 1 again)"
for r in finkel boxed; do
  "$UR" play --rules "$r" --light computer --dark computer --seed 1 --ascii </dev/null \
    >"$TMP/$r.again"
  cmp -s "$TMP/$r.out" "$TMP/$r.again" || fail "$r: seed 1 gave two different games"
done

echo "check: another seed gives another game"
"$UR" play --rules finkel --light computer --dark computer --seed 2 --ascii </dev/null \
  >"$TMP/finkel.seed2"
if cmp -s "$TMP/finkel.out" "$TMP/finkel.seed2"; then
  fail "finkel: seeds 1 and 2 gave identical games"
fi

echo "check: a rule-set string with parameters plays too (finkel(pieces=3))"
"$UR" play --rules 'finkel(pieces=3)' --light computer --dark computer --seed 4 --ascii \
  </dev/null >"$TMP/p3.out"
tail -n 1 "$TMP/p3.out" | grep -q "wins by bearing off all 3 pieces" ||
  fail "finkel(pieces=3): unexpected last line '$(tail -n 1 "$TMP/p3.out")'"

echo "check: the perfect level without a table says so and plays as hard"
mkdir -p "$TMP/no-tables"
UR_DATA_DIR="$TMP/no-tables" "$UR" play --rules 'finkel(pieces=3)' --light perfect \
  --dark beginner --seed 5 --ascii </dev/null >"$TMP/perfect.out" 2>"$TMP/perfect.err" ||
  fail "perfect level without a table: exit $?: $(cat "$TMP/perfect.err")"
grep -q "no table available for finkel(pieces=3)" "$TMP/perfect.err" ||
  fail "perfect level: no note on stderr: '$(cat "$TMP/perfect.err")'"
grep -q "the perfect level plays as hard" "$TMP/perfect.err" ||
  fail "perfect level: the note does not say the hard level plays"
tail -n 1 "$TMP/perfect.out" | grep -q "wins by bearing off all 3 pieces" ||
  fail "perfect level: unexpected last line '$(tail -n 1 "$TMP/perfect.out")'"

echo "PASS: play_computer"
