#!/usr/bin/env bash
# `ur moves` streams: 10,000 lines over several rule sets go through one process and are
# answered in order; a bad line in the middle is answered and the stream goes on.
# Usage: moves_stream.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"

q=(
  '{"rules":"finkel","turn":"light","roll":2,"light":[0,0,0,0,0,0,5],"dark":[0,0,0,0,0,0,7]}'
  '{"rules":"masters","turn":"light","roll":1,"light":[11,17,17,17,17,17,17],"dark":[0,0,0,0,0,0,16]}'
  '{"rules":"boxed","turn":"light","roll":3,"light":[-1,-1,-1,-1,-1,-1,0],"dark":[-1,-1,-1,-1,-1,-1,-1]}'
  '{"rules":"finkel(pieces=5)","turn":"dark","roll":4,"light":[0,0,0,0,0],"dark":[0,0,0,0,0]}'
)
a=(
  '{"moves":[{"capture":false,"from":0,"rosette":false,"scores":false,"to":2},{"capture":true,"from":5,"rosette":false,"scores":false,"to":7}]}'
  '{"moves":[{"capture":true,"from":11,"rosette":true,"scores":false,"to":12}]}'
  '{"moves":[{"capture":false,"from":-1,"rosette":false,"scores":false,"to":0},{"capture":false,"from":0,"rosette":false,"scores":false,"to":5}]}'
  '{"moves":[{"capture":false,"from":0,"rosette":true,"scores":false,"to":4}]}'
)
: > "$work/input"
: > "$work/expected"
for ((i = 0; i < 2500; i++)); do
  printf '%s\n%s\n%s\n%s\n' "${q[0]}" "${q[1]}" "${q[2]}" "${q[3]}" >> "$work/input"
  printf '%s\n%s\n%s\n%s\n' "${a[0]}" "${a[1]}" "${a[2]}" "${a[3]}" >> "$work/expected"
done
[ "$(wc -l < "$work/input")" -eq 10000 ] || fail "test setup: input is not 10,000 lines"

"$UR" moves < "$work/input" > "$work/got"
rc=$?
[ "$rc" -eq 0 ] || fail "exit status $rc on 10,000 good lines"
cmp -s "$work/expected" "$work/got" ||
  fail "answers differ from line $(cmp "$work/expected" "$work/got" | awk '{print $NF}')"

# The same stream with one bad line at 5,000: 10,001 answers, the bad one in its place.
{ head -n 4999 "$work/input"; echo '{"rules":"finkel","turn":"light"'; tail -n +5000 "$work/input"; } \
  > "$work/input2"
"$UR" moves < "$work/input2" > "$work/got2"
rc=$?
[ "$rc" -eq 1 ] || fail "exit status $rc with one bad line, expected 1"
[ "$(wc -l < "$work/got2")" -eq 10001 ] || fail "$(wc -l < "$work/got2") answers for 10,001 lines"
case "$(sed -n 5000p "$work/got2")" in
  '{"error":"line 5000: '*) ;;
  *) fail "line 5000 should be an error, got: $(sed -n 5000p "$work/got2")" ;;
esac
{ head -n 4999 "$work/got2"; tail -n +5001 "$work/got2"; } | cmp -s - "$work/expected" ||
  fail "the good lines around the bad one were not answered correctly"

# Interactive use: an answer comes back before the next question is written.
exec 3< <(
  {
    echo "${q[0]}"
    sleep 3
    echo "${q[1]}"
  } | "$UR" moves
)
if read -r -t 2 first <&3; then
  [ "$first" = "${a[0]}" ] || fail "interactive answer: $first"
else
  fail "no answer within 2 s while the writer keeps stdin open"
fi
read -r -t 5 second <&3 || true
[ "${second:-}" = "${a[1]}" ] || fail "second interactive answer: ${second:-none}"
exec 3<&-

[ "$status" -eq 0 ] && echo "ok: 10,000 lines through one process"
exit "$status"
