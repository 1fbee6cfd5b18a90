#!/usr/bin/env bash
# External engines as players (docs/engine_protocol.md, "engine:PATH ARGS"): `ur engine` seated
# in `ur tournament` plays exactly as the agent behind it, the example engine in Python plays
# full tournaments, an engine that crashes, hangs or sends an illegal move loses each game with
# the reason and the tournament completes; `ur play` seats an engine too.
# Usage: engine_tournament.sh <path-to-ur> [tests-dir]
source "$(dirname "$0")/lib.bash" "$@"
tests_dir=${2:-$(dirname "$0")/..}
example="$tests_dir/../examples/uep_random.py"
[ -f "$example" ] || die "no example engine at $example"
command -v python3 >/dev/null || die "python3 is needed for the example engine"

# summary ARGS...: `ur tournament ARGS --json` into $work/t.json; fails on a non-zero exit.
summary() {
  "$UR" tournament "$@" --json >"$work/t.json" 2>"$work/t.err" ||
    fail "tournament $* exited $?: $(cat "$work/t.err")"
}
field() { grep -Eo "\"$1\": [0-9.]+" "$work/t.json" | awk '{ print $2 }'; }

echo "check: ur engine behind the protocol plays exactly as the agent itself"
summary --a "engine:$UR engine" --b greedy --games 12 --seed 5 --threads 2
through=$(grep -E '"(a_wins|b_wins|throws_per_game)"' "$work/t.json")
grep -q '"forfeits": \[\]' "$work/t.json" || fail "forfeits through ur engine: $(cat "$work/t.json")"
summary --a medium --b greedy --games 12 --seed 5
direct=$(grep -E '"(a_wins|b_wins|throws_per_game)"' "$work/t.json")
[ "$through" = "$direct" ] || fail "through the protocol [$through], direct [$direct]"

echo "check: the example engine plays full tournaments (random and greedy policies)"
summary --a "engine:python3 $example" --b random --games 10 --seed 2
[ "$(field games)" = 10 ] || fail "python games: $(cat "$work/t.json")"
grep -q '"forfeits": \[\]' "$work/t.json" || fail "python forfeits: $(cat "$work/t.json")"
summary --rules 'finkel(pieces=3)' --a "engine:python3 $example --policy greedy" \
  --b "engine:python3 $example" --games 6 --seed 3
grep -q '"forfeits": \[\]' "$work/t.json" || fail "python vs python forfeits: $(cat "$work/t.json")"

echo "check: a crash, an illegal move and a hang each lose the game with the reason"
summary --a "engine:python3 $example --crash-after 2" --b random --games 3
[ "$(field b_wins)" = 3 ] || fail "crash: $(cat "$work/t.json")"
[ "$(grep -c 'forfeits: stopped answering: it exited with status 3' "$work/t.json")" = 3 ] ||
  fail "crash reasons: $(cat "$work/t.json")"
summary --a random --b "engine:python3 $example --illegal-after 1" --games 3
[ "$(field a_wins)" = 3 ] || fail "illegal: $(cat "$work/t.json")"
grep -q "B (engine.*) forfeits: sent an illegal move in .*move '0->0'" "$work/t.json" ||
  fail "illegal reason: $(cat "$work/t.json")"
summary --a "engine:python3 $example --hang-after 1" --b greedy --games 2 --engine-timeout 1000
[ "$(field b_wins)" = 2 ] || fail "hang: $(cat "$work/t.json")"
grep -q "forfeits: sent no bestmove within 1000 ms (killed)" "$work/t.json" ||
  fail "hang reason: $(cat "$work/t.json")"
"$UR" tournament --a "engine:python3 $example --crash-after 0" --b random --games 2 >"$work/text" ||
  fail "text summary exited $?"
grep -q "^2 games forfeited by an engine program:$" "$work/text" || fail "text: $(cat "$work/text")"

echo "check: an engine that cannot start or refuses the rule set is a clear error"
"$UR" tournament --a "engine:/nonexistent/engine" --b random --games 2 >/dev/null 2>"$work/err"
[ $? = 2 ] || fail "a missing program: expected exit 2"
grep -q "cannot start '/nonexistent/engine'" "$work/err" || fail "missing: $(cat "$work/err")"
"$UR" tournament --rules masters --a "engine:python3 $example" --b random --games 2 \
  >/dev/null 2>"$work/err"
[ $? = 2 ] || fail "a refused rule set: expected exit 2"
grep -q "refused the rule set masters: Rules: only finkel" "$work/err" || fail "refused: $(cat "$work/err")"

echo "check: ur play seats an engine, and an engine that crashes forfeits the game"
"$UR" play --light "engine:$UR engine" --dark "engine:python3 $example" --seed 4 --ascii \
  </dev/null >"$work/play" 2>&1 || fail "play exited $?: $(tail -3 "$work/play")"
tail -1 "$work/play" | grep -q "wins by bearing off all 7 pieces" || fail "play: $(tail -1 "$work/play")"
"$UR" play --light greedy --dark "engine:python3 $example --crash-after 1" --seed 4 --ascii \
  </dev/null >"$work/play" 2>&1 || fail "play exited $?: $(tail -3 "$work/play")"
grep -q "^Dark forfeits: engine.* stopped answering: it exited with status 3" "$work/play" ||
  fail "play forfeit: $(grep -i forfeit "$work/play")"
tail -1 "$work/play" | grep -q "Light wins (Dark forfeited)" || fail "play: $(tail -1 "$work/play")"

[ $status = 0 ] && echo "PASS: engine_tournament"
exit $status
