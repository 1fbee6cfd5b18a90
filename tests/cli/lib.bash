# The shared start of the command-line tests (not a test itself: ctest runs the *.sh files).
# A test begins with `source "$(dirname "$0")/lib.bash" "$@"` and then has:
#   UR      the ur binary, the test's first argument
#   work    a temporary directory, removed when the test exits
#   fail    records a failure and goes on (the test ends with `exit $status`)
#   die     reports a failure and stops the test at once
set -u
UR=${1:?usage: $(basename "$0") <path-to-ur> [tests-dir]}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() {
  echo "FAIL: $*"
  status=1
}
die() {
  echo "FAIL: $*" >&2
  exit 1
}
