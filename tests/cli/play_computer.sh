#!/usr/bin/env bash
# `ur play` with the computer in both seats, for every preset: the game must end with a win,
# boxed must print the score of the win, and a seed must fix the whole game.
# Usage: play_computer.sh <path-to-ur> [tests-dir]
set -euo pipefail

source "$(dirname "$0")/lib.bash" "$@"

PRESETS="finkel gamepotion basic finkel6 conventional murray murray-royalur british-museum bell
boxed masters blitz aseb"

for r in $PRESETS; do
  echo "check: $r, computer vs computer, seed 1, ends with exit 0 and a final line with 'wins'"
  status=0
  "$UR" play --rules "$r" --light computer --dark computer --seed 1 --ascii </dev/null \
    >"$work/$r.out" 2>"$work/$r.err" || status=$?
  [[ $status -eq 0 ]] || die "$r: exit status $status; stderr: $(cat "$work/$r.err")"
  last=$(tail -n 1 "$work/$r.out")
  [[ $last == *wins* ]] || die "$r: last line is '$last', expected a line with 'wins'"
  grep -q "=== Game over ===" "$work/$r.out" || die "$r: no end-of-game summary"
  grep -Eq "^Light: borne off [0-9]+/[0-9]+, captures [0-9]+, rosettes landed [0-9]+, throws [0-9]+" \
    "$work/$r.out" || die "$r: no statistics line for light"
  grep -Eq "^Dark: borne off [0-9]+/[0-9]+" "$work/$r.out" || die "$r: no statistics line for dark"
  if LC_ALL=C grep -q $'[\x80-\xff\x1b]' "$work/$r.out"; then
    die "$r: --ascii output holds non-ASCII bytes or escape sequences"
  fi
done

echo "check: boxed prints the score of the win"
grep -Eq "wins .*score [0-9]+\.$" "$work/boxed.out" ||
  die "boxed: no score in the final line: '$(tail -n 1 "$work/boxed.out")'"

echo "check: bell prints the kitty result"
grep -Eq "^Kitty: (Light|Dark) takes [0-9]+; balances Light -?[0-9]+, Dark -?[0-9]+\.$" \
  "$work/bell.out" || die "bell: no kitty result in the summary"

echo "check: the roll-off and the coin call are narrated"
grep -q "^Roll-off: Light throws" "$work/conventional.out" || die "conventional: no roll-off line"
grep -Eq "^Coin call: (Light|Dark) starts\.$" "$work/boxed.out" || die "boxed: no coin-call line"

echo "check: throws and computer moves are narrated with square names"
grep -Eq "^Light throws [0-4] \(" "$work/finkel.out" || die "finkel: no 'Light throws' line"
grep -Eq "^(Light|Dark) moves [a-h][1-3] -> ([a-h][1-3]|off)" "$work/finkel.out" ||
  die "finkel: no 'moves x -> y' line"
grep -Eq "^(Light|Dark) enters a piece at [a-d][13]" "$work/finkel.out" ||
  die "finkel: no entry line"

echo "check: the same seed gives the same game (finkel and boxed, seed 1 again)"
for r in finkel boxed; do
  "$UR" play --rules "$r" --light computer --dark computer --seed 1 --ascii </dev/null \
    >"$work/$r.again"
  cmp -s "$work/$r.out" "$work/$r.again" || die "$r: seed 1 gave two different games"
done

echo "check: another seed gives another game"
"$UR" play --rules finkel --light computer --dark computer --seed 2 --ascii </dev/null \
  >"$work/finkel.seed2"
if cmp -s "$work/finkel.out" "$work/finkel.seed2"; then
  die "finkel: seeds 1 and 2 gave identical games"
fi

echo "check: a rule-set string with parameters plays too (finkel(pieces=3))"
"$UR" play --rules 'finkel(pieces=3)' --light computer --dark computer --seed 4 --ascii \
  </dev/null >"$work/p3.out"
tail -n 1 "$work/p3.out" | grep -q "wins by bearing off all 3 pieces" ||
  die "finkel(pieces=3): unexpected last line '$(tail -n 1 "$work/p3.out")'"

echo "check: the perfect level without a table says so and plays as hard"
mkdir -p "$work/no-tables"
UR_DATA_DIR="$work/no-tables" "$UR" play --rules 'finkel(pieces=3)' --light perfect \
  --dark beginner --seed 5 --ascii </dev/null >"$work/perfect.out" 2>"$work/perfect.err" ||
  die "perfect level without a table: exit $?: $(cat "$work/perfect.err")"
grep -q "no table available for finkel(pieces=3)" "$work/perfect.err" ||
  die "perfect level: no note on stderr: '$(cat "$work/perfect.err")'"
grep -q "the perfect level plays as hard" "$work/perfect.err" ||
  die "perfect level: the note does not say the hard level plays"
tail -n 1 "$work/perfect.out" | grep -q "wins by bearing off all 3 pieces" ||
  die "perfect level: unexpected last line '$(tail -n 1 "$work/perfect.out")'"

echo "PASS: play_computer"
