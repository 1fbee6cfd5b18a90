#!/usr/bin/env bash
# The floors are enforced by the build (docs/architecture.md): cmake/floors.cmake passes the real
# source tree, stops on an upward #include (naming the file, the line and the two floors), and
# lets a downward or same-floor include through; the same for the rooms of src/server, and a file
# of src/server in no room is refused.
# Usage: floors.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"
root="$(cd "${2:?usage: floors.sh <path-to-ur> <tests-dir>}/.." && pwd)"
check() { cmake -DUR_FLOORS_ROOT="$1" -P "$root/cmake/floors.cmake" >"$work/out" 2>&1; }

check "$root/src" || fail "the real tree has an upward include: $(cat "$work/out")"

mkdir -p "$work/src/engine" "$work/src/server" "$work/src/rules"
echo '#include "rules/rule_set.h"' >"$work/src/engine/ok.cpp"
echo '#include "engine/other.h"' >"$work/src/engine/same.h"
echo '#include "engine/engine.h"' >"$work/src/server/server.cpp"
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
rm "$work/src/rules/up2.cpp" "$work/src/engine/up.h"
check "$work/src" || fail "the tree without its upward includes refused: $(cat "$work/out")"

# The rooms of the server (lowest first: storage ... protocol ... tables, api, transport).
mkdir -p "$work/src/server/tables" "$work/src/server/protocol" "$work/src/server/transport"
echo '#include "server/protocol/ws_dispatch.h"' >"$work/src/server/tables/down.cpp"
echo '#include "server/log.h"' >"$work/src/server/protocol/base.cpp"
echo '#include "server/api/api.h"' >"$work/src/server/transport/down.cpp"
echo '#include "server/tables/table_service.h"' >"$work/src/server/server.cpp"
check "$work/src" || fail "downward includes between rooms refused: $(cat "$work/out")"

echo '#include "server/tables/table_fields.h"' >"$work/src/server/protocol/up.h"
if check "$work/src"; then
  fail "a protocol header including a tables header passed the check"
else
  grep -q 'server/protocol/up.h' "$work/out" || fail "the error does not name the file: $(cat "$work/out")"
  grep -q 'protocol may not include tables' "$work/out" ||
    fail "the error does not name the rooms: $(cat "$work/out")"
fi
rm "$work/src/server/protocol/up.h"
echo '#include "server/server.h"' >"$work/src/server/log.cpp"
check "$work/src" && fail "the log (base) including server.h (context) passed the check"
rm "$work/src/server/log.cpp"
mkdir -p "$work/src/server/attic"
echo '#include "server/log.h"' >"$work/src/server/attic/x.cpp"
if check "$work/src"; then
  fail "a folder of src/server in no room passed the check"
else
  grep -q 'in no room' "$work/out" || fail "the error does not say the room is unknown: $(cat "$work/out")"
fi
exit $status
