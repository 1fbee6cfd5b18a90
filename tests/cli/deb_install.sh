#!/usr/bin/env bash
# The Debian package (`make deb`, scripts/make-deb): built from this ur and the web client,
# installed on this machine with dpkg -i, the service's user, data directory and configuration
# checked, the unit checked by systemd-analyze, and the unit's ExecStart started by hand as its
# User with its EnvironmentFile (CI has no running systemd); /api/health and the web client
# must answer. Then the package is purged and the user and data it made are removed.
# Skipped (77) without root or dpkg, and when a ur package is installed already (never touched).
# Usage: deb_install.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"
root="$(cd "${2:?usage: deb_install.sh <path-to-ur> <tests-dir>}/.." && pwd)"
skip() {
  echo "SKIPPED: $*"
  exit 77
}
[ "$(id -u)" = 0 ] || skip "installing a package needs root"
command -v dpkg >/dev/null || skip "no dpkg"
dpkg -s ur >/dev/null 2>&1 && skip "a ur package is installed on this machine already"
getent passwd ur >/dev/null && skip "a user named ur exists already"
[ -e /var/lib/ur ] && skip "/var/lib/ur exists already"

"$root/scripts/build-web" >"$work/web" 2>&1 || die "scripts/build-web failed: $(tail -20 "$work/web")"
deb=$("$root/scripts/make-deb" "$UR" "$work/deb" 2>"$work/make-deb") ||
  die "make-deb failed: $(cat "$work/make-deb")"
dpkg-deb --info "$deb" >"$work/info" || die "not a package: $deb"
grep -q '^ Depends: .*libsqlite3' "$work/info" || fail "no library dependencies: $(cat "$work/info")"

server=""
cleanup() {
  [ -n "$server" ] && kill "$server" 2>/dev/null && wait "$server" 2>/dev/null
  dpkg --purge ur >/dev/null 2>&1
  getent passwd ur >/dev/null && deluser --system ur >/dev/null 2>&1
  getent group ur >/dev/null && delgroup --system ur >/dev/null 2>&1
  rm -rf /var/lib/ur /etc/ur
  rm -rf "$work"
}
trap cleanup EXIT
dpkg -i "$deb" >"$work/install" 2>&1 || die "dpkg -i failed: $(cat "$work/install")"

unit=/lib/systemd/system/ur.service
for f in /usr/bin/ur /usr/share/ur/web/index.html /etc/ur/ur.conf "$unit" \
  /usr/share/doc/ur/operations.md; do
  [ -e "$f" ] || fail "the package did not install $f"
done
grep -qx /etc/ur/ur.conf /var/lib/dpkg/info/ur.conffiles || fail "/etc/ur/ur.conf is not a conffile"
getent passwd ur >/dev/null || die "postinst made no user ur"
[ "$(stat -c %U /var/lib/ur)" = ur ] || fail "/var/lib/ur is not owned by ur"
# The shipped networks, where the net agent and the perfect level look (docs/ai.md).
for net in "$root"/networks/*.urn; do
  installed="/var/lib/ur/networks/$(basename "$net")"
  cmp -s "$net" "$installed" || fail "the package did not install $installed"
  [ "$(stat -c %U "$installed" 2>/dev/null)" = ur ] || fail "$installed is not owned by ur"
done
for option in ProtectSystem=strict NoNewPrivileges=yes ProtectHome=yes PrivateTmp=yes \
  StateDirectory=ur User=ur; do
  grep -qx "$option" "$unit" || fail "the unit lacks $option"
done
if command -v systemd-analyze >/dev/null; then
  systemd-analyze verify "$unit" >"$work/verify" 2>&1 || fail "systemd-analyze verify: $(cat "$work/verify")"
fi

# The unit's command, user and environment file, started as systemd would (without systemd).
exec_start=$(sed -n 's/^ExecStart=//p' "$unit")
user=$(sed -n 's/^User=//p' "$unit")
env_file=$(sed -n 's/^EnvironmentFile=//p' "$unit")
mapfile -t config < <(grep -E '^[A-Z_]+=' "$env_file")
port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
# The test's own port, and no background solve (minutes of CPU): ordinary settings of ur.conf.
cd /var/lib/ur || die "no /var/lib/ur"
# shellcheck disable=SC2086
runuser -u "$user" -- env -i PATH=/usr/bin:/bin "${config[@]}" UR_PORT="$port" UR_NO_SOLVE=1 \
  $exec_start >"$work/serve.log" 2>&1 &
server=$!
ok=0
for _ in $(seq 1 200); do
  if curl -fsS "http://127.0.0.1:$port/api/health" >"$work/health" 2>/dev/null; then
    ok=1
    break
  fi
  kill -0 "$server" 2>/dev/null || break
  sleep 0.1
done
[ $ok = 1 ] || die "the service did not answer /api/health: $(cat "$work/serve.log")"
grep -q '"status":"ok"' "$work/health" || fail "health: $(cat "$work/health")"
curl -fsS "http://127.0.0.1:$port/" | grep -qi '<!doctype html' || fail "the web client is not served"
[ "$(stat -c %U /var/lib/ur/ur.db 2>/dev/null)" = ur ] || fail "no database owned by ur in /var/lib/ur"
kill "$server"
wait "$server" 2>/dev/null
server=""

dpkg --purge ur >"$work/purge" 2>&1 || fail "dpkg --purge failed: $(cat "$work/purge")"
[ -e /usr/bin/ur ] && fail "/usr/bin/ur is still there after the purge"
[ $status -eq 0 ] && echo "ok: the package installs, its service answers /api/health as user ur, and purges"
exit $status
