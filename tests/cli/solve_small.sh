#!/usr/bin/env bash
# `ur solve` end to end on finkel(pieces=3) (263,121 states, under a second): the table it
# writes is read back by `ur table info` and `ur table query` (the value of the start and of
# each legal move, the best one marked), a solve within --memory below what its streams take
# spills them and writes the same table byte for byte, the perfect player plays from it, an interrupted
# solve's checkpoints are resumed, and damaged, truncated or mismatched tables are refused
# with a message and exit status 1.
# Usage: solve_small.sh <path-to-ur> [tests-dir]
source "$(dirname "$0")/lib.bash" "$@"
RULES='finkel(pieces=3)'

echo "check: ur solve writes a verified table and prints the first player's chance"
"$UR" solve --rules "$RULES" --out "$work/p3.urt" >"$work/solve.out" 2>"$work/solve.err" ||
  fail "ur solve exited $?: $(cat "$work/solve.err")"
grep -q "263121 states in 6 layers" "$work/solve.out" || fail "state count: $(head -1 "$work/solve.out")"
grep -Eq "wins with probability 0\.5[0-9]{5}$" "$work/solve.out" ||
  fail "no first-player probability to 6 decimals: $(tail -1 "$work/solve.out")"
[ "$(grep -c "done after" "$work/solve.err")" = 6 ] || fail "not one progress line per layer"
[ ! -e "$work/p3.urt.partial" ] || fail "the checkpoints were not removed after the solve"

echo "check: within --memory below its streams it spills them to disk and writes the same table"
"$UR" solve --rules "$RULES" --threads 1 --out "$work/one.urt" >/dev/null 2>&1 ||
  fail "ur solve --threads 1 exited $?"
"$UR" solve --rules "$RULES" --threads 1 --memory 0.08 --out "$work/spilled.urt" \
  >"$work/spill.out" 2>"$work/spill.err" || fail "ur solve --memory 0.08 exited $?: $(cat "$work/spill.err")"
grep -q "spilled to the checkpoint directory" "$work/spill.out" || fail "no spill notice: $(head -1 "$work/spill.out")"
grep -Eq "stream .* spilled\)$" "$work/spill.out" || fail "no layer spilled: $(cat "$work/spill.out")"
cmp -s "$work/one.urt" "$work/spilled.urt" || fail "the spilled solve wrote another table"
[ ! -e "$work/spilled.urt.partial" ] || fail "the checkpoints and the spill file were left behind"

echo "check: ur table info and ur table query read it"
"$UR" table info "$work/p3.urt" >"$work/info" || fail "table info exited $?"
grep -q "^rules: *finkel(pieces=3)$" "$work/info" || fail "info: rules line missing"
grep -q "^states: *263121$" "$work/info" || fail "info: states line missing"
grep -q "^checksums: *ok$" "$work/info" || fail "info: checksums not ok"
start=$("$UR" table query "$work/p3.urt" --position 'Lr/000/000') || fail "query start exited $?"
echo "$start" | grep -Eq "^light to throw: wins with probability 0\.51[0-9]{4}$" ||
  fail "query start: '$start'"
# Light threw 3 with one piece on a2 (5); dark has one on d3 (1): enter or go to the rosette d2.
"$UR" table query "$work/p3.urt" --position 'L3/005/001' >"$work/q" || fail "query move exited $?"
[ "$(grep -c -- '->' "$work/q")" = 2 ] || fail "query: expected 2 legal moves: $(cat "$work/q")"
grep -q "5->8 .* best$" "$work/q" || fail "query: the rosette move is not the best: $(cat "$work/q")"

echo "check: the perfect player plays from the table"
"$UR" play --rules "$RULES" --light "perfect(table=$work/p3.urt)" --dark random --seed 3 \
  --ascii </dev/null >"$work/play.out" 2>"$work/play.err" || fail "play exited $?: $(cat "$work/play.err")"
tail -n 1 "$work/play.out" | grep -q "wins by bearing off all 3 pieces" ||
  fail "perfect play: unexpected last line '$(tail -n 1 "$work/play.out")'"

echo "check: --table gives the perfect level and agent their table"
"$UR" play --rules "$RULES" --light computer --level perfect --table "$work/p3.urt" --dark random \
  --seed 4 --ascii </dev/null >"$work/play2.out" 2>"$work/play2.err" ||
  fail "play --table exited $?: $(cat "$work/play2.err")"
