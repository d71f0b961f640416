#!/usr/bin/env bash
# Self-test of check_app_generic.sh: on a copy of the tree broken three ways (a module header
# included, a spec id and a display group named in code) it must fail naming each file and line,
# and on an allow-list line that no longer matches anything it must fail naming the line; a
# comment naming an algorithm is not flagged. Independent of whether the tree itself passes
# (structure_app_generic says that).
#   tests/structure/check_app_generic_selftest.sh [SOURCE_DIR]
set -u -o pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=${1:-$(cd "$HERE/../.." && pwd)}
T=$(mktemp -d)
trap 'rm -rf "$T"' EXIT
bad=0
expect() {  # expect RC PATTERN... : the last run's status and output lines
  local want=$1; shift
  [ "$rc" -eq "$want" ] || { echo "selftest: FAIL expected exit $want, got $rc:"; echo "$out"; bad=1; }
  local p
  for p in "$@"; do grep -qF -- "$p" <<< "$out" || { echo "selftest: FAIL no line with '$p' in:"; echo "$out"; bad=1; }; done
}
copy() {
  rm -rf "$T/tree"; mkdir -p "$T/tree/tests" "$T/tree/engine"
  cp -r "$ROOT/app" "$T/tree/app"
  cp "$ROOT/CMakeLists.txt" "$T/tree/"
  cp -r "$ROOT/engine/algorithms" "$T/tree/engine/algorithms"
  cp -r "$ROOT/tests/structure" "$T/tree/tests/structure"
}
run() { out=$(bash "$T/tree/tests/structure/check_app_generic.sh" "$T/tree" 2>&1); rc=$?; }

copy
printf '#include "stereo_bp/stereo_bp.hpp"\n' >> "$T/tree/app/viewer/layouts.cpp"
printf 'const char* a = "mad";  // and "lightfield" in a comment\nconst char* b = "stereo";\n' >> "$T/tree/app/cli/cli_common.cpp"
printf '// "plenoptic-hex" only in a comment\n' >> "$T/tree/app/viewer/viewer_app.cpp"
run
expect 1 'app/viewer/layouts.cpp:' '(i) includes the module header stereo_bp/stereo_bp.hpp' \
  'app/cli/cli_common.cpp:' '(j) names the algorithm "mad"' '(j) names the algorithm "stereo"'
grep -qF 'lightfield' <<< "$(grep cli_common <<< "$out")" && { echo "selftest: FAIL a comment was flagged: $out"; bad=1; }
grep -qF 'viewer_app.cpp' <<< "$out" && { echo "selftest: FAIL a comment was flagged: $out"; bad=1; }

copy
echo 'app/viewer/layouts.cpp: a stale line' >> "$T/tree/tests/structure/app_generic_allowed.txt"
run
expect 1 'lists app/viewer/layouts.cpp, which no longer includes a module header'

[ $bad -eq 0 ] && echo "selftest: check_app_generic.sh catches a module include, an id, a group and a stale allow line"
exit $bad
