#!/usr/bin/env bash
# Every citation of the rules specification names a section or a decision docs/rules.md has
# (scripts/check-citations.py): the real tree passes, and on a made-up tree the check names a
# missing section, a missing decision, a range whose end is missing, a citation that wraps onto
# the next line and a citation of a file outside the repository, and lets the good ones through.
# Usage: rule_citations.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"
root="$(cd "${2:?usage: rule_citations.sh <path-to-ur> <tests-dir>}/.." && pwd)"
check() { python3 "$root/scripts/check-citations.py" "$1" >"$work/out" 2>&1; }

check "$root" || fail "the real tree has a broken citation: $(cat "$work/out")"

# What `ur rules show` prints cites the specification too.
"$UR" rules show bell >"$work/bell" 2>&1 || fail "ur rules show bell failed: $(cat "$work/bell")"
grep -q 'source: *docs/rules.md §5.7' "$work/bell" || fail "bell's source is not §5.7: $(cat "$work/bell")"

tree="$work/tree"
mkdir -p "$tree/docs" "$tree/src/rules"
cat >"$tree/docs/rules.md" <<'MD'
# Rules
## 1. Squares
## 5. Presets
### 5.7 bell
### 7b. Fine points
| id | question |
|---|---|
| A-12 | a chain |
| A-13b | the stake |
See §5.7 and §9.
MD
cat >"$tree/src/rules/a.cpp" <<'CPP'
// docs/rules.md §5.7 and A-12, A-13b: fine.
// docs/rules.md §1–§5, rules.md §7b: fine.
// docs/rules.md §5.8: no such section.
// A decision that is not there (A-40).
// rules.md §1–§6: the range's end is missing.
// RULES.md §5.1 is outside the repository.
// RFC 9112 §6.3 and BM-1234 are not citations.
// A citation that wraps, [rules.md](rules.md)
// §4, is read across the line break.
CPP
if check "$tree"; then
  fail "a tree with broken citations passed: $(cat "$work/out")"
fi
expect() { grep -qF "$1" "$work/out" || fail "not reported: $1 in $(cat "$work/out")"; }
expect "docs/rules.md:10: docs/rules.md has no section §9"
expect "src/rules/a.cpp:3: docs/rules.md has no section §5.8"
expect "src/rules/a.cpp:4: docs/rules.md has no decision A-40"
expect "src/rules/a.cpp:5: docs/rules.md has no section §6"
expect "src/rules/a.cpp:6: cites RULES.md"
expect "src/rules/a.cpp:9: docs/rules.md has no section §4"
[ "$(wc -l <"$work/out")" -eq 6 ] || fail "expected 6 broken citations: $(cat "$work/out")"
exit $status
