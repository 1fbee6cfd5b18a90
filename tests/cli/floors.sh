#!/usr/bin/env bash
# The floors are enforced by the build (docs/architecture.md): cmake/floors.cmake passes the real
# source tree, stops on an upward #include (naming the file, the line and the two floors), and
# lets a downward or same-floor include through.
# Usage: floors.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"
root="$(cd "${2:?usage: floors.sh <path-to-ur> <tests-dir>}/.." && pwd)"
check() { cmake -DUR_FLOORS_ROOT="$1" -P "$root/cmake/floors.cmake" >"$work/out" 2>&1; }

check "$root/src" || fail "the real tree has an upward include: $(cat "$work/out")"

mkdir -p "$work/src/engine" "$work/src/server" "$work/src/rules"
echo '#include "rules/rule_set.h"' >"$work/src/engine/ok.cpp"
echo '#include "engine/other.h"' >"$work/src/engine/same.h"
echo '#include "engine/engine.h"' >"$work/src/server/down.cpp"
check "$work/src" || fail "downward includes refused: $(cat "$work/out")"

printf '#pragma once\n#include <vector>\n  #include "server/server.h"\n' >"$work/src/engine/up.h"
if check "$work/src"; then
  fail "an engine header including a server header passed the check"
else
  grep -q 'engine/up.h' "$work/out" || fail "the error does not name the file: $(cat "$work/out")"
  grep -q 'engine may not include server' "$work/out" ||
    fail "the error does not name the floors: $(cat "$work/out")"
fi
echo '#include "cli/commands.h"' >"$work/src/rules/up2.cpp"
check "$work/src" && fail "a rules file including a cli header passed the check"
exit $status
