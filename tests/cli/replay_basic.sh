#!/usr/bin/env bash
# `ur replay` on hand-written records: a whole game of finkel(pieces=1), the same from stdin,
# a game from a given start position, a resignation, a record without a result; and --json
# re-serialises a record so that replaying it again gives the same record.
# Usage: replay_basic.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"

# Light enters with 4 (a1, rosette: throw again), 4 more to d2 (rosette), 4 more to h2 (index
# 12); dark throws 0 and passes; light throws 2 to g1 (rosette) and 1 to bear off.
cat > "$work/game.json" <<'JSON'
{"format": "ur-game", "version": 1, "rules": "finkel(pieces=1)", "seed": 7,
 "events": [
  {"player": "light", "throw": 4}, {"player": "light", "move": {"from": 0, "to": 4}},
  {"player": "light", "throw": 4}, {"player": "light", "move": {"from": 4, "to": 8}},
  {"player": "light", "throw": 4}, {"player": "light", "move": {"from": 8, "to": 12}},
  {"player": "dark", "throw": 0},
  {"player": "light", "throw": 2}, {"player": "light", "move": {"from": 12, "to": 14}},
  {"player": "light", "throw": 1}, {"player": "light", "move": {"from": 14, "to": 15}}
 ],
 "result": {"winner": "light", "reason": "bore-off", "score": 0,
            "stats": {"light": {"throws": 5, "rosettes": 3, "borne_off": 1},
                      "dark": {"throws": 1, "passes": 1}},
            "final": "Lw/f/0"}}
JSON
cat > "$work/expected" <<'OUT'
final:   Lw/f/0
result:  light wins by bearing off every piece
summary: finkel(pieces=1), 11 events, 3 turns; light 5 throws, 0 captures, 3 rosettes, 1 borne off; dark 1 throws, 0 captures, 0 rosettes, 0 borne off
OUT
"$UR" replay "$work/game.json" > "$work/got" 2> "$work/err"
rc=$?
[ "$rc" -eq 0 ] || fail "exit status $rc: $(cat "$work/err")"
diff -u "$work/expected" "$work/got" || fail "replay output differs (- expected, + got)"

"$UR" replay - < "$work/game.json" > "$work/got_stdin"
rc=$?
[ "$rc" -eq 0 ] || fail "exit status $rc reading stdin"
diff -u "$work/expected" "$work/got_stdin" || fail "replay from stdin differs"

# --json: the record written back keeps the seed and the events, and is a fixed point.
"$UR" replay --json "$work/game.json" > "$work/rec1.json" || fail "--json failed"
"$UR" replay --json "$work/rec1.json" > "$work/rec2.json" || fail "--json of --json failed"
cmp -s "$work/rec1.json" "$work/rec2.json" || fail "--json is not a fixed point: $(diff "$work/rec1.json" "$work/rec2.json")"
grep -q '^  "seed": 7,$' "$work/rec1.json" || fail "--json lost the seed"
grep -q '^    {"player":"light","move":{"from":14,"to":15}}$' "$work/rec1.json" ||
  fail "--json does not write the last event as expected"
[ "$(grep -c '"player"' "$work/rec1.json")" -eq 11 ] || fail "--json does not hold 11 events"
"$UR" replay "$work/rec1.json" | cmp -s - "$work/expected" || fail "replaying --json output differs"

# A game from a given position: light's last piece stands on g1 (index 14) and needs a 1.
cat > "$work/start.json" <<'JSON'
{"format":"ur-game","version":1,"rules":"finkel","start":"Lr/effffff/0000000",
 "events":[{"player":"light","throw":3},{"player":"dark","throw":1},
           {"player":"dark","move":{"from":0,"to":1}},
           {"player":"light","throw":1},{"player":"light","move":{"from":14,"to":15}}]}
JSON
"$UR" replay "$work/start.json" > "$work/got_start" 2> "$work/err"
rc=$?
[ "$rc" -eq 0 ] || fail "start record: exit status $rc: $(cat "$work/err")"
grep -qx 'final:   Lw/fffffff/0000001' "$work/got_start" || fail "start record: $(cat "$work/got_start")"
"$UR" replay --json "$work/start.json" | grep -q '"start": "Lr/effffff/0000000"' ||
  fail "--json dropped the start position"

# A resignation, and a game still in progress.
cat > "$work/resign.json" <<'JSON'
{"format":"ur-game","version":1,"rules":"finkel(pieces=1)",
 "events":[{"player":"light","throw":0},{"player":"dark","resign":"resign"}],
 "result":{"winner":"light","reason":"resign","final":"Dr/0/0"}}
JSON
"$UR" replay "$work/resign.json" > "$work/got_resign" 2> "$work/err"
rc=$?
[ "$rc" -eq 0 ] || fail "resign record: exit status $rc: $(cat "$work/err")"
grep -qx 'result:  light wins (dark resigned)' "$work/got_resign" ||
  fail "resign record: $(cat "$work/got_resign")"
printf '{"format":"ur-game","version":1,"rules":"finkel","events":[{"player":"light","throw":2}]}' |
  "$UR" replay - > "$work/got_open"
rc=$?
[ "$rc" -eq 0 ] || fail "unfinished record: exit status $rc"
grep -qx 'final:   L2/0000000/0000000' "$work/got_open" || fail "unfinished record: $(cat "$work/got_open")"
grep -qx 'result:  in progress, light to decide' "$work/got_open" ||
  fail "unfinished record: $(cat "$work/got_open")"

[ "$status" -eq 0 ] && echo "ok: hand-written records replay"
exit "$status"
