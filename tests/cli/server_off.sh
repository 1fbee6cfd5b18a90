#!/usr/bin/env bash
# -DUR_SERVER=OFF (the `server-off` preset): the engine, solver, players, analysis and the `ur`
# command configure and build without the server's dependencies, and `ur serve`, `ur loadtest`,
# `ur bot`, `ur backup`, `ur restore` and `ur admin` say they were not built in. Boost, SQLite and
# pkg-config (libsodium, libpq, libpqxx, hiredis) are hidden from the configure step, and the
# program must link none of them.
# Only the `ur` target is built, at -O0 (through ccache when it is installed), to keep CI short.
# Usage: server_off.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"
root="$(cd "${2:?usage: server_off.sh <path-to-ur> <tests-dir>}/.." && pwd)"
cd "$root"
launcher=()
command -v ccache >/dev/null && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER=ccache)
cmake --preset server-off "${launcher[@]}" -DCMAKE_DISABLE_FIND_PACKAGE_Boost=ON \
  -DCMAKE_DISABLE_FIND_PACKAGE_SQLite3=ON -DCMAKE_DISABLE_FIND_PACKAGE_PkgConfig=ON \
  >"$work/configure" 2>&1 || die "configure failed: $(tail -20 "$work/configure")"
cmake --build --preset server-off --target ur -j 1 >"$work/build" 2>&1 ||
  die "build failed: $(tail -30 "$work/build")"
off=build/server-off/ur

libs=$(ldd "$off") || die "ldd $off failed"
for lib in sqlite3 sodium pq hiredis; do
  grep -q "lib$lib" <<<"$libs" && fail "$off links lib$lib: $(grep "lib$lib" <<<"$libs")"
done

"$off" rules list >"$work/rules" 2>&1 || fail "ur rules list failed: $(cat "$work/rules")"
grep -q '^finkel' "$work/rules" || fail "ur rules list does not list finkel: $(cat "$work/rules")"
"$off" perft --rules finkel --depth 2 >"$work/perft" 2>&1 || fail "perft failed: $(cat "$work/perft")"
grep -qx 'depth 2 28' "$work/perft" || fail "perft depth 2 is not 28 leaves: $(cat "$work/perft")"

for cmd in "serve --port 0" "loadtest --games 1" "bot --server http://x --engine y" \
  "backup --out x.db" "restore --from x.db" "admin grant alice"; do
  name=${cmd%% *}
  # shellcheck disable=SC2086
  "$off" $cmd >"$work/out" 2>&1
  code=$?
  [ "$code" -eq 2 ] || fail "ur $name exited $code, not 2: $(cat "$work/out")"
  grep -q "ur $name: not built in" "$work/out" || fail "ur $name did not say so: $(cat "$work/out")"
done
[ $status -eq 0 ] && echo "ok: -DUR_SERVER=OFF builds ur without the server; serve, loadtest, bot, backup, restore, admin not built in"
exit $status
