#!/usr/bin/env bash
# `ur replay` on bad records: exit status 1 and a message on stderr that names the event (or
# the JSON line, or the result field) at fault; exit status 2 for a file that cannot be read;
# never a crash.
# Usage: replay_errors.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"

cat > "$work/game.json" <<'JSON'
{"format": "ur-game", "version": 1, "rules": "finkel(pieces=1)",
 "events": [
  {"player": "light", "throw": 4}, {"player": "light", "move": {"from": 0, "to": 4}},
  {"player": "light", "throw": 4}, {"player": "light", "move": {"from": 4, "to": 8}},
  {"player": "light", "throw": 4}, {"player": "light", "move": {"from": 8, "to": 12}},
  {"player": "dark", "throw": 0},
  {"player": "light", "throw": 2}, {"player": "light", "move": {"from": 12, "to": 14}},
  {"player": "light", "throw": 1}, {"player": "light", "move": {"from": 14, "to": 15}}
 ],
 "result": {"winner": "light", "reason": "bore-off", "final": "Lw/f/0"}}
JSON
"$UR" replay "$work/game.json" > /dev/null || fail "the good record is refused"

# expect_bad NAME EXPECTED-STATUS EXPECTED-STDERR-PART FILE-ARG: runs `ur replay FILE-ARG`.
expect_bad() {
  local name=$1 want_rc=$2 want_msg=$3 file=$4
  "$UR" replay "$file" > "$work/out" 2> "$work/err"
  local rc=$?
  [ "$rc" -eq "$want_rc" ] || fail "$name: exit status $rc, expected $want_rc ($(cat "$work/err"))"
  grep -qF -- "$want_msg" "$work/err" || fail "$name: stderr should contain '$want_msg', got: $(cat "$work/err")"
  [ -s "$work/out" ] && fail "$name: printed on stdout: $(cat "$work/out")"
  return 0
}
# corrupt NAME SED-EXPRESSION: a copy of the good record with one edit.
corrupt() {
  sed "$2" "$work/game.json" > "$work/$1.json"
  cmp -s "$work/game.json" "$work/$1.json" && fail "test setup: '$2' changed nothing"
  echo "$work/$1.json"
}

expect_bad "illegal move" 1 \
  "event 6 (turn 1): illegal move 8->11 for light; legal: 8->12" \
  "$(corrupt illegal 's/"from": 8, "to": 12/"from": 8, "to": 11/')"
expect_bad "throw outside the dice" 1 \
  "event 7 (turn 2): throw 5 is outside the dice (0..4)" \
  "$(corrupt throw5 's/"player": "dark", "throw": 0/"player": "dark", "throw": 5/')"
expect_bad "wrong player" 1 \
  "event 7 (turn 2): light throws, but dark's throw is due" \
  "$(corrupt player 's/"player": "dark", "throw": 0/"player": "light", "throw": 0/')"
expect_bad "throw when a move is due" 1 \
  "event 2 (turn 1): light throws, but light's move for throw 4 is due" \
  "$(corrupt throwmove 's/{"player": "light", "move": {"from": 0, "to": 4}}/{"player": "light", "throw": 4}/')"
expect_bad "throw not a number" 1 'event 1: "throw" must be a whole number' \
  "$(corrupt notnum '0,/"throw": 4/s//"throw": "4"/')"
expect_bad "unknown event key" 1 'event 7: unknown key "thorw"' \
  "$(corrupt key 's/"player": "dark", "throw": 0/"player": "dark", "thorw": 0/')"
expect_bad "result mismatch" 1 \
  "result: the record's final position is Lw/f/1, the replay ends at Lw/f/0" \
  "$(corrupt final 's|"final": "Lw/f/0"|"final": "Lw/f/1"|')"
expect_bad "winner mismatch" 1 "result: the record says the winner is dark, the replay gives light" \
  "$(corrupt winner 's/"winner": "light"/"winner": "dark"/')"
expect_bad "unknown rules" 1 '"rules": ' \
  "$(corrupt rules 's/finkel(pieces=1)/finkle(pieces=1)/')"
expect_bad "other rules" 1 "result: the record says the winner is light, the replay gives null" \
  "$(corrupt rules2 's/finkel(pieces=1)/finkel(pieces=2)/')"
expect_bad "version" 1 "record version 2 is not supported" \
  "$(corrupt version 's/"version": 1/"version": 2/')"
expect_bad "event after the end" 1 "event 12 (turn 3): the game is already over" \
  "$(corrupt after 's/{"player": "light", "move": {"from": 14, "to": 15}}/&, {"player": "dark", "throw": 1}/')"

head -c $(($(wc -c < "$work/game.json") / 2)) "$work/game.json" > "$work/truncated.json"
expect_bad "truncated JSON" 1 "malformed JSON: parse error at line " "$work/truncated.json"
: > "$work/empty.json"
expect_bad "empty file" 1 "malformed JSON" "$work/empty.json"
expect_bad "missing file" 2 "cannot read" "$work/no-such-file.json"
expect_bad "a directory" 2 "cannot read" "$work"

# From stdin the message names <stdin>.
printf '{"format":"ur-game"' | "$UR" replay - > /dev/null 2> "$work/err"
rc=$?
[ "$rc" -eq 1 ] || fail "truncated stdin: exit status $rc"
grep -qF "ur replay: <stdin>: malformed JSON" "$work/err" || fail "truncated stdin: $(cat "$work/err")"

# Random bytes are a bad record, never a crash.
for round in $(seq 1 10); do
  head -c 4096 /dev/urandom > "$work/random"
  "$UR" replay "$work/random" > /dev/null 2>&1
  rc=$?
  [ "$rc" -eq 1 ] || fail "random bytes: exit status $rc"
done

[ "$status" -eq 0 ] && echo "ok: bad records refused with the right message and status"
exit "$status"
