#!/usr/bin/env bash
# Structure checks for issue 20's "done when" points that grep can decide.
#   tests/structure/check_structure.sh [SOURCE_DIR]     (default: the repository root above this file)
# Registered with CTest as `structure_checks` (tests/structure/CMakeLists.txt). Every failure prints
# one line naming the check and the offending file; the exit status is 1 when any check failed.
#   (a) no source file (*.cpp *.hpp *.cu *.cuh *.h) in kernels/ engine/ app/ bench/ over 600 lines
#   (b) app/ never picks an engine itself: no make_*_cpu, make_*_cuda, select_backend, LB_HAVE_CUDA
#   (c) no per-algorithm engine interface in engine/include or kernels/include
#   (d) every __global__ kernel name is defined once across kernels/ and bench/ (unambiguous in Nsight)
#   (e) docs/PERFORMANCE.md and docs/DESIGN.md have at most 300 lines each
#   (f) every algorithm of LB_ALGORITHMS (CMakeLists.txt) has its folders: engine/algorithms/<id>/
#       with CMakeLists.txt, README.md and <id>_spec.cpp, tests/<id>/CMakeLists.txt (kernels/<id>/
#       optional), and every folder there is listed
#   (g) app/ includes no algorithm's engine or kernel header: no "lightbench/engines/...", no
#       "<id>/..._engine.hpp", nothing of kernels/<id>/
#   (h) a parameter's range is declared once, in its ParamInfo table: no "out of range" / "must be
#       in N.." message in engine/algorithms/, kernels/ or app/ (code, not comments) except in the
#       files tests/structure/range_checks_allowed.txt lists with the reason (data values, launch
#       guards, CLI options); a listed file without such a message fails too
set -u -o pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=${1:-$(cd "$HERE/../.." && pwd)}
cd "$ROOT" || { echo "structure: cannot enter $ROOT"; exit 2; }
command -v perl >/dev/null || { echo "structure: perl is needed"; exit 2; }

MAX_LINES=600
MAX_PERF_LINES=300
fails=0
fail() { echo "structure: FAIL $*"; fails=$((fails + 1)); }