[ ! -s "$work/play2.err" ] || fail "play --table: the perfect level fell back: $(cat "$work/play2.err")"
"$UR" tournament --rules "$RULES" --a perfect --b random --games 20 --seed 1 \
  --table "$work/p3.urt" >"$work/t.out" 2>&1 || fail "tournament --table exited $?: $(cat "$work/t.out")"
grep -q "A = perfect(table=" "$work/t.out" || fail "tournament --table: $(head -1 "$work/t.out")"
"$UR" tournament --rules finkel --a perfect --b random --games 2 --table "$work/p3.urt" \
  >/dev/null 2>"$work/err" && fail "tournament: a finkel(pieces=3) table was accepted for finkel"
grep -q "solved for rule set 'finkel(pieces=3)', not 'finkel'" "$work/err" ||
  fail "tournament --table of another rule set: '$(cat "$work/err")'"

echo "check: ur play --record, then ur analyse grades every move against the table"
"$UR" play --rules "$RULES" --light perfect --table "$work/p3.urt" --dark random --seed 6 \
  --ascii --record "$work/game.json" </dev/null >/dev/null 2>&1 || fail "play --record exited $?"
"$UR" replay "$work/game.json" >/dev/null || fail "the written record does not replay"
"$UR" analyse "$work/game.json" --table "$work/p3.urt" >"$work/an.out" 2>"$work/an.err" ||
  fail "analyse exited $?: $(cat "$work/an.err")"
grep -Eq "^light: [0-9]+ decisions, ([0-9]+) best \(100\.0%\), mean cost 0\.0000" \
  "$work/an.out" || fail "analyse: the perfect player's moves are not all best: $(cat "$work/an.out")"
grep -Eq "^dark: [0-9]+ decisions" "$work/an.out" || fail "analyse: no summary for dark"
"$UR" analyse "$work/game.json" --table "$work/p3.urt" --json >"$work/an.json" ||
  fail "analyse --json exited $?"
grep -q '"grade": "best"' "$work/an.json" || fail "analyse --json: no graded moves"
grep -Eq "^light: .*; accuracy 100\.0; luck [-+][0-9.]+% over [0-9]+ throws" "$work/an.out" ||
  fail "analyse: no accuracy and luck for light: $(grep '^light' "$work/an.out")"
grep -Eq "^(Light|Dark) won: [-+−][0-9.]+% from the dice, [-+−][0-9.]+% from mistakes; (Light|Dark) [-+−][0-9.]+%$" \
  "$work/an.out" || fail "analyse: no summary line: $(tail -2 "$work/an.out")"
grep -q "^key moves:" "$work/an.out" || fail "analyse: no key moves"
for key in '"decomposition"' '"key_moves"' '"graph"' '"accuracy"' '"luck"' '"estimate": false'; do
  grep -q "$key" "$work/an.json" || fail "analyse --json: no $key"
done

echo "check: ur analyse --svg writes a standalone graph under 30 KB"
"$UR" analyse "$work/game.json" --table "$work/p3.urt" --svg "$work/g.svg" >/dev/null ||
  fail "analyse --svg exited $?"
head -c 40 "$work/g.svg" | grep -q "^<svg xmlns" || fail "--svg: not an SVG document"
[ "$(wc -c <"$work/g.svg")" -lt 30720 ] || fail "--svg: $(wc -c <"$work/g.svg") bytes"

echo "check: without a table the review is estimated by search, and says so"
mkdir -p "$work/none"
UR_DATA_DIR="$work/none" "$UR" analyse "$work/game.json" >"$work/est.out" 2>"$work/err" ||
  fail "analyse without a table exited $?: $(cat "$work/err")"
grep -q "ESTIMATED by expectimax" "$work/est.out" || fail "estimate: no label: $(head -1 "$work/est.out")"
grep -q "ur solve --rules 'finkel(pieces=3)'" "$work/est.out" || fail "estimate: no hint"
grep -q "(estimate)$" "$work/est.out" || fail "estimate: the summary line is not marked"
"$UR" analyse "$work/game.json" --table "$work/none.urt" >/dev/null 2>"$work/err"
[ $? = 1 ] || fail "analyse with a missing --table: expected exit 1"

echo "check: ur analyse --position lists every throw and move with its chance"
"$UR" analyse --rules "$RULES" --table "$work/p3.urt" --position 'L3/005/001' >"$work/pos" ||
  fail "analyse --position exited $?"
