#!/usr/bin/env bash
# The networks the repository ships (networks/*.urn, docs/ai.md "The shipped networks"): the
# named ones are there (Finkel, Masters, Blitz, Murray, murray-royalur and boxed),
# each at most 2 MB, each read whole (magic, checksum, sizes) and played by the net agent on the
# rule set its file is named for (a file made for another rule set would be refused), two games
# against random.
# Usage: shipped_networks.sh <path-to-ur> <tests-dir>
source "$(dirname "$0")/lib.bash" "$@"
root="$(cd "${2:?usage: shipped_networks.sh <path-to-ur> <tests-dir>}/.." && pwd)"
for rules in finkel masters blitz murray murray-royalur boxed; do
  [ -f "$root/networks/$rules.urn" ] || fail "no shipped network networks/$rules.urn"
done
for net in "$root"/networks/*.urn; do
  rules=$(basename "$net" .urn)
  size=$(stat -c %s "$net")
  [ "$size" -le $((2 * 1024 * 1024)) ] || fail "$net is $size bytes, over 2 MB"
  echo "check: $rules plays from $net"
  "$UR" tournament --rules "$rules" --a "net(file=$net)" --b random --games 2 --threads 1 \
    >"$work/out" 2>&1 || fail "net(file=$net) on $rules: $(cat "$work/out")"
  grep -q "^A win rate" "$work/out" || fail "no result for $rules: $(cat "$work/out")"
done
[ $status -eq 0 ] && echo "ok: every shipped network loads and plays its rule set"
exit $status
