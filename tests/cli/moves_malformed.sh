#!/usr/bin/env bash
# `ur moves` on bad input: every bad line gets its own {"error":"line N: ..."} answer, a good
# line after a bad one is still answered, the exit status is 1 (never a signal), and random
# bytes never crash it.
# Usage: moves_malformed.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"

good='{"rules":"finkel","turn":"light","roll":1,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}'
good_answer='{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":1}]}'

# Each bad line, then a part of the error message it must get.
cat > "$work/cases" <<'CASES'
{"rules":"finkel","turn":"light","roll":4,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]	malformed JSON
{"rules":"finkle","turn":"light","roll":4,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}	unknown rule set 'finkle'
{"rules":"finkel(pieces=99)","turn":"light","roll":1,"light":[],"dark":[]}	pieces
{"rules":"finkel","turn":"light","roll":4,"light":[0,0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}	light has 8 pieces
{"rules":"finkel","turn":"light","roll":4,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0]}	dark has 6 pieces
{"rules":"finkel","turn":"light","roll":4,"light":[0,0,0,0,0,3,3],"dark":[0,0,0,0,0,0,0]}	two pieces of one colour on one square
{"rules":"finkel","turn":"light","roll":4,"light":[0,0,0,0,0,0,5],"dark":[0,0,0,0,0,0,5]}	light and dark share square a2
{"rules":"finkel","turn":"light","roll":5,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}	roll 5 is outside the dice (0..4)
{"rules":"conventional","turn":"light","roll":4,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}	roll 4 is outside the dice (0..3)
{"rules":"finkel","turn":"light","roll":-1,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}	outside the dice
{"rules":"finkel","turn":"light","roll":1.5,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}	roll
{"rules":"finkel","turn":"white","roll":1,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}	"turn"
{"rules":"finkel","roll":1,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}	"turn"
{"rules":"finkel","turn":"light","roll":1,"light":[0,0,0,0,0,0,99],"dark":[0,0,0,0,0,0,0]}	path indices run 0..15
{"rules":"finkel","turn":"light","roll":1,"light":[0,0,0,0,0,0,-1],"dark":[0,0,0,0,0,0,0]}	path indices run 0..15
{"rules":"finkel","turn":"light","roll":1,"light":[15,15,15,15,15,15,15],"dark":[0,0,0,0,0,0,0]}	already over
{"rules":"finkel","turn":"light","roll":1,"light":"0000000","dark":[0,0,0,0,0,0,0]}	"light"
{"rules":"finkel","turn":"light","roll":1,"light":[0,0,0,0,0,0,"0"],"dark":[0,0,0,0,0,0,0]}	"light"
{"rules":"finkel","turn":"light","roll":1,"dark":[0,0,0,0,0,0,0]}	"light"
{"rules":"boxed","turn":"light","roll":3,"light":[18446744073709551615,-1,-1,-1,-1,-1,-1],"dark":[-1,-1,-1,-1,-1,-1,-1]}	light
{"rules":"finkel","turn":"light","roll":18446744073709551615,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}	outside the dice
[1,2,3]	JSON object
"finkel"	JSON object
null	JSON object
}{	malformed JSON
CASES

# Bad lines interleaved with good ones: bad, good, bad, good, ...
: > "$work/input"
while IFS=$'\t' read -r line _; do
  printf '%s\n%s\n' "$line" "$good" >> "$work/input"
done < "$work/cases"
"$UR" moves < "$work/input" > "$work/got" 2> "$work/stderr"
rc=$?
[ "$rc" -eq 1 ] || fail "exit status $rc on bad input, expected 1"
n_cases=$(wc -l < "$work/cases")
[ "$(wc -l < "$work/got")" -eq $((2 * n_cases)) ] ||
  fail "$(wc -l < "$work/got") answers for $((2 * n_cases)) lines"
i=0
while IFS=$'\t' read -r line expect; do
  i=$((i + 1))
  n=$((2 * i - 1))
  bad_answer=$(sed -n "${n}p" "$work/got")
  after=$(sed -n "$((n + 1))p" "$work/got")
  case "$bad_answer" in
    "{\"error\":\"line $n: "*) ;;
    *) fail "line $n ($line): expected an error for line $n, got: $bad_answer"; continue ;;
  esac
  # The expected part, with JSON's escaping of quotes.
  want=${expect//\"/\\\"}
  case "$bad_answer" in
    *"$want"*) ;;
    *) fail "line $n ($line): the error should mention '$expect', got: $bad_answer" ;;
  esac
  [ "$after" = "$good_answer" ] || fail "the good line after line $n was answered with: $after"
done < "$work/cases"

# An empty line is skipped; empty input is fine.
printf '\n   \n' | "$UR" moves > "$work/empty"
rc=$?
[ "$rc" -eq 0 ] || fail "exit status $rc on blank input"
[ -s "$work/empty" ] && fail "blank lines were answered: $(cat "$work/empty")"

# Random bytes: one answer per non-blank line, exit status exactly 1 (0 if by chance nothing
# was bad), never a signal.
for round in $(seq 1 25); do
  head -c 4096 /dev/urandom > "$work/random"
  "$UR" moves < "$work/random" > "$work/random.out" 2> "$work/random.err"
  rc=$?
  if [ "$rc" -ne 0 ] && [ "$rc" -ne 1 ]; then
    cp "$work/random" "/tmp/ur-moves-crash-$$.bin"
    fail "round $round: exit status $rc on random bytes (input kept in /tmp/ur-moves-crash-$$.bin)"
    continue
  fi
  lines=$(LC_ALL=C grep -a -c -v $'^[ \t\r]*$' "$work/random")
  answers=$(wc -l < "$work/random.out")
  errors=$(LC_ALL=C grep -a -c '^{"error":"line [0-9]*: ' "$work/random.out")
  [ "$lines" -eq "$answers" ] || fail "round $round: $answers answers for $lines lines"
  [ "$errors" -eq "$answers" ] || fail "round $round: only $errors of $answers answers are errors"
done

[ "$status" -eq 0 ] && echo "ok: $n_cases bad lines answered with errors, random bytes survived"
exit "$status"
