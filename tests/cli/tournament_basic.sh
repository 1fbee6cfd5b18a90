#!/usr/bin/env bash
# `ur tournament`: the summary, the JSON, determinism across threads, and clear errors.
# Usage: tournament_basic.sh <path-to-ur> <tests-dir>
set -euo pipefail
source "$(dirname "$0")/lib.bash" "$@"

# Plain summary (stderr is not a TTY here: no progress bar).
err="$work/stderr"
out=$("$UR" tournament --rules finkel --a greedy --b random --games 60 --seed 7 2>"$err")
[ ! -s "$err" ] || die "unexpected stderr: $(cat "$err")"
echo "$out" | grep -q "^finkel: A = greedy  vs  B = random, 60 games, seed 7$" || die "header: $out"
echo "$out" | grep -qE "^A win rate [0-9.]+%  \(95% CI [0-9.]+% \.\. [0-9.]+%\)$" || die "win rate: $out"
echo "$out" | grep -qE "^Elo A - B [+-]([0-9]+|inf)  \(95% CI " || die "elo: $out"
echo "$out" | grep -qE "throws per game" || die "throws: $out"

# JSON, identical for one and two threads apart from the timing.
j1=$("$UR" tournament --rules boxed --a "expectimax(depth=1)" --b greedy --games 24 --seed 3 \
       --threads 1 --json | grep -v '"seconds"\|"threads"')
j2=$("$UR" tournament --rules boxed --a "expectimax(depth=1)" --b greedy --games 24 --seed 3 \
       --threads 2 --json | grep -v '"seconds"\|"threads"')
[ "$j1" = "$j2" ] || die "results depend on the threads: $j1 vs $j2"
for key in '"a_wins"' '"b_wins"' '"a_score"' '"a_score_ci95"' '"elo"' '"elo_ci95"' \
           '"throws_per_game"' '"rules": "boxed"' '"games": 24'; do
  echo "$j1" | grep -q "$key" || die "JSON lacks $key: $j1"
done
j3=$("$UR" tournament --rules boxed --a "expectimax(depth=1)" --b greedy --games 24 --seed 4 \
       --json | grep -v '"seconds"\|"threads"')
[ "$j1" != "$j3" ] || echo "note: seeds 3 and 4 gave the same summary"

# --from K: a run in two parts adds up to the whole, game for game: the same wins and throws.
whole=$("$UR" tournament --rules finkel --a greedy --b random --games 40 --seed 5 --json)
head=$("$UR" tournament --rules finkel --a greedy --b random --games 15 --seed 5 --json)
tail=$("$UR" tournament --rules finkel --a greedy --b random --games 40 --from 15 --seed 5 --json)
field() { echo "$1" | sed -nE "s/^  \"$2\": ([0-9.]+),?$/\1/p"; }
[ "$(field "$tail" games)" = 25 ] || die "--from 15 of 40 did not play 25 games: $tail"
[ "$(field "$tail" first)" = 15 ] || die "--from in the JSON: $tail"
for key in a_wins b_wins a_games_as_light; do
  [ $(( $(field "$head" $key) + $(field "$tail" $key) )) -eq "$(field "$whole" $key)" ] ||
    die "$key of the parts does not add up: $head / $tail / $whole"
done
# throws_per_game × games: the parts' throws add up too.
awk -v h="$(field "$head" throws_per_game)" -v t="$(field "$tail" throws_per_game)" \
    -v w="$(field "$whole" throws_per_game)" 'BEGIN { exit !(h * 15 + t * 25 - w * 40 < 1e-6 && w * 40 - h * 15 - t * 25 < 1e-6) }' ||
  die "the parts' throws do not add up"
out=$("$UR" tournament --rules finkel --a greedy --b random --games 40 --from 15 --seed 5)
echo "$out" | grep -q "^finkel: A = greedy  vs  B = random, 25 games, seed 5 (games 15 to 39 of it)$" ||
  die "--from header: $out"

# --endgame K (docs/solver.md, "How much of a game they hold"): the line and the JSON object; with K
# the rule set's own pieces every decision with a choice is inside and every game enters at once.
out=$("$UR" tournament --rules 'finkel(pieces=3)' --a greedy --b random --games 20 --endgame 3)
echo "$out" | grep -qE "^endgame table of k=3 \(each side at most 3 pieces left\): 100\.0% of the decisions with a choice inside \(([0-9]+) of \1\); 20 of 20 games reach it, at decision 0 \(median\)" \
  || die "endgame line: $out"
j=$("$UR" tournament --rules boxed --a greedy --b random --games 20 --endgame 5 --json)
for key in '"endgame"' '"k": 5' '"choices"' '"choices_inside"' '"share_inside"' '"games_entering"' \
           '"first_inside_median"' '"first_inside_share_median"'; do
  echo "$j" | grep -q "$key" || die "JSON lacks $key: $j"
done
"$UR" tournament --rules boxed --a greedy --b random --games 2 | grep -q "endgame" \
  && die "an endgame line without --endgame"
# A K outside 1..7 is refused by the option parser, naming the option.
if msg=$("$UR" tournament --a greedy --b random --games 2 --endgame 0 2>&1); then
  die "--endgame 0 accepted"
fi
echo "$msg" | grep -qF -- "--endgame: Value 0 not in range 1 to 7" || die "--endgame 0: $msg"

# Errors: exit status 2 and a message that names the problem.
expect_error() {
  local want="$1"; shift
  set +e
  msg=$("$UR" tournament "$@" 2>&1 >/dev/null)
  status=$?
  set -e
  [ "$status" -eq 2 ] || die "exit status $status for $*"
  echo "$msg" | grep -qF "$want" || die "message '$msg' lacks '$want'"
}
expect_error "unknown agent 'alphaur'" --a alphaur --b random --games 2
# The perfect player with no table: an empty data directory, wherever the test runs from.
mkdir -p "$work/data"
UR_DATA_DIR="$work/data" expect_error "perfect: no table available for finkel" \
  --a perfect --b random --games 2
expect_error "depth must be an integer" --a "expectimax(depth=0)" --b random --games 2
expect_error "the number of games must be at least 1" --a greedy --b random --games 0
expect_error "the first game must be at least 0 and below the games" --a greedy --b random --games 5 --from 5
expect_error "unknown" --rules nosuchrules --a greedy --b random --games 2
echo "ok"
