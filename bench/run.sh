#!/usr/bin/env bash
# The standard benchmark table (issue 6): the dam breaks of bench/scenes at about 1k, 10k, 100k
# and 1M particles (and the 100k one with 100 rigid bodies and the same fluid without them, issue 20), with 1 and 2 threads, each run RUNS times; plus slime with and without its
# springs at 20k particles; and the 3D dam breaks at about 10k and 100k (issue 7). Writes every run's rows to bench/results/latest-runs.csv and the
# medians, with the machine they ran on, to bench/results/latest.md and latest.csv, and the
# 100k step stage by stage to latest-stages.csv (and latest.md).
#
# Usage: bench/run.sh [RUNS=5] [THREADS=1,2]
#   PUDDLE=path/to/puddle to bench another build (default: build/apps/cli/puddle, built here).
# Run it on an idle machine: the figures are wall-clock medians.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS=${1:-5}
THREADS=${2:-1,2}
PUDDLE=${PUDDLE:-build/apps/cli/puddle}
if [ ! -x "$PUDDLE" ]; then
	make build >/dev/null
fi
out=bench/results
mkdir -p "$out"
runs_csv="$out/latest-runs.csv.tmp"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch" "$runs_csv"' EXIT

# slime without springs: the same scene with spring_stiffness 0
python3 - "$scratch/slime-no-springs.json" <<'EOF'
import json, sys
s = json.load(open("scenes/slime.json"))
s["name"] = "slime-no-springs"
for m in s["materials"]:
    m["spring_stiffness"] = 0
json.dump(s, open(sys.argv[1], "w"), indent=2)
EOF

# steps timed per row: enough for a stable median, few enough that 1M stays in minutes
declare -A steps=([1k]=1000 [10k]=400 [100k]=100 [100k-bodies]=100 [1m]=30 [3d-10k]=200 [3d-100k]=40)
declare -A warmup=([1k]=50 [10k]=30 [100k]=20 [100k-bodies]=20 [1m]=5 [3d-10k]=20 [3d-100k]=10)
header=""
for run in $(seq 1 "$RUNS"); do
	for size in 1k 10k 100k 100k-bodies 1m 3d-10k 3d-100k; do
		"$PUDDLE" bench "bench/scenes/dam-break-$size.json" --threads "$THREADS" \
			--steps "${steps[$size]}" --warmup "${warmup[$size]}" --csv "$scratch/row.csv" >/dev/null
		[ -n "$header" ] || { header=$(head -1 "$scratch/row.csv"); echo "run,$header" >"$runs_csv"; }
		tail -n +2 "$scratch/row.csv" | sed "s/^/$run,/" >>"$runs_csv"
	done
	# issue 20's comparison: the same fluid particles with the bodies removed once built
	"$PUDDLE" bench bench/scenes/dam-break-100k-bodies.json --without-bodies --threads "$THREADS" \
		--steps "${steps[100k-bodies]}" --warmup "${warmup[100k-bodies]}" --csv "$scratch/row.csv" >/dev/null
	tail -n +2 "$scratch/row.csv" | sed "s/^/$run,/" >>"$runs_csv"
	for scene in scenes/slime.json "$scratch/slime-no-springs.json"; do
		"$PUDDLE" bench "$scene" --particles 20000 --threads "$THREADS" --steps 100 --warmup 20 \
			--csv "$scratch/row.csv" >/dev/null
		tail -n +2 "$scratch/row.csv" | sed "s/^/$run,/" >>"$runs_csv"
	done
	echo "bench/run.sh: run $run of $RUNS done" >&2
done
mv "$runs_csv" "$out/latest-runs.csv"
# where a 100k step goes, stage by stage (one more run, with --stages)
"$PUDDLE" bench bench/scenes/dam-break-100k.json --threads "$THREADS" --steps 100 --warmup 20 --stages \
	--csv "$out/latest-stages.csv" >/dev/null

machine=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
cores=$(nproc)
compiler=$(cc --version | head -1)
# the copy of the vector loops the runs used, as the library picked it (pdl_vector_loops)
loops=$("$PUDDLE" --version | sed -n 's/.*(vector loops: \(.*\))$/\1/p')
commit=$(git rev-parse --short HEAD 2>/dev/null || echo unknown)
python3 - "$out" "$RUNS" "$machine" "$cores" "$compiler" "$commit" "$loops" <<'EOF'
import csv, statistics, sys, datetime
out, runs, machine, cores, compiler, commit, loops = sys.argv[1:8]
rows = list(csv.DictReader(open(f"{out}/latest-runs.csv")))
groups = {}
for r in rows:
    groups.setdefault((r["scene"], int(r["threads"])), []).append(r)
table = []
for (scene, threads), rs in groups.items():
    med = lambda k: statistics.median(float(r[k]) for r in rs)
    table.append(dict(scene=scene, particles=int(rs[0]["particles"]), threads=threads, runs=len(rs),
                      median_ms_per_step=med("median_ms_per_step"), steps_per_s=med("steps_per_s"),
                      particle_steps_per_s=med("particle_steps_per_s"),
                      mean_neighbours=med("mean_neighbours"), bytes_per_particle=med("bytes_per_particle"),
                      valid=int(all(r["valid"] == "1" for r in rs))))
