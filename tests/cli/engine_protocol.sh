#!/usr/bin/env bash
# `ur engine` through a real pipe (docs/engine_protocol.md): the handshake, every preset's
# start, go in decision positions of several rule sets (each bestmove legal by `ur moves`),
# throw positions, eval equal to `ur table query` with a solved finkel(pieces=3) table, isready
# answered during a search, and 50 malformed lines each answered with one error line and no
# exit.
# Usage: engine_protocol.sh <path-to-ur> [tests-dir]
source "$(dirname "$0")/lib.bash" "$@"

# engine LINES...: pipes the lines into `ur engine` at once; its output in $work/out.
engine() {
  printf '%s\n' "$@" | "$UR" engine >"$work/out" 2>"$work/err"
  local rc=$?
  [ $rc = 0 ] || fail "ur engine exited $rc on: $*"
}

# session LINES...: sends the lines one at a time as a controller does, waiting after each `go`
# for its bestmove (a go searches in the background: lines sent during it would be refused as
# busy), then quit; the whole output in $work/out.
session() {
  local line reply pid to from
  : >"$work/out"
  rm -f "$work/to" "$work/from"
  mkfifo "$work/to" "$work/from"
  "$UR" engine <"$work/to" >"$work/from" 2>"$work/err" &
  pid=$!
  exec {to}>"$work/to" {from}<"$work/from"
  for line in "$@"; do
    echo "$line" >&$to
    [ "$line" = go ] || continue
    while IFS= read -r -t 60 reply <&$from; do
      echo "$reply" >>"$work/out"
      [[ $reply == bestmove* ]] && break
    done
  done
  echo quit >&$to
  exec {to}>&-
  cat <&$from >>"$work/out"
  exec {from}<&-
  wait $pid || fail "ur engine exited $? in a session: $*"
}

echo "check: the handshake"
engine uep isready quit
[ "$(head -1 "$work/out")" = "id name ur" ] || fail "first line: $(head -1 "$work/out")"
grep -Eq "^id version [0-9]" "$work/out" || fail "no id version line"
for opt in Rules Agent Table Seed EvalDepth; do
  grep -Eq "^option name $opt type (string|spin) default " "$work/out" || fail "no option $opt"
done
[ "$(tail -2 "$work/out" | tr '\n' ' ')" = "uepok readyok " ] || fail "end: $(tail -2 "$work/out")"

