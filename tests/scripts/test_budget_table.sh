#!/usr/bin/env bash
# scripts/budget-table against made-up gpu-check logs: each row reads its log, compares with
# its budget (met / NOT met), a missing log gives "no log", a corrupt one "unreadable log", and
# the script always exits 0. Fails with the line that was expected.
source "$(dirname "$0")/script_test_lib.sh" budget-table "$@"

echo '{"compute_ms": 11.7}' >"$dir/lfdepth-refine-subpixel.json"
cat >"$dir/bench-lfdepth.json" <<'J'
{"bench": {"entries": [{"views": 5, "variant": "exact", "median_ms": 3.1}, {"views": 5, "variant": "binned", "median_ms": 5.0},
 {"views": 9, "variant": "exact", "median_ms": 8.7}, {"views": 9, "variant": "binned", "median_ms": 11.7}]}}
J
cat >"$dir/bench-stereo-like-reference.json" <<'J'
{"bench": {"entries": [{"size": "450x375x64", "requested": "auto", "variant": "auto -> warp:8", "median_ms_total": 0.6},
 {"size": "900x750x256", "requested": "auto:float", "variant": "auto:float -> warp:32", "median_ms_total": 14.0},
 {"size": "900x750x256", "requested": "auto", "variant": "auto -> warp-fp16:32", "median_ms_total": 7.6}]}}
J
cat >"$dir/bench-mad.json" <<'J'
{"bench": {"entries": [{"workload": "I03 512x384", "variant": "cuda/fused", "what": "metric", "median_ms": 0.24},
 {"workload": "I03 512x384", "variant": "cuda/gather", "what": "metric", "median_ms": 0.71},
 {"workload": "synthetic 1920x1080", "variant": "cuda/fused", "what": "metric", "median_ms": 2.5}]}}
J
echo '{"bench": {"entries": [{"label": "original", "median_ms": 0.145}]}}' >"$dir/bench-depth.json"
echo '{"bench": {"floor": {"median_ms": 0.0423}, "variants": [{"label": "nosync", "median_ms": 0.0509, "exact": true},
 {"label": "tiled", "median_ms": 0.0480, "exact": true}, {"label": "broken", "median_ms": 0.0300, "exact": false}]}}' \
  >"$dir/bench-render.json"
printf '# header\nalgorithm param count p50_ms p99_ms\nplenoptic patch 30 3.2 5.2\nlightfield sigma 30 5.8 7.8\n' \
  >"$dir/latency.txt"

capture python3 "$root/scripts/budget-table" "$dir"
[ $rc -eq 0 ] || { echo "budget-table: exit $rc"; fail=1; }
expect "$out" '^LF depth.* 11\.700 ms .*<= 12 ms .* met$'
expect "$out" '^CAE exact, 9x9 window .*8\.700 ms .* NOT met$'
expect "$out" '^BP 900x750x256.* 7\.600 ms \(auto -> warp-fp16:32\) .* met$'
expect "$out" '^MAD 512x384 / 1920x1080 .*0\.240 / 2\.500 ms .* NOT met$'
expect "$out" '^plenoptic depth.* 0\.1450 ms .* met$'
expect "$out" '^render, fastest exact, vs 16-byte floor .* 88\.1 % \(tiled 48\.0 vs 42\.3 us; nosync 83\.1 %\) .* NOT met$'
expect "$out" '^slider to pixels, p99 .*7\.80 ms \(worst: lightfield\) .* met$'
expect "$out" '^budgets met: 4 of 7 rows measured'

# Missing and corrupt logs.
rm "$dir/bench-depth.json"
echo '{"bench": {"entries": [{"views": 9}' >"$dir/bench-lfdepth.json"
capture python3 "$root/scripts/budget-table" "$dir"
[ $rc -eq 0 ] || { echo "budget-table: exit $rc"; fail=1; }
expect "$out" '^plenoptic depth, seed workload +no log'
expect "$out" '^CAE exact, 9x9 window +unreadable log'
expect "$out" '^budgets met: 3 of 5 rows measured'
# Not a folder: a usage line, exit 2.
python3 "$root/scripts/budget-table" "$dir/nope" 2>"$dir/err"
[ $? -eq 2 ] && grep -q usage "$dir/err" || { echo "budget-table: a missing folder must give usage and exit 2"; fail=1; }
exit $fail
