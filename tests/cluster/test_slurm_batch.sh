#!/usr/bin/env bash
# slurm_batch: scripts/slurm-batch on a real Slurm (docs/CLUSTER.md). Starts a single-node
# Slurm from Debian's slurm-wlm + munge in a temporary folder (munged, slurmctld, slurmd as
# root, their own config, state, spool, logs and ports; nothing under /etc is used), submits a
# 4-task array over a generated stereo data set with its dependent merge job, and checks that the
# merged CSV equals a single `batch` run row for row (timing columns aside), that each shard
# holds its scenes (i % 4 == K) and that the maps are the same bytes. The daemons are always
# stopped (trap). When Slurm cannot start here (packages missing, not root, a sandbox that
# forbids it) it prints one line "slurm_batch: skipped: <reason>" and exits 77 (CTest's skip);
# LB_SLURM_REQUIRED=1 makes that a failure.
#   test_slurm_batch.sh PROJECT_ROOT LIGHTBENCH_CLI
set -u
root=${1:?usage: test_slurm_batch.sh PROJECT_ROOT LIGHTBENCH_CLI}
cli=${2:?usage: test_slurm_batch.sh PROJECT_ROOT LIGHTBENCH_CLI}
name=slurm_batch
t_start=$(date +%s)

skip() {
  echo "$name: skipped: $*"
  [ "${LB_SLURM_REQUIRED:-0}" = 1 ] && { echo "$name: LB_SLURM_REQUIRED=1: a skip is a failure"; exit 1; }
  exit 77
}
fail() { echo "$name: FAILED: $*"; show_logs; exit 1; }

[ -x "$cli" ] || { echo "$name: FAILED: no lightbench-cli at $cli (build it)"; exit 1; }
[ "$(id -u)" = 0 ] || skip "not root (slurmd and munged run as root here)"
for b in munged munge slurmctld slurmd sbatch sinfo squeue scontrol scancel python3; do
  command -v "$b" >/dev/null 2>&1 || PATH=$PATH:/usr/sbin:/sbin command -v "$b" >/dev/null 2>&1 ||
    skip "$b not found (apt-get install slurm-wlm munge; scripts/setup-deps does)"
done
export PATH=$PATH:/usr/sbin:/sbin

