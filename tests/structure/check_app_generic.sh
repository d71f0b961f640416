#!/usr/bin/env bash
# app/ names no algorithm (issue 40 item 1): what is algorithm-specific is declared in the module
# (engine/algorithms/<id>/: its spec, commands, display declaration).
#   tests/structure/check_app_generic.sh [SOURCE_DIR]  (default: the repository root above this file)
# Registered with CTest as `structure_app_generic`. Checks, over app/ (*.cpp *.hpp):
#   (i) no #include of a module header: "<id>/..." for a folder id of LB_ALGORITHMS
#       (engine/algorithms/<id>/, kernels/<id>/)
#   (j) no built-in algorithm id as a string literal in code (comments ignored): the spec ids
#       (the folder with '-' for '_': "plenoptic-hex") and the display groups the modules
#       declare (group = "stereo" in engine/algorithms/*/*_display.cpp). The data kinds'
#       sections (app/viewer/sections/) may name their data kind ("lightfield" is the light
#       field's sidecar block) and are not checked for (j).
# A file may be listed in tests/structure/app_generic_allowed.txt ("PATH: why", one per line)
# while the module API it needs has not moved to a data kind yet; a listed file without such a
# hit fails too, so the list cannot rot. One line per failure; exit status 1 when any failed.
set -u -o pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=${1:-$(cd "$HERE/../.." && pwd)}
cd "$ROOT" || { echo "app-generic: cannot enter $ROOT"; exit 2; }
command -v perl >/dev/null || { echo "app-generic: perl is needed"; exit 2; }

fails=0
fail() { echo "app-generic: FAIL $*"; fails=$((fails + 1)); }

folders=$(perl -0777 -ne 'print "$1\n" if /set\(LB_ALGORITHMS\s+([^)]*)\)/' CMakeLists.txt | tr -s ' \n' '\n\n' | grep .)
[ -n "$folders" ] || { echo "app-generic: FAIL CMakeLists.txt has no set(LB_ALGORITHMS ...)"; exit 1; }
ids=$(printf '%s\n' $folders | tr '_' '-')
groups=$(cat engine/algorithms/*/*_display.cpp 2>/dev/null | perl -ne 'print "$1\n" if /\.group\s*=\s*"([^"]+)"/' | sort -u)
names=$(printf '%s\n' $ids $groups | sort -u | grep .)

allow="$HERE/app_generic_allowed.txt"
allowed=$(grep -v '^#' "$allow" 2>/dev/null | sed -n 's/^\([^:]*\):.*/\1/p')

# Every hit as "FILE:LINE: what", comments stripped (line numbers kept).
hits=$(find app -type f \( -name '*.cpp' -o -name '*.hpp' \) -print0 | sort -z |
  FOLDERS="$(echo $folders)" NAMES="$(echo $names)" xargs -0 perl -0777 -ne '
    my $f = $ARGV;
    my $src = $_;
    $src =~ s{/\*.*?\*/}{ my $c = $&; $c =~ tr/\n//cd; $c }gse;
    $src =~ s{(?<!:)//[^\n]*}{}g;
    my $inc = join "|", map { quotemeta } split / /, $ENV{FOLDERS};
    my $ids = join "|", map { quotemeta } split / /, $ENV{NAMES};
    my $sections = $f =~ m{^app/viewer/sections/};
    my @lines = split /\n/, $src, -1;
    for my $i (0 .. $#lines) {
      my $l = $lines[$i];
      print "$f:" . ($i + 1) . ": (i) includes the module header $1\n" if $l =~ m{^\s*#\s*include\s*"((?:$inc)/[^"]*)"};
      next if $sections || $l =~ /^\s*#\s*include/;
      while ($l =~ /"($ids)"/g) { print "$f:" . ($i + 1) . ": (j) names the algorithm \"$1\"\n"; }
    }')

ok=1
while IFS= read -r h; do
  [ -z "$h" ] && continue
  f=${h%%:*}
  if ! grep -qxF "$f" <<< "$allowed"; then
    fail "$h (declare it in the module's spec or display declaration, or list the file with a reason in $(basename "$allow"))"
    ok=0
  fi
done <<< "$hits"
while IFS= read -r f; do
  [ -z "$f" ] && continue
  if ! grep -q "^$f:" <<< "$hits"; then
    fail "$(basename "$allow") lists $f, which no longer includes a module header or names an algorithm: remove the line"
    ok=0
  fi
done <<< "$allowed"
[ $ok -eq 1 ] && echo "app-generic: ok   (i, j) app/ includes no module header and names no algorithm ($(echo $names | wc -w) ids and groups checked; $(printf '%s' "$allowed" | grep -c .) files listed)"

if [ $fails -gt 0 ]; then
  echo "app-generic: $fails failure(s)"
  exit 1
fi
echo "app-generic: all checks passed"
