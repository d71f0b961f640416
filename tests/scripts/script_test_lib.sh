# Sourced by the script tests (test_*.sh): PROJECT_ROOT from $1, a temporary folder `dir`
# removed on exit, `fail`, `expect OUTPUT REGEX` (a line of OUTPUT must match; otherwise
# the test fails naming NAME, the script under test) and `capture CMD...` (runs CMD, prints
# its output and keeps it in `out`, its exit status in `rc`).
#   source script_test_lib.sh NAME "$@"
set -u
lb_test_name=$1
root=${2:?usage: test_<name>.sh PROJECT_ROOT}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail=0
expect() {  # expect OUTPUT REGEX
  if ! grep -Eq "$2" <<<"$1"; then
    echo "$lb_test_name: expected a line matching: $2"
    fail=1
  fi
}
capture() {  # capture CMD... -> out, rc
  out=$("$@")
  rc=$?
  echo "$out"
}
