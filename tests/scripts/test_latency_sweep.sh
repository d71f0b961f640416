#!/usr/bin/env bash
# scripts/latency-sweep with a stand-in viewer that writes made-up sidecars: one line per
# algorithm with the p50 / p99 and parts, "NO" past 16.7 ms, and for such an algorithm a '#'
# line naming its slowest sample's parts (scripts/budget-table skips '#' lines). A viewer that
# fails makes the script exit 1. Fails with the line that was expected.
source "$(dirname "$0")/script_test_lib.sh" latency-sweep "$@"

# The stand-in: --algorithm A --latency-param P ... --screenshot PNG; mad gets one slow frame
# (its compute).
cat >"$dir/viewer" <<'V'
#!/usr/bin/env bash
while [ $# -gt 0 ]; do
  case $1 in --algorithm) a=$2; shift ;; --latency-param) param=$2; shift ;; --screenshot) png=$2; shift ;; esac
  shift
done
[ "$a" = "${FAIL_ALGORITHM:-}" ] && { echo "viewer: made-up failure"; exit 3; }
slow=2.0; [ "$a" = mad ] && slow=17.4
python3 - "$png.json" "$slow" "$param" <<'PY'
import json, sys
slow = float(sys.argv[2])
samples = [{"pane": 0, "total_ms": t, "compute_ms": t - 1.5, "copy_ms": 0.35, "draw_ms": 1.0, "queue_ms": 0.0,
            "pickup_ms": 0.15} for t in [3.0, 3.5, slow, 4.0]]
part = lambda k, q: {"p50_ms": 3.5 if k == "total" else 1.0, "p99_ms": max(s[k + "_ms"] for s in samples),
                     "max_ms": max(s[k + "_ms"] for s in samples)}[q]
lat = {"count": 4, "param": sys.argv[3], "samples": samples}
for k in ["total", "compute", "copy", "draw", "queue", "pickup"]:
    lat[k] = {q: part(k, q) for q in ["p50_ms", "p99_ms", "max_ms"]}
json.dump({"latency": lat}, open(sys.argv[1], "w"))
PY
V
chmod +x "$dir/viewer"

LB_SHARED_DATA_DIR="$dir/none" capture bash "$root/scripts/latency-sweep" "$dir/viewer" "$dir/out" cuda 4
[ $rc -eq 0 ] || { echo "latency-sweep: exit $rc with a working viewer"; fail=1; }
expect "$out" '^plenoptic +patch +4 +3\.50 +4\.00 .* yes$'
expect "$out" '^mad +eight_bit +4 +3\.50 +17\.40 .* NO$'
expect "$out" '^#   slowest: sample 2 of 4 \(pane 0\): 17\.40 ms = compute 15\.90 \+ copy 0\.350 \+ draw 1\.00'
[ "$(grep -c slowest <<<"$out")" -eq 1 ] || { echo "latency-sweep: a slowest line for a row within budget"; fail=1; }
mkdir -p "$dir/logs" && echo "$out" >"$dir/logs/latency.txt"
table=$(python3 "$root/scripts/budget-table" "$dir/logs")
expect "$table" '^slider to pixels, p99 +17\.40 ms \(worst: mad\) .* NOT met$'

FAIL_ALGORITHM=stereo LB_SHARED_DATA_DIR="$dir/none" capture bash "$root/scripts/latency-sweep" "$dir/viewer" "$dir/out2" cuda 4
[ $rc -eq 1 ] || { echo "latency-sweep: exit $rc, not 1, with a failing viewer"; fail=1; }
expect "$out" '^stereo: the viewer failed'
exit $fail