echo "check: every preset's start awaits a throw"
mapfile -t presets < <("$UR" rules list | awk 'NF == 0 { exit } { print $1 }')
[ ${#presets[@]} -ge 10 ] || fail "only ${#presets[@]} presets listed"
lines=()
for p in "${presets[@]}"; do
  lines+=("setoption name Rules value $p" "position start" "go" "eval")
done
session "${lines[@]}"
! grep -q "error" "$work/out" || fail "errors at the starts: $(grep error "$work/out" | head -3)"
[ "$(grep -c '^bestmove (none)$' "$work/out")" = ${#presets[@]} ] || fail "not one bestmove (none) per preset"
[ "$(grep -c '^info string awaiting a throw' "$work/out")" = ${#presets[@]} ] || fail "no throw note"
[ "$(grep -c '^evalok$' "$work/out")" = ${#presets[@]} ] || fail "not one evalok per preset"
grep -q "^eval win 0\.[0-9]\{6\} estimate$" "$work/out" || fail "no estimated eval line"

# legal RULES POSITION MOVE: MOVE is among `ur moves`' answers for the position string.
legal() {
  local actor=${2:0:1} roll=${2:1:1} rest=${2#*/} side json=() list i c
  for side in "${rest%%/*}" "${rest#*/}"; do
    list=""
    for ((i = 0; i < ${#side}; i++)); do
      c=${side:i:1}
      [ "$c" = - ] && c=-1 || c=$((36#$c))
      list+="${list:+,}$c"
    done
    json+=("[$list]")
  done
  local turn=light
  [ "$actor" = D ] && turn=dark
  local answer
  answer=$(echo "{\"rules\":\"$1\",\"turn\":\"$turn\",\"roll\":$roll,\"light\":${json[0]},\"dark\":${json[1]}}" |
    "$UR" moves)
  echo "$answer" | grep -Eq "\"from\":${3%->*},\"rosette\":(true|false),\"scores\":(true|false),\"to\":${3#*->}}"
}

echo "check: go in decision positions plays a legal move, for every kind of agent"
for agent in random greedy "expectimax(depth=2)" medium hard; do
  while read -r rules pos; do
    session "setoption name Rules value $rules" "setoption name Agent value $agent" \
      "position $pos" go
    best=$(grep '^bestmove ' "$work/out" | cut -d' ' -f2)
    [ -n "$best" ] || { fail "$agent $rules $pos: no bestmove: $(cat "$work/out")"; continue; }
    legal "$rules" "$pos" "$best" || fail "$agent $rules $pos: bestmove $best is not legal"
  done <<'EOF'
finkel D3/000005f/0000001
finkel L2/0000005/0000007
masters L1/bhhhhhh/000000g
finkel(pieces=5) D4/00000/00000
boxed L3/------0/-------
bell D3/0000000/0000005
EOF
done
session "setoption name Rules value boxed" "position LaD/------e/------1" go
grep -Eq "^bestmove award_(yes|no)$" "$work/out" || fail "award: $(cat "$work/out")"
session "setoption name Rules value boxed" "position LfD/------6/------1" go
best=$(grep '^bestmove ' "$work/out" | cut -d' ' -f2)
engine "setoption name Rules value boxed" "position LfD/------6/------1" "move $best" isready quit
[ "$(cat "$work/out")" = readyok ] || fail "forfeit response $best: $(cat "$work/out")"

echo "check: throw and move keep the position; go in a throw position and at the end"
session "setoption name Agent value greedy" "position start" "throw 4" go "move 0->4" "throw 2" go \
  "position Lw/fffffff/0000123" go
[ "$(grep -c '^bestmove' "$work/out")" = 3 ] || fail "not three bestmoves: $(cat "$work/out")"
[ "$(grep '^bestmove' "$work/out" | sed -n 1p)" = "bestmove 0->4" ] || fail "the only move after throw 4"
grep -q "^info string the game is over: light has won$" "$work/out" || fail "no game-over note"
! grep -q error "$work/out" || fail "errors: $(grep error "$work/out")"

echo "check: isready is answered during a search, stop ends it, end of input waits for it"
engine "setoption name Agent value expectimax(time_ms=3600000)" "position L2/0000005/0000000" go \
  isready "position start" stop quit
[ "$(sed -n 1p "$work/out")" = readyok ] || fail "readyok not first: $(cat "$work/out")"
grep -q "^info string error: position: busy searching" "$work/out" || fail "no busy error"
tail -1 "$work/out" | grep -Eq "^bestmove (0->2|5->7)$" || fail "no bestmove after stop: $(cat "$work/out")"
engine "setoption name Agent value expectimax(depth=3)" "position L2/0000005/0000000" go
tail -1 "$work/out" | grep -Eq "^bestmove (0->2|5->7)$" || fail "end of input: $(cat "$work/out")"

echo "check: eval equals ur table query with a solved table"
"$UR" solve --rules 'finkel(pieces=3)' --out "$work/p3.urt" >/dev/null 2>&1 || die "ur solve failed"
for pos in L3/005/001 D2/014/005 Lr/000/000 D1/00e/02c; do
  engine "setoption name Rules value finkel(pieces=3)" "setoption name Table value $work/p3.urt" \
    "position $pos" eval quit
  "$UR" table query "$work/p3.urt" --position "$pos" >"$work/q" || fail "query $pos exited $?"
  # The header's chance, then each move's: the first number of its line.
  want=$(grep -Eo "wins with probability [0-9.]+" "$work/q" | awk '{ print "eval win " $4 }'
    awk '/^  / { for (i = 2; i <= NF; i++) if ($i ~ /^[01]\.[0-9]+$/) { print "move " $1 " win " $i; break } }' "$work/q")
  got=$(grep -v '^evalok$' "$work/out")
  [ "$got" = "$want" ] || fail "eval $pos: got [$got], ur table query says [$want]"
  tail -1 "$work/out" | grep -q '^evalok$' || fail "eval $pos: no evalok"
done

echo "check: 50 malformed lines, each answered with one error line, and no exit"
bad=(
  hello UEP "go depth" "go depth x" "go depth 0" "go depth 61" "go movetime -5" "go nodes 100"
  "go depth 2 depth 3" setoption "setoption value 3" "setoption name" "setoption name Rules"
  "setoption name Rules value" "setoption name Rules value finkle"
  "setoption name Agent value alphaur" "setoption name Agent value expectimax(depth=0)"
  "setoption name Agent value engine:/bin/true" "setoption name Seed value abc"
  "setoption name Seed value -1" "setoption name EvalDepth value 0"
  "setoption name EvalDepth value 7" "setoption name Hash value 16"
  "setoption name Table value /nonexistent/table.urt" position "position Lr/000/000"
  "position Xr/0000000/0000000" "position Lq/0000000/0000000"
  "position Lr/0000000/0000000 moves 0->4" "position start now" "position L0/0000000/0000000"
  throw "throw x" "throw 9" "throw 1 2" move "move 0->4" "move award_yes" "eval now"
  "isready now" "uep please" "newgame 2" "stop now" "move 0->2 5->7"
  "$(printf '\001go')" "$(printf 'x%.0s' {1..5000})"
)
after_move=("move 0-4" "move 0->9" "move a->b" "throw 2")
input=()
for b in "${bad[@]}"; do input+=("position start" "$b" isready); done
for b in "${after_move[@]}"; do input+=("position L2/0000005/0000007" "$b" isready); done
total=$((${#bad[@]} + ${#after_move[@]}))
[ $total -ge 50 ] || fail "test setup: only $total malformed lines"
engine "${input[@]}" isready quit
[ "$(grep -c '^info string error: ' "$work/out")" = $total ] ||
  fail "$(grep -c '^info string error: ' "$work/out") error lines for $total bad lines"
# Each bad line: exactly one error line, then the readyok of the isready after it.
awk 'NR % 2 == 1 && !/^info string error: / { exit 1 } NR % 2 == 0 && $0 != "readyok" { exit 1 }' \
  <(head -n $((2 * total)) "$work/out") || fail "not error/readyok pairs: $(head -20 "$work/out")"
[ "$(tail -1 "$work/out")" = readyok ] || fail "the engine stopped answering"
[ "$(wc -l <"$work/out")" = $((2 * total + 1)) ] || fail "unexpected extra lines"

[ $status = 0 ] && echo "PASS: engine_protocol"
exit $status
