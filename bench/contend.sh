#!/usr/bin/env bash
# The solver beside other programs (issue 38). Runs `puddle bench` on the 2D dam breaks at
# about 10k and 100k particles and the 3D one at about 100k, with 1, 2 and 8 threads, in turn
# with nothing else running and beside BUSY busy loops; and the 100k dam break with 100 bodies
# and the same fluid without them (issue 20's comparison), on 2 threads. Each busy loop is
# `setsid sh -c 'while :; do :; done'`: a session of its own, so the kernel puts it in an
# autogroup of its own (sched(7), "The autogroup feature"), as it does a program started from
# another terminal; the scheduler then shares the cores between the loop and the whole bench,
# not thread by thread. RUNS rounds; odd rounds run the quiet pass first, even rounds the busy
# one, so a drift in the machine's other load falls on both. The table is each row's median.
#
# Usage: bench/contend.sh [RUNS=5] [THREADS=1,2,8] [BUSY=1]
#   PUDDLE=path    the build to bench (default build/apps/cli/puddle, built if missing)
#   BASELINE=path  another build (say, the one before a change), run alternately with PUDDLE
#                  in every round; the rows say which (build: puddle or baseline)
#   QUICK=1        a tenth of the steps, to try the script
# Writes bench/results/contend-runs.csv (every row, as `puddle bench` prints it, with run, build
# and busy_loops in front), contend.csv (the medians) and contend.md (the table, the goals and
# the command). The figures are wall clock: on a shared machine they move with its load.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
THREADS=${2:-1,2,8}
BUSY=${3:-1}
PUDDLE=${PUDDLE:-build/apps/cli/puddle}
BASELINE=${BASELINE:-}
if [ ! -x "$PUDDLE" ]; then
	make build >/dev/null
fi
out=bench/results
mkdir -p "$out"
runs_csv="$out/contend-runs.csv.tmp"
scratch=$(mktemp -d)
busy_pids=()
stop_busy() {
	for pid in "${busy_pids[@]}"; do kill "$pid" 2>/dev/null || true; done
	for pid in "${busy_pids[@]}"; do wait "$pid" 2>/dev/null || true; done
	busy_pids=()
}
trap 'stop_busy; rm -rf "$scratch" "$runs_csv"' EXIT

declare -A steps=([10k]=300 [100k]=60 [3d-100k]=30 [100k-bodies]=60)
declare -A warmup=([10k]=30 [100k]=10 [3d-100k]=5 [100k-bodies]=10)
if [ -n "${QUICK:-}" ]; then
	for k in "${!steps[@]}"; do steps[$k]=$((steps[$k] / 10 + 1)); warmup[$k]=2; done
fi
builds=(puddle)
declare -A binary=([puddle]="$PUDDLE")
if [ -n "$BASELINE" ]; then
	builds+=(baseline)
	binary[baseline]="$BASELINE"
fi

header=""
# one bench run: build, busy loops, scene size, threads, extra options; appends its rows
bench_rows() {
	local build=$1 busy=$2 size=$3 threads=$4 run=$5
	shift 5
	"${binary[$build]}" bench "bench/scenes/dam-break-$size.json" --threads "$threads" \
		--steps "${steps[$size]}" --warmup "${warmup[$size]}" --csv "$scratch/row.csv" "$@" >/dev/null
	[ -n "$header" ] || { header=$(head -1 "$scratch/row.csv"); echo "run,build,busy_loops,$header" >"$runs_csv"; }
	tail -n +2 "$scratch/row.csv" | sed "s/^/$run,$build,$busy,/" >>"$runs_csv"
}

for run in $(seq 1 "$RUNS"); do
	if [ $((run % 2)) -eq 1 ]; then order="0 $BUSY"; else order="$BUSY 0"; fi
	for busy in $order; do
		for ((k = 0; k < busy; ++k)); do
			setsid sh -c 'while :; do :; done' &
			busy_pids+=($!)
		done
		sleep 0.2
		for build in "${builds[@]}"; do
			for size in 10k 100k 3d-100k; do
				bench_rows "$build" "$busy" "$size" "$THREADS" "$run"
			done
			bench_rows "$build" "$busy" 100k-bodies 2 "$run"
			bench_rows "$build" "$busy" 100k-bodies 2 "$run" --without-bodies
		done
		stop_busy
	done
	echo "bench/contend.sh: run $run of $RUNS done" >&2
done
mv "$runs_csv" "$out/contend-runs.csv"