table.sort(key=lambda t: (not t["scene"].startswith("bench"), t["particles"], t["scene"], t["threads"]))
with open(f"{out}/latest.csv", "w", newline="") as f:
    w = csv.DictWriter(f, fieldnames=list(table[0].keys()))
    w.writeheader()
    w.writerows(table)

def get(scene_part, threads, exact=False):
    for t in table:
        if (t["scene"] == scene_part if exact else scene_part in t["scene"]) and t["threads"] == threads:
            return t
lines = [f"# puddle benchmark: {datetime.date.today()}", "",
         f"Machine: {machine}, {cores} cores; {compiler}; commit {commit}; vector loops: {loops}.",
         f"Each figure is the median of {runs} runs; each run's figure is the median step time of "
         "its timed steps. Command: `bench/run.sh` (every run's rows: `latest-runs.csv`).", "",
         "| scene | particles | threads | ms/step | steps/s | particle-steps/s | neighbours | bytes/particle | valid |",
         "|---|---|---|---|---|---|---|---|---|"]
for t in table:
    lines.append(f"| {t['scene']} | {t['particles']:,} | {t['threads']} | {t['median_ms_per_step']:.3f} | "
                 f"{t['steps_per_s']:,.1f} | {t['particle_steps_per_s']:,.0f} | {t['mean_neighbours']:.1f} | "
                 f"{t['bytes_per_particle']:.0f} | {'yes' if t['valid'] else 'NO'} |")
lines += ["", "Issue 6 goals against these figures:", ""]
def goal(text, ok, figure):
    lines.append(f"- {'met' if ok else 'NOT met'}: {text}: {figure}")
t100, t10, t1m = get("bench-dam-break-100k", 2, True), get("bench-dam-break-10k", 2, True), get("bench-dam-break-1m", 2, True)
if t100: goal("100k particles at >= 120 steps/s on 2 threads", t100["steps_per_s"] >= 120, f"{t100['steps_per_s']:.1f}")
if t10: goal("10k particles at >= 1,500 steps/s on 2 threads", t10["steps_per_s"] >= 1500, f"{t10['steps_per_s']:.0f}")
if t1m and t100:
    r = t1m["particle_steps_per_s"] / t100["particle_steps_per_s"]
    goal("1M particle-steps/s within 30% of 100k's (2 threads)", r >= 0.7, f"{r:.2f} of it")
    goal("1M at <= 120 bytes per particle", t1m["bytes_per_particle"] <= 120, f"{t1m['bytes_per_particle']:.0f}")
def exact_size(size, threads):
    return get(f"bench-dam-break-{size}", threads, True)
t3 = exact_size("3d-100k", 2)
if t3: goal(f"issue 7: 3D dam break ({t3['particles']:,} particles) at >= 30 steps/s on 2 threads", t3["steps_per_s"] >= 30, f"{t3['steps_per_s']:.1f}")
for size in ("1k", "10k", "100k", "1m", "3d-10k", "3d-100k"):
    a, b = exact_size(size, 1), exact_size(size, 2)
    if a and b:
        s = b["steps_per_s"] / a["steps_per_s"]
        goal(f"2 threads >= 1.8x 1 thread at {size}", s >= 1.8, f"{s:.2f}x")
on, off = get("slime", 2, True), get("slime-no-springs", 2, True)
if on and off:
    c = on["median_ms_per_step"] / off["median_ms_per_step"]
    goal("slime with springs <= 2x the cost without (20k, 2 threads)", c <= 2, f"{c:.2f}x")
bodies, same_fluid = get("bench-dam-break-100k-bodies", 2, True), get("bench-dam-break-100k-bodies-without-bodies", 2, True)
if bodies and same_fluid:
    c = bodies["median_ms_per_step"] / same_fluid["median_ms_per_step"] - 1
    goal("issue 20: 100 bodies cost <= 15% over the same fluid without them (100k, 2 threads)", c <= 0.15, f"+{100 * c:.1f}%")
goal("every run valid (no particle lost, no NaN)", all(t["valid"] for t in table), "yes" if all(t["valid"] for t in table) else "no")
stages = list(csv.DictReader(open(f"{out}/latest-stages.csv")))
if stages:
    lines += ["", "Where a step of the 100k dam break goes (mean ms per step, one run with `--stages`):", "",
              "| threads | step (median) | forces | predict + sort | springs | density + viscosity | relax | boundaries | velocity |",
              "|---|---|---|---|---|---|---|---|---|"]
    for r in stages:
        lines.append(f"| {r['threads']} | {float(r['median_ms_per_step']):.2f} | " + " | ".join(
            f"{float(r[k]):.2f}" for k in ("forces_ms", "predict_ms", "springs_ms", "density_ms", "relax_ms",
                                           "boundaries_ms", "velocity_ms")) + " |")
open(f"{out}/latest.md", "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
EOF