# Source files of the given trees, NUL-separated, in a stable order.
sources() {  # sources DIR... -- EXT...
  local dirs=() exts=() seen_sep=0 a
  for a in "$@"; do
    if [ "$a" = "--" ]; then seen_sep=1; elif [ $seen_sep -eq 0 ]; then dirs+=("$a"); else exts+=("$a"); fi
  done
  local existing=() d
  for d in "${dirs[@]}"; do [ -d "$d" ] && existing+=("$d"); done
  [ ${#existing[@]} -eq 0 ] && return 0
  local expr=() e
  for e in "${exts[@]}"; do expr+=(-o -name "*.$e"); done
  find "${existing[@]}" -type f \( "${expr[@]:1}" \) -print0 | sort -z
}

# (a) file size
n_a=0
while IFS= read -r -d '' f; do
  n=$(wc -l < "$f")
  if [ "$n" -gt "$MAX_LINES" ]; then
    fail "(a) file size: $f has $n lines (limit $MAX_LINES)"
    n_a=$((n_a + 1))
  fi
done < <(sources kernels engine app bench -- cpp hpp cu cuh h)
[ $n_a -eq 0 ] && echo "structure: ok   (a) no source file in kernels/ engine/ app/ bench/ over $MAX_LINES lines"

# (b) engine choice in app/
hits=$(grep -rnE 'make_[a-z_]*_cpu|make_[a-z_]*_cuda|select_backend|LB_HAVE_CUDA' app/ 2>/dev/null)
if [ -n "$hits" ]; then
  while IFS= read -r h; do
    fail "(b) app/ chooses an engine itself (make_*_cpu/_cuda, select_backend or LB_HAVE_CUDA): $h"
  done <<< "$hits"
else
  echo "structure: ok   (b) app/ has no make_*_cpu, make_*_cuda, select_backend or LB_HAVE_CUDA"
fi

# (c) per-algorithm engine interfaces in the public headers (comments ignored)
IFACES='ComputeBackend|LightFieldDepthEstimator|StereoMatcher|MadEvaluator|PlenopticEngine|LightFieldEngine|StereoEngine|MadEngine'
n_c=0
while IFS= read -r -d '' f; do
  out=$(IFACES="$IFACES" perl -0777 -ne '
    my $src = $_;
    $src =~ s{/\*.*?\*/}{ my $c = $&; $c =~ tr/\n//cd; $c }gse;   # block comments, lines kept
    $src =~ s{//[^\n]*}{}g;
    my @lines = split /\n/, $src, -1;
    for my $i (0 .. $#lines) {
      while ($lines[$i] =~ /\b(?:class|struct)\s+(?:\[\[[^\]]*\]\]\s*)?(?:alignas\s*\([^)]*\)\s*)?($ENV{IFACES})\b/g) {
        print(($i + 1) . ": $1\n");
      }
    }' "$f")
  if [ -n "$out" ]; then
    while IFS= read -r o; do
      fail "(c) engine interface in a public header: $f:${o%%:*} declares ${o#*: } (move it behind the runners: engine/src or a detail header app/ does not include)"
      n_c=$((n_c + 1))
    done <<< "$out"
  fi
done < <(sources engine/include kernels/include -- hpp h cuh)
[ $n_c -eq 0 ] && echo "structure: ok   (c) no per-algorithm engine interface declared in engine/include or kernels/include"

# (d) unique __global__ kernel names across kernels/ and bench/: every definition, parsed by
# kernel_names.pl (templates, attributes with nested parentheses, line breaks; declarations
# and explicit instantiations are not definitions).
defs=""
while IFS= read -r -d '' f; do
  out=$(perl "$HERE/kernel_names.pl" "$f") || { fail "(d) could not parse $f"; continue; }
  [ -n "$out" ] && defs+="$out"$'\n'
done < <(sources kernels bench -- cu cuh cpp hpp h)
n_global=$(grep -rhoE '\b__global__\b' --include='*.cu' --include='*.cuh' --include='*.cpp' --include='*.hpp' --include='*.h' kernels bench 2>/dev/null | wc -l)
n_defs=$(printf '%s' "$defs" | grep -c . || true)
if [ "$n_global" -gt 0 ] && [ "$n_defs" -eq 0 ]; then
  fail "(d) found $n_global __global__ but parsed no kernel definition (the parser is broken)"
fi
while IFS=$'\t' read -r name where; do
  [ "$name" = "?" ] && fail "(d) a __global__ at $where is not a kernel definition this check understands"
done <<< "$(printf '%s' "$defs" | awk -F'\t' '$1 == "?"')"
dups=$(printf '%s' "$defs" | awk -F'\t' 'NF == 2 && $1 != "?" { n[$1]++; at[$1] = at[$1] " " $2 } END { for (k in n) if (n[k] > 1) print k "\t" at[k] }' | sort)
if [ -n "$dups" ]; then
  while IFS=$'\t' read -r name where; do
    fail "(d) kernel name '$name' is defined more than once:$where (name each kernel for its family, e.g. <family>_$name)"
  done <<< "$dups"
else
  echo "structure: ok   (d) $n_defs __global__ kernel definitions in kernels/ and bench/, names unique"
fi

# (e) reference documents' size
for doc in docs/PERFORMANCE.md docs/DESIGN.md; do
  if [ ! -f "$doc" ]; then
    fail "(e) $doc is missing"
    continue
  fi
  n=$(wc -l < "$doc")
  if [ "$n" -gt "$MAX_PERF_LINES" ]; then
    fail "(e) $doc has $n lines (limit $MAX_PERF_LINES; move the diary to docs/perf/history.md)"
  else
    echo "structure: ok   (e) $doc has $n lines (limit $MAX_PERF_LINES)"
  fi
done

# (f) one folder per algorithm in each layer
algos=$(perl -0777 -ne 'print "$1\n" if /set\(LB_ALGORITHMS\s+([^)]*)\)/' CMakeLists.txt | tr -s ' \n' '\n\n' | grep .)
if [ -z "$algos" ]; then
  fail "(f) CMakeLists.txt has no set(LB_ALGORITHMS ...)"
else
  n_f=0
  for a in $algos; do
    for need in "engine/algorithms/$a/CMakeLists.txt" "engine/algorithms/$a/README.md" \
                "engine/algorithms/$a/${a}_spec.cpp" "tests/$a/CMakeLists.txt"; do
      [ -f "$need" ] || { fail "(f) algorithm '$a' (LB_ALGORITHMS) has no $need"; n_f=$((n_f + 1)); }
    done
    if [ -d "kernels/$a" ] && [ ! -f "kernels/$a/${a}_cuda_runner.cpp" ]; then
      fail "(f) kernels/$a has no ${a}_cuda_runner.cpp (make_${a}_cuda_runner)"; n_f=$((n_f + 1))
    fi
  done
  for d in engine/algorithms/*/ kernels/*/ tests/*/; do
    id=$(basename "$d")
    case "$d" in
      kernels/include/|tests/engine/|tests/gpu/|tests/bench/|tests/robustness/|tests/structure/|tests/scripts/|tests/example/|tests/viewer/|tests/cluster/|tests/python/) continue ;;
    esac
    if ! printf '%s\n' $algos | grep -qx "$id"; then
      fail "(f) $d is not an algorithm of LB_ALGORITHMS (add it there, or move it)"; n_f=$((n_f + 1))
    fi
  done
  [ $n_f -eq 0 ] && echo "structure: ok   (f) $(echo $algos | wc -w) algorithms, each in engine/algorithms/, tests/ (and kernels/) with its CMake fragment, README and spec"
fi

# (g) app/ sees the contract, not an algorithm's engine or kernels
pat='#include "(lightbench/engines/[^"]*|[a-z_]+/[a-z_0-9]*_engine\.hpp)"'
for a in $algos; do
  [ -d "kernels/$a" ] || continue
  for k in kernels/$a/*.hpp kernels/$a/*.cuh; do
    [ -f "$k" ] && pat="$pat|#include \"$a/$(basename "$k")\""
  done
done
hits=$(grep -rnE "$pat" app/ 2>/dev/null)
if [ -n "$hits" ]; then
  while IFS= read -r h; do fail "(g) app/ includes an algorithm's engine or kernel header: $h"; done <<< "$hits"
else
  echo "structure: ok   (g) app/ includes no engine internals and no kernels/<id>/ header"
fi

# (h) one declaration of a parameter's range
allow="$HERE/range_checks_allowed.txt"
allowed=$(grep -v '^#' "$allow" 2>/dev/null | sed -n 's/^\([^:]*\):.*/\1/p')
hits=$(grep -rnE --include='*.cpp' --include='*.hpp' --include='*.cu' --include='*.cuh' \
         '"[^"]*(out of range|must be in [0-9(])' engine/algorithms kernels app 2>/dev/null |
       grep -vE '^[^:]+:[0-9]+:[[:space:]]*//')
h_ok=1
while IFS= read -r h; do
  [ -z "$h" ] && continue
  f=${h%%:*}
  if ! grep -qxF "$f" <<< "$allowed"; then
    fail "(h) a range declared outside its ParamInfo table (declare it in describe(), or list the file with a reason in $(basename "$allow")): $h"
    h_ok=0
  fi
done <<< "$hits"
while IFS= read -r f; do
  [ -z "$f" ] && continue
  if ! grep -q "^$f:" <<< "$hits"; then
    fail "(h) $(basename "$allow") lists $f, which has no such check any more: remove the line"
    h_ok=0
  fi
done <<< "$allowed"
[ $h_ok -eq 1 ] && echo "structure: ok   (h) every parameter range is declared once, in its ParamInfo table"

if [ $fails -gt 0 ]; then
  echo "structure: $fails failure(s)"
  exit 1
fi
echo "structure: all checks passed"
