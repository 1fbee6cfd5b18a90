#!/usr/bin/env bash
# `ur solve` on the rule sets of the multiset encoding (the boxed game's stacks, Murray's path
# that visits squares twice), at two counters a side: `--count` says what a solve needs before
# allocating, a solve that does not fit `--memory` is refused with both numbers, the table is
# written, described and queried (award decisions included), and a table of one encoding is not
# read as another.
# Usage: solve_multiset.sh <path-to-ur> [tests-dir]
source "$(dirname "$0")/lib.bash" "$@"

echo "check: ur solve --count prints the states, the encoding and the memory needed"
out=$("$UR" solve --count --rules 'boxed(pieces=2)') || fail "count exited $?"
echo "$out" | grep -Eq "^20820 states \(multiset encoding, 3 layers\), needs [0-9.]+ GiB to solve$" ||
  fail "count: '$out'"
out=$("$UR" solve --count --rules 'murray(pieces=3)') || fail "count murray exited $?"
echo "$out" | grep -q "^7988139 states (multiset encoding" || fail "count murray: '$out'"
out=$("$UR" solve --count --rules finkel) || fail "count finkel exited $?"
echo "$out" | grep -q "^137870097 states (dense encoding, 28 layers)" || fail "count finkel: '$out'"

echo "check: a solve that does not fit is refused with both numbers, before allocating"
"$UR" solve --rules 'boxed(pieces=3)' --memory 0.01 --out "$work/x.urt" >/dev/null 2>"$work/err"
[ $? = 2 ] || fail "--memory 0.01: expected exit 2"
grep -Eq "757788 states and needs [0-9.]+ GiB to solve; the limit is 0.01 GiB \(--memory\)" \
  "$work/err" || fail "refusal: '$(cat "$work/err")'"
[ ! -e "$work/x.urt" ] && [ ! -e "$work/x.urt.partial" ] || fail "a refused solve wrote files"
"$UR" solve --rules murray --out "$work/m.urt" >/dev/null 2>"$work/err"
[ $? = 2 ] || fail "murray whole: expected exit 2"
grep -q "115710466033 states and needs" "$work/err" || fail "murray whole: '$(cat "$work/err")'"

echo "check: boxed(pieces=2) is solved, described and queried"
"$UR" solve --rules 'boxed(pieces=2)' --out "$work/b2.urt" >"$work/solve.out" 2>/dev/null ||
  fail "solve boxed(pieces=2) exited $?"
grep -Eq "wins with probability 0\.[0-9]{6}$" "$work/solve.out" || fail "no start value"
"$UR" table info "$work/b2.urt" >"$work/info" || fail "table info exited $?"
grep -q "^encoding: *ur-multiset-1:P2:stack:staging:" "$work/info" || fail "info: $(cat "$work/info")"
q=$("$UR" table query "$work/b2.urt" --position 'Lr/--/--') || fail "query start exited $?"
echo "$q" | grep -Eq "^light to throw: wins with probability 0\.[0-9]{6}$" || fail "query: '$q'"
# Light on the a1 rosette's award: enter a counter onto S or not, each valued from the table.
"$UR" table query "$work/b2.urt" --position 'LaD/-4/--' >"$work/award" ||
  fail "query award exited $?: $(cat "$work/award")"
grep -q "^light decides: wins with probability" "$work/award" || fail "award: $(cat "$work/award")"

echo "check: one encoding is not read as another"
"$UR" solve --rules 'finkel(pieces=2)' --encoding multiset --out "$work/f2m.urt" >/dev/null 2>&1 ||
  fail "solve --encoding multiset exited $?"
"$UR" solve --rules 'finkel(pieces=2)' --encoding dense --out "$work/f2d.urt" >/dev/null 2>&1 ||
  fail "solve --encoding dense exited $?"
a=$("$UR" table query "$work/f2m.urt" --position 'Lr/00/00') || fail "query multiset table"
b=$("$UR" table query "$work/f2d.urt" --position 'Lr/00/00') || fail "query dense table"
[ "$a" = "$b" ] || fail "the two encodings disagree: '$a' vs '$b'"
"$UR" solve --rules boxed --encoding dense >/dev/null 2>"$work/err"
[ $? = 2 ] || fail "--encoding dense on boxed: expected exit 2"
grep -q "stacking" "$work/err" || fail "--encoding dense on boxed: '$(cat "$work/err")'"

[ $status = 0 ] && echo "PASS: solve_multiset"
exit $status