d=$(mktemp -d /tmp/lb-slurm.XXXXXX) || skip "mktemp failed"
chmod 755 "$d"  # munged wants its socket's folder searchable by all
pids=()
jobs_to_cancel=""
export SLURM_CONF=$d/slurm.conf
show_logs_done=0
show_logs() {
  [ $show_logs_done = 1 ] && return
  show_logs_done=1
  for f in "$d"/log/*.log "$d"/work/logs/*.out; do
    [ -f "$f" ] || continue
    echo "---- ${f#$d/} (last lines)"
    tail -n 15 "$f"
  done
}
cleanup() {
  if [ -n "$jobs_to_cancel" ] && [ -f "$SLURM_CONF" ]; then
    timeout 5 scancel $jobs_to_cancel >/dev/null 2>&1 || true
    # Let slurmd end the steps it started before it goes.
    for _ in $(seq 1 20); do
      [ -z "$(timeout 2 squeue -h -j "${jobs_to_cancel// /,}" 2>/dev/null)" ] && break
      sleep 0.25
    done
  fi
  local p i
  [ -n "${watchdog:-}" ] && kill -KILL "$watchdog" 2>/dev/null
  # slurmd, slurmctld, then munged (reverse start order): TERM, then KILL after 5 s.
  for ((i = ${#pids[@]} - 1; i >= 0; i--)); do
    p=${pids[i]}
    kill -TERM "$p" 2>/dev/null || continue
    for _ in $(seq 1 50); do kill -0 "$p" 2>/dev/null || break; sleep 0.1; done
    kill -KILL "$p" 2>/dev/null || true
    wait "$p" 2>/dev/null || true
  done
  rm -rf "$d"
}
trap cleanup EXIT
trap 'exit 143' TERM INT HUP

mkdir -p "$d"/{state,spool,log,etc,data} || skip "cannot write $d"
host=$(hostname -s)
mem_mb=$(awk '/^MemTotal:/ {print int($2 / 1024)}' /proc/meminfo)
# Two free TCP ports for slurmctld and slurmd (never the system's 6817/6818).
read -r port_ctld port_d < <(python3 -c '
import socket
ss = [socket.socket() for _ in range(2)]
for s in ss: s.bind(("127.0.0.1", 0))
print(*[s.getsockname()[1] for s in ss])')
[ -n "${port_d:-}" ] || skip "no free TCP port"

# munge: its own key, socket, pid, log and seed.
head -c 1024 /dev/urandom >"$d/etc/munge.key" && chmod 400 "$d/etc/munge.key"
munged -F --socket="$d/munge.socket" --key-file="$d/etc/munge.key" --pid-file="$d/munged.pid" \
  --log-file="$d/log/munged.log" --seed-file="$d/munged.seed" >"$d/log/munged.log" 2>&1 &
pids+=($!)
for _ in $(seq 1 50); do [ -S "$d/munge.socket" ] && break; kill -0 "${pids[0]}" 2>/dev/null || break; sleep 0.1; done
if ! munge -n -S "$d/munge.socket" 2>/dev/null | unmunge -S "$d/munge.socket" >/dev/null 2>&1; then
  skip "munged did not start: $(grep -i error "$d/log/munged.log" | tail -n 1)"
fi

: >"$d/etc/plugstack.conf"
cat >"$SLURM_CONF" <<EOF
# One node: this host, $(nproc) CPUs here. No systemd, no cgroups, no accounting.
ClusterName=lbtest
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port_ctld
SlurmdPort=$port_d
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$d/munge.socket
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$d/state
SlurmdSpoolDir=$d/spool
SlurmctldPidFile=$d/slurmctld.pid
SlurmdPidFile=$d/slurmd.pid
SlurmctldLogFile=$d/log/slurmctld.log
SlurmdLogFile=$d/log/slurmd.log
PlugStackConfig=$d/etc/plugstack.conf
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SwitchType=switch/none
MpiDefault=none
MailProg=/bin/true
SelectType=select/cons_tres
SelectTypeParameters=CR_CPU
SchedulerType=sched/builtin
SchedulerParameters=batch_sched_delay=0,sched_min_interval=0
SlurmdParameters=config_overrides
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=$mem_mb State=UNKNOWN
PartitionName=test Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

slurmctld -D -i >"$d/log/slurmctld.out" 2>&1 &
pids+=($!)
slurmd -D -N "$host" >"$d/log/slurmd.out" 2>&1 &
pids+=($!)
# Should this shell be killed outright (CTest's timeout), a watchdog stops the daemons.
( while kill -0 $$ 2>/dev/null; do sleep 1; done
  kill -TERM "${pids[@]}" 2>/dev/null; sleep 2; rm -rf "$d" ) </dev/null >/dev/null 2>&1 &
watchdog=$!
why() {  # the last error line of a daemon's log
  cat "$d/log/$1.log" "$d/log/$1.out" 2>/dev/null | grep -iE 'error|fatal' | tail -n 1
}
state=""
for i in $(seq 1 60); do  # at most 30 s
  kill -0 "${pids[1]}" 2>/dev/null || skip "slurmctld did not start: $(why slurmctld)"
  kill -0 "${pids[2]}" 2>/dev/null || skip "slurmd did not start: $(why slurmd)"
  state=$(timeout 5 sinfo -h -n "$host" -o %t 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || skip "node $host not idle after 30 s (sinfo: ${state:-no answer}; slurmd: $(why slurmd))"
echo "$name: single-node Slurm up on $host in $(($(date +%s) - t_start)) s ($(sinfo -V))"

# The data set: 7 small scenes (4 shards of 2, 2, 2, 1).
scenes=7
"$cli" generate-stereo --out "$d/data/stereo" --count $scenes --size 96x64 --ndisp 16 --seed 41 ||
  fail "generate-stereo"
algo=(stereo-bp --dataset "$d/data/stereo" --backend cpu --ndisp 16 --iterations 3)

# The array and the merge job, through the script; --wait returns when the merge job ended.
cd "$d" || fail "cd $d"
LB_SLURM_POLL=0.25 timeout 45 "$root/scripts/slurm-batch" --tasks 4 --work "$d/work" --cli "$cli" --wait \
  -- "${algo[@]}" --out "$d/maps-slurm" &
sb_pid=$!
# The job ids, for the trap's scancel should anything below fail.
for _ in $(seq 1 40); do [ -f "$d/work/jobs" ] && break; sleep 0.25; done
jobs_to_cancel=$(sed -n 's/^[a-z]*=//p' "$d/work/jobs" 2>/dev/null | tr '\n' ' ')
wait $sb_pid
rc=$?
jobs_to_cancel=$(sed -n 's/^[a-z]*=//p' "$d/work/jobs" 2>/dev/null | tr '\n' ' ')
[ $rc = 124 ] && fail "the array and merge did not finish within 45 s: $(squeue -h 2>&1 | head -n 5)"
[ $rc = 0 ] || fail "scripts/slurm-batch --wait exited $rc"
array_id=$(sed -n 's/^array=//p' "$d/work/jobs")
n_done=$(scontrol -o show job "$array_id" | grep -c 'JobState=COMPLETED')
[ "$n_done" = 4 ] || fail "array $array_id: $n_done of 4 tasks COMPLETED"
for k in 0 1 2 3; do
  grep -q "^slurm-batch: shard $k/4 on " "$d/work/logs/lightbench-batch-${array_id}_$k.out" ||
    fail "no log of task $k"
done
[ -f "$d/work/batch.csv" ] && [ -f "$d/work/batch.json" ] || fail "the merge job wrote no batch.csv / batch.json"

# The same batch as one run.
"$cli" batch "${algo[@]}" --out "$d/maps-single" --csv "$d/single.csv" --json "$d/single.json" \
  >"$d/single.log" 2>&1 || { cat "$d/single.log"; fail "the single run exited non-zero"; }

python3 - "$d" $scenes <<'PY' || fail "merged rows differ from the single run's (above)"
import csv, json, sys
d, scenes = sys.argv[1], int(sys.argv[2])
def rows(path):
    with open(path, newline="") as f:
        r = list(csv.reader(f))
    head = r[0]
    keep = [i for i, c in enumerate(head) if not c.endswith("_ms")]  # the timing columns
    return [head[i] for i in keep], [[row[i] for i in keep] for row in r[1:]], head
h1, merged, full = rows(d + "/work/batch.csv")
h2, single, _ = rows(d + "/single.csv")
ok = True
timing = [c for c in full if c.endswith("_ms")]
if timing != ["open_ms", "compute_ms", "score_ms", "write_ms"]:
    print("unexpected timing columns:", timing); ok = False
if h1 != h2:
    print("headers differ:", h1, h2); ok = False
if merged != single:
    print(f"rows differ: merged {len(merged)}, single {len(single)}")
    for a, b in zip(merged, single):
        if a != b: print(" merged:", a, "\n single:", b)
    ok = False
names = sorted({r[0] for r in single})
if len(names) != scenes or any(r[h2.index("error")] for r in single):
    print(f"the single run has {len(names)} scenes (want {scenes}) or error rows"); ok = False
# Each shard K holds the scenes i % 4 == K, nothing else.
for k in range(4):
    h, rs, _ = rows(f"{d}/work/shard-{k}.csv")
    got = sorted({r[0] for r in rs})
    want = [n for i, n in enumerate(names) if i % 4 == k]
    if got != want:
        print(f"shard {k}: scenes {got}, want {want}"); ok = False
# The JSON reports: the same but for the run block and the timings.
def strip(j):
    j.pop("run", None)
    for s in j.get("scenes", []):
        s.pop("timings", None)
    return j
jm, js = (strip(json.load(open(p))) for p in (d + "/work/batch.json", d + "/single.json"))
if jm != js:
    print("JSON reports differ (run and timings aside)"); ok = False
print(f"slurm_batch: {len(merged)} rows of {scenes} scenes: merged == single"
      if ok else "slurm_batch: mismatch")
sys.exit(0 if ok else 1)
PY

for f in "$d"/maps-single/*.pfm; do
  cmp -s "$f" "$d/maps-slurm/$(basename "$f")" || fail "map $(basename "$f") differs"
done
echo "$name: passed in $(($(date +%s) - t_start)) s (4-task array $array_id + merge job on Slurm)"
exit 0