grep -q "5->8\|a2 -> d2 (rosette) .* best$" "$work/pos" || fail "--position: $(cat "$work/pos")"
[ "$("$UR" analyse --rules "$RULES" --table "$work/p3.urt" --position 'Lr/000/000' | grep -c '^  throw')" = 5 ] ||
  fail "--position: not 5 throws from the start"
"$UR" analyse --rules "$RULES" --position 'Lq/0/x' >/dev/null 2>"$work/err"
[ $? = 1 ] || fail "a bad position string: expected exit 1"
grep -q "does not parse" "$work/err" || fail "bad position: '$(cat "$work/err")'"
echo '{"format": "ur-game"}' >"$work/bad.json"
"$UR" analyse "$work/bad.json" --table "$work/p3.urt" >/dev/null 2>&1
[ $? = 1 ] || fail "analyse of a bad record: expected exit 1"

echo "check: a solve resumes from the checkpoints of finished layers"
"$UR" solve --rules "$RULES" --out "$work/again.urt" --keep-checkpoint >/dev/null 2>&1 ||
  fail "second solve exited $?"
"$UR" solve --rules "$RULES" --out "$work/again.urt" >"$work/resume.out" 2>/dev/null ||
  fail "resumed solve exited $?"
[ "$(grep -c "(from checkpoint)" "$work/resume.out")" = 6 ] ||
  fail "the resumed solve did not read its 6 layers back: $(cat "$work/resume.out")"
cmp -s <(tail -1 "$work/solve.out") <(tail -1 "$work/resume.out") ||
  fail "the resumed solve gives another start value"

# expect_bad NAME FILE MESSAGE-PART: `ur table info FILE` must exit 1 and say MESSAGE-PART.
expect_bad() {
  "$UR" table info "$2" >/dev/null 2>"$work/err"
  local rc=$?
  [ $rc = 1 ] || fail "$1: exit $rc, expected 1"
  grep -q "$3" "$work/err" || fail "$1: message '$(cat "$work/err")' lacks '$3'"
}
echo "check: damaged tables are refused"
cp "$work/p3.urt" "$work/flipped.urt"
printf '\xff' | dd of="$work/flipped.urt" bs=1 seek=300000 conv=notrunc 2>/dev/null
expect_bad "a flipped byte" "$work/flipped.urt" "checksum mismatch"
head -c 100000 "$work/p3.urt" >"$work/truncated.urt"
expect_bad "a truncated file" "$work/truncated.urt" "truncated"
echo "not a table" >"$work/text.urt"
expect_bad "a text file" "$work/text.urt" "table"
expect_bad "a missing file" "$work/none.urt" "cannot open"
"$UR" play --rules finkel --light "perfect(table=$work/p3.urt)" --dark random </dev/null \
  >/dev/null 2>"$work/err" && fail "a finkel(pieces=3) table was accepted for finkel"
grep -q "finkel(pieces=3)" "$work/err" || fail "wrong rule set: message '$(cat "$work/err")'"

echo "check: ur analyse refuses a damaged or mismatched table in words and estimates instead"
"$UR" solve --rules 'finkel(pieces=2)' --out "$work/p2.urt" >/dev/null 2>&1 || fail "solve pieces=2"
for bad in flipped.urt text.urt p2.urt; do
  "$UR" analyse "$work/game.json" --table "$work/$bad" >"$work/est.out" 2>"$work/err" ||
    fail "analyse with the refused table $bad exited $?: $(cat "$work/err")"
  grep -q "^ur analyse: the table was refused, the values are estimates: " "$work/err" ||
    fail "analyse $bad: no refusal on stderr: '$(cat "$work/err")'"
  grep -q "ESTIMATED by expectimax" "$work/est.out" || fail "analyse $bad: not estimated"
done
grep -q "finkel(pieces=2)" "$work/err" || fail "mismatched table: '$(cat "$work/err")'"
echo "check: ur analyse of a record that does not replay names the event that fails"
sed 's/"from": *\([0-9]*\), *"to": *\([0-9]*\)/"from": 9, "to": 9/' "$work/game.json" >"$work/illegal.json"
"$UR" analyse "$work/illegal.json" --table "$work/p3.urt" >/dev/null 2>"$work/err"
[ $? = 1 ] || fail "analyse of an illegal move: expected exit 1"
grep -q "event [0-9]" "$work/err" || fail "illegal move: '$(cat "$work/err")'"

[ $status = 0 ] && echo "PASS: solve_small"
exit $status
