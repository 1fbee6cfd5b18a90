#!/usr/bin/env bash
# `ur play` with a person at the keyboard, driven through a pipe: junk input is rejected and
# asked again, always choosing 1 finishes a game, end of input exits 3, resign and quit end
# the game for the other side, and bad options exit 2.
# Usage: play_human.sh <path-to-ur> [tests-dir]
set -euo pipefail

source "$(dirname "$0")/lib.bash" "$@"

# run NAME INPUT-COMMAND ARGS...: runs `ur play ARGS` with the output of INPUT-COMMAND on
# stdin (a process substitution, so an endless `yes` does not trip pipefail); sets $status.
run() {
  local name=$1 input=$2
  shift 2
  status=0
  timeout 120 "$UR" play "$@" < <(bash -c "$input") >"$work/$name.out" 2>"$work/$name.err" ||
    status=$?
}

expect_in() {  # expect_in NAME TEXT: the output of run NAME contains TEXT
  grep -qF -- "$2" "$work/$1.out" || die "$1: output lacks '$2'; last lines: $(tail -n 5 "$work/$1.out")"
}

echo "check: 'yes 1' as light against the computer (seed 3) finishes with a win"
run yes1 'yes 1' --light human --dark computer --seed 3 --ascii
[[ $status -eq 0 ]] || die "yes1: exit status $status"
[[ $(tail -n 1 "$work/yes1.out") == *wins* ]] || die "yes1: last line lacks 'wins'"
expect_in yes1 "  1) enter to "
expect_in yes1 "Light, your choice (1-"

echo "check: junk lines (abc, 99, empty, 0, 1x) are rejected with a message, then play goes on"
run junk "printf 'abc\n99\n\n0\n1x\n'; yes 1" --light human --dark computer --seed 3 --ascii
[[ $status -eq 0 ]] || die "junk: exit status $status"
expect_in junk "'abc' is not a move number"
expect_in junk "There is no move 99"
expect_in junk "Nothing entered"
expect_in junk "There is no move 0"
expect_in junk "'1x' is not a move number"
[[ $(tail -n 1 "$work/junk.out") == *wins* ]] || die "junk: the game did not finish with a win"
prompts=$(grep -o "Light, your choice" "$work/junk.out" | wc -l)
moves=$(grep -c "^Light \(moves\|enters\)" "$work/junk.out" || true)
[[ $prompts -eq $((moves + 5)) ]] ||
  die "junk: expected 5 re-asks, got $prompts prompts for $moves moves"

echo "check: end of input while a person must decide exits 3 with a message"
run eof "true" --light human --dark computer --seed 3 --ascii
[[ $status -eq 3 ]] || die "eof: exit status $status, expected 3"
expect_in eof "End of input while Light had to choose a move"
run eof2 "printf '1\n1\n'" --light computer --dark human --seed 3 --ascii
[[ $status -eq 3 ]] || die "eof2: exit status $status, expected 3"
expect_in eof2 "End of input while Dark had to choose a move"

echo "check: 'r' resigns: the other side wins"
run resign "printf 'r\n'" --light human --dark computer --seed 3 --ascii
[[ $status -eq 0 ]] || die "resign: exit status $status"
expect_in resign "Light resigns."
[[ $(tail -n 1 "$work/resign.out") == "Dark wins (Light resigned)." ]] ||
  die "resign: last line is '$(tail -n 1 "$work/resign.out")'"

echo "check: 'quit' counts as resigning and is said so"
run quit "printf '1\nquit\n'" --light computer --dark human --seed 3 --ascii
[[ $status -eq 0 ]] || die "quit: exit status $status"
expect_in quit "Dark quits, which counts as resigning."
[[ $(tail -n 1 "$work/quit.out") == "Light wins (Dark resigned)." ]] ||
  die "quit: last line is '$(tail -n 1 "$work/quit.out")'"

echo "check: 'h' prints the help and asks again"
run help "printf 'h\nresign\n'" --seed 3 --ascii
[[ $status -eq 0 ]] || die "help: exit status $status"
expect_in help "r, resign"
expect_in help "Light resigns."

echo "check: two people through one pipe, boxed (awards and forfeits are asked too)"
run boxed 'yes 1' --rules boxed --light human --dark human --seed 7 --ascii
[[ $status -eq 0 ]] || die "boxed: exit status $status"
[[ $(tail -n 1 "$work/boxed.out") == *wins*score* ]] || die "boxed: no scored win at the end"
expect_in boxed "award: yes, enter a counter onto S"
expect_in boxed "(forfeit)."

echo "check: a bad --rules value exits 2 with a message"
for bad in nonsense 'finkel(pieces=99)' 'finkel(' ; do
  status=0
  "$UR" play --rules "$bad" --seed 1 </dev/null >"$work/bad.out" 2>"$work/bad.err" || status=$?
  [[ $status -eq 2 ]] || die "--rules '$bad': exit status $status, expected 2"
  grep -q "bad --rules value" "$work/bad.err" || die "--rules '$bad': no message on stderr"
done

echo "check: every command that takes --rules refuses a bad one the same way"
while IFS= read -r cmd; do
  status=0
  # shellcheck disable=SC2086
  timeout 60 "$UR" $cmd --rules nonsense </dev/null >"$work/bad.out" 2>"$work/bad.err" || status=$?
  [[ $status -eq 2 ]] || die "$cmd --rules nonsense: exit status $status, expected 2"
  grep -q "^ur [a-z ]*: bad --rules value: unknown rule set 'nonsense'" "$work/bad.err" ||
    die "$cmd --rules nonsense: $(cat "$work/bad.err")"
done <<'COMMANDS'
solve
tournament --a random --b random --games 1
train --games 10
perft --depth 1
puzzles generate --count 1
engine
bot --server http://127.0.0.1:9 --token t --engine true
loadtest --clients 2 --duration 1
COMMANDS

echo "check: a bad --light value exits 2 with a message"
status=0
"$UR" play --light robot </dev/null >"$work/bad.out" 2>"$work/bad.err" || status=$?
[[ $status -eq 2 ]] || die "--light robot: exit status $status, expected 2"
grep -q "expected human, computer" "$work/bad.err" || die "--light robot: no message"

echo "PASS: play_human"
