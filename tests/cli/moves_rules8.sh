#!/usr/bin/env bash
# `ur moves` answers the positions of docs/rules.md §8 exactly (entry, safe rosettes, captures,
# exact bear-off, Masters/Blitz rosette captures, the Murray return leg, Bell and boxed entry).
# Usage: moves_rules8.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"

# One position per line; the comment after '#' is dropped before it is sent.
cat > "$work/cases" <<'CASES'
{"rules":"finkel","turn":"light","roll":4,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]} # enters to a1, a rosette
{"rules":"finkel","turn":"light","roll":1,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]} # enters to d1
{"rules":"finkel","turn":"light","roll":2,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]} # enters to c1
{"rules":"finkel","turn":"light","roll":3,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]} # enters to b1
{"rules":"finkel","turn":"light","roll":0,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]} # 0 moves nothing
{"rules":"finkel","turn":"dark","roll":4,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]} # dark enters to a3
{"rules":"finkel","turn":"light","roll":3,"light":[0,0,0,0,0,0,5],"dark":[0,0,0,0,0,0,8]} # dark on d2: a2->d2 blocked
{"rules":"finkel","turn":"light","roll":2,"light":[0,0,0,0,0,0,5],"dark":[0,0,0,0,0,0,7]} # a2 captures on c2
{"rules":"finkel","turn":"light","roll":2,"light":[13,15,15,15,15,15,15],"dark":[0,0,0,0,0,0,0]} # h1 bears off with 2
{"rules":"finkel","turn":"light","roll":3,"light":[13,15,15,15,15,15,15],"dark":[0,0,0,0,0,0,0]} # but not with 3
{"rules":"finkel","turn":"light","roll":4,"light":[13,15,15,15,15,15,15],"dark":[0,0,0,0,0,0,0]} # nor with 4
{"rules":"conventional","turn":"light","roll":1,"light":[13,15,16,17,17,17,17],"dark":[0,0,0,0,0,0,0]} # g1 needs 1
{"rules":"conventional","turn":"light","roll":2,"light":[13,15,16,17,17,17,17],"dark":[0,0,0,0,0,0,0]} # h1 needs 2
{"rules":"conventional","turn":"light","roll":0,"light":[13,15,16,17,17,17,17],"dark":[0,0,0,0,0,0,0]} # k=0 moves 4: h3 off
{"rules":"conventional","turn":"light","roll":1,"light":[11,17,17,17,17,17,17],"dark":[0,0,0,0,0,0,16]} # dark on g3 blocks
{"rules":"masters","turn":"light","roll":1,"light":[11,17,17,17,17,17,17],"dark":[0,0,0,0,0,0,16]} # masters: captures on g3
{"rules":"blitz","turn":"light","roll":1,"light":[11,17,17,17,17],"dark":[0,0,0,0,16]} # blitz: captures on g3
{"rules":"murray","turn":"light","roll":1,"light":[0,0,0,0,0,4,23],"dark":[0,0,0,0,0,0,0]} # a1 (4) blocks 23->24
{"rules":"murray","turn":"light","roll":1,"light":[0,0,0,0,0,0,23],"dark":[0,0,0,0,0,0,0]} # 23->24 when a1 is free
{"rules":"bell","turn":"light","roll":0,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]} # bell: only k=3 enters
{"rules":"bell","turn":"light","roll":1,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}
{"rules":"bell","turn":"light","roll":2,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]}
{"rules":"bell","turn":"light","roll":3,"light":[0,0,0,0,0,0,0],"dark":[0,0,0,0,0,0,0]} # onto a2
{"rules":"boxed","turn":"light","roll":0,"light":[-1,-1,-1,-1,-1,-1,0],"dark":[-1,-1,-1,-1,-1,-1,-1]} # S -> a1 rosette
{"rules":"boxed","turn":"light","roll":2,"light":[-1,-1,-1,-1,-1,-1,0],"dark":[-1,-1,-1,-1,-1,-1,-1]} # S -> d1
{"rules":"boxed","turn":"light","roll":3,"light":[-1,-1,-1,-1,-1,-1,0],"dark":[-1,-1,-1,-1,-1,-1,-1]} # enter onto S or S -> a2
{"rules":"boxed","turn":"light","roll":1,"light":[-1,-1,-1,-1,-1,-1,0],"dark":[-1,-1,-1,-1,-1,-1,-1]} # one dot: nothing
{"rules":"boxed","turn":"light","roll":0,"light":[-1,-1,-1,-1,-1,-1,3],"dark":[-1,-1,-1,-1,-1,-1,-1]} # b1 -> c2 (a double)
{"rules":"boxed","turn":"light","roll":0,"light":[-1,-1,-1,-1,-1,-1,3],"dark":[-1,-1,-1,-1,-1,7,7]} # onto 2 enemies: bounce, no capture
CASES

cat > "$work/expected" <<'EXPECTED'
{"moves":[{"capture":false,"from":0,"rosette":true,"scores":false,"to":4}]}
{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":1}]}
{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":2}]}
{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":3}]}
{"moves":[]}
{"moves":[{"capture":false,"from":0,"rosette":true,"scores":false,"to":4}]}
{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":3}]}
{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":2},{"capture":true,"from":5,"rosette":false,"scores":false,"to":7}]}
{"moves":[{"capture":false,"from":13,"rosette":false,"scores":true,"to":15}]}
{"moves":[]}
{"moves":[]}
{"moves":[{"capture":false,"from":13,"rosette":false,"scores":false,"to":14},{"capture":false,"from":16,"rosette":false,"scores":true,"to":17}]}
{"moves":[{"capture":false,"from":15,"rosette":false,"scores":true,"to":17}]}
{"moves":[{"capture":false,"from":13,"rosette":false,"scores":true,"to":17}]}
{"moves":[]}
{"moves":[{"capture":true,"from":11,"rosette":true,"scores":false,"to":12}]}
{"moves":[{"capture":true,"from":11,"rosette":true,"scores":false,"to":12}]}
{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":1}]}
{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":1},{"capture":false,"from":23,"rosette":true,"scores":false,"to":24}]}
{"moves":[]}
{"moves":[]}
{"moves":[]}
{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":5}]}
{"moves":[{"capture":false,"from":0,"rosette":true,"scores":false,"to":4}]}
{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":1}]}
{"moves":[{"capture":false,"from":-1,"rosette":false,"scores":false,"to":0},{"capture":false,"from":0,"rosette":false,"scores":false,"to":5}]}
{"moves":[]}
{"moves":[{"capture":false,"from":3,"rosette":false,"scores":false,"to":7}]}
{"moves":[{"capture":false,"from":3,"rosette":false,"scores":false,"to":7}]}
EXPECTED

sed 's/ *#.*$//' "$work/cases" > "$work/input"
"$UR" moves < "$work/input" > "$work/got" 2> "$work/stderr"
rc=$?
status=0
if [ "$rc" -ne 0 ]; then
  echo "FAIL: ur moves exited with $rc on valid input"; cat "$work/stderr"; status=1
fi
if ! diff -u "$work/expected" "$work/got"; then
  echo "FAIL: ur moves answers differ (- expected, + got); the cases are:"
  nl -ba "$work/cases"
  status=1
fi
[ "$status" -eq 0 ] && echo "ok: $(wc -l < "$work/input") docs/rules.md §8 positions answered exactly"
exit "$status"