machine=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
load=$(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null || echo unknown)
command="bench/contend.sh $RUNS $THREADS $BUSY"
[ -z "$BASELINE" ] || command="BASELINE=$BASELINE $command"
python3 - "$out" "$RUNS" "$machine" "$(nproc)" "$commit" "$load" "$command" "$BUSY" <<'EOF'
import csv, statistics, sys, datetime
out, runs, machine, cores, commit, load, command, busy = sys.argv[1:9]
rows = list(csv.DictReader(open(f"{out}/contend-runs.csv")))
groups = {}
for r in rows:
    groups.setdefault((r["scene"], int(r["threads"]), r["build"], int(r["busy_loops"])), []).append(r)
table = []
for (scene, threads, build, loops), rs in groups.items():
    # (a baseline build from before stalled_ms has one column fewer: 0 there)
    med = lambda k: statistics.median(float(r.get(k) or 0) for r in rs)
    table.append(dict(scene=scene, particles=int(rs[0]["particles"]), threads=threads, build=build,
                      busy_loops=loops, runs=len(rs), median_ms_per_step=med("median_ms_per_step"),
                      steps_per_s=med("steps_per_s"), stalled_ms=med("stalled_ms"),
                      valid=int(all(r["valid"] == "1" for r in rs))))
table.sort(key=lambda t: (t["build"] != "puddle", "3d" in t["scene"], t["particles"], t["scene"], t["busy_loops"], t["threads"]))
with open(f"{out}/contend.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(table[0].keys()))
    w.writeheader()
    w.writerows(table)

def get(scene, threads, build="puddle", loops=0):
    for t in table:
        if t["scene"] == scene and t["threads"] == threads and t["build"] == build and t["busy_loops"] == loops:
            return t
lines = [f"# puddle beside busy loops: {datetime.date.today()}", "",
         f"Machine: {machine}, {cores} cores; load average {load} at the end; commit {commit}.",
         f"Each figure is the median of {runs} runs, the quiet and busy passes alternating; each run's figure is "
         f"the median step time of its timed steps. Command: `{command}` (every run's rows: `contend-runs.csv`).", "",
         "| scene | particles | build | busy loops | threads | steps/s | x 1 thread | stalled ms/step | valid |",
         "|---|---|---|---|---|---|---|---|---|"]
for t in table:
    one = get(t["scene"], 1, t["build"], t["busy_loops"])
    ratio = f"{t['steps_per_s'] / one['steps_per_s']:.2f}" if one else ""
    lines.append(f"| {t['scene']} | {t['particles']:,} | {t['build']} | {t['busy_loops']} | {t['threads']} | "
                 f"{t['steps_per_s']:,.1f} | {ratio} | {t['stalled_ms']:.3f} | {'yes' if t['valid'] else 'NO'} |")
lines += ["", "Issue 38 goals against these figures:", ""]
def goal(text, ok, figure):
    lines.append(f"- {'met' if ok else 'NOT met'}: {text}: {figure}")
busy = int(busy)
for size in ("10k", "100k", "3d-100k"):
    scene = f"bench-dam-break-{size}"
    a, b, c = get(scene, 1, loops=busy), get(scene, 2, loops=busy), get(scene, 8, loops=busy)
    if a and b:
        goal(f"{size}, {busy} busy loop(s): 2 threads >= 0.9x 1 thread", b["steps_per_s"] >= 0.9 * a["steps_per_s"],
             f"{b['steps_per_s'] / a['steps_per_s']:.2f}x")
    for loops in (0, busy):
        b, c = get(scene, 2, loops=loops), get(scene, 8, loops=loops)
        if b and c:
            goal(f"{size}, {loops} busy loop(s): 8 threads >= 0.9x 2 threads", c["steps_per_s"] >= 0.9 * b["steps_per_s"],
                 f"{c['steps_per_s'] / b['steps_per_s']:.2f}x")
    for threads in (1, 2):
        new, old = get(scene, threads), get(scene, threads, "baseline")
        if new and old:
            d = new["steps_per_s"] / old["steps_per_s"] - 1
            goal(f"{size}, no busy loop, {threads} thread(s): within 3% of the baseline build or faster", d >= -0.03,
                 f"{100 * d:+.1f}%")
bodies, same = get("bench-dam-break-100k-bodies", 2), get("bench-dam-break-100k-bodies-without-bodies", 2)
if bodies and same:
    c = bodies["median_ms_per_step"] / same["median_ms_per_step"] - 1
    goal("issue 20: 100 bodies cost <= 15% over the same fluid without them (100k, 2 threads, no busy loop)",
         c <= 0.15, f"{100 * c:+.1f}%")
goal("every run valid (no particle lost, no NaN)", all(t["valid"] for t in table), "yes" if all(t["valid"] for t in table) else "no")
open(f"{out}/contend.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
