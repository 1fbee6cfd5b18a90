#!/usr/bin/env bash
# The house rule for src/ (docs/architecture.md): no file over 400 lines, no function over 80.
# scripts/check-size.py passes the real source tree, and on a made-up tree it names a long file,
# a long function, a long constructor (its initialiser list counted), a long lambda and a long
# method, lets an 80-line function and braces in comments and strings through, and excepts only
# the data tables it lists.
# Usage: check_size.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"
root="$(cd "${2:?usage: check_size.sh <path-to-ur> <tests-dir>}/.." && pwd)"
check() { python3 "$root/scripts/check-size.py" "$1" >"$work/out" 2>&1; }

check "$root/src" || fail "the real tree breaks the size rules: $(cat "$work/out")"

# body N: N lines of statements.
body() { for ((i = 0; i < $1; ++i)); do echo "  x += $i;"; done; }
tree="$work/src"
mkdir -p "$tree/engine" "$tree/rules"
{
  echo "int fits(int x) {"  # 80 lines from the signature to the closing brace
  body 78
  echo "  return x; }"
  echo "// a { in a comment"
  echo 'const char* s = "}}}";'
  echo "int too_long(int x)"
  echo "{"
  body 78
  echo "  return x;"
  echo "}"
} >"$tree/engine/a.cpp"
{
  echo "struct S {"
  echo "  S(int a, int b)"
  echo "      : a_(a),"
  echo "        b_{b} {"
  body 77
  echo "  }"
  echo "  int method() const override {"
  body 80
  echo "  }"
  echo "  int a_, b_;"
  echo "};"
  echo "auto f = [](int x) -> int {"
  body 80
  echo "};"
} >"$tree/engine/b.h"
for ((i = 0; i < 401; ++i)); do echo "// line $i"; done >"$tree/engine/long.cpp"
{
  echo "std::vector<RuleSet> make_presets() {"
  body 100
  echo "}"
} >"$tree/rules/presets.cpp"

if check "$tree"; then
  fail "a tree with long functions passed: $(cat "$work/out")"
fi
expect() { grep -qF "$1" "$work/out" || fail "not reported: $1 in $(cat "$work/out")"; }
expect "src/engine/a.cpp:83: function too_long has 82 lines"
expect "src/engine/b.h:2: function S has 81 lines"
expect "src/engine/b.h:83: function method has 82 lines"
expect "src/engine/b.h:167: function (lambda) has 82 lines"
expect "src/engine/long.cpp: 401 lines"
grep -q "fits" "$work/out" && fail "an 80-line function was reported: $(cat "$work/out")"
grep -q "presets" "$work/out" && fail "the listed data table was reported: $(cat "$work/out")"
[ "$(grep -c ' lines' "$work/out")" -eq 5 ] || fail "expected 5 breaches: $(cat "$work/out")"
exit $status
