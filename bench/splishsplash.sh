#!/usr/bin/env bash
# puddle's DFSPH next to SPlisHSPlasH's DFSPH (InteractiveComputerGraphics/SPlisHSPlasH, Bender &
# Koschier 2015/2017) on the same 3D dam break of about 100k particles, on the same cores.
#
# Usage: bench/splishsplash.sh SPHSIMULATOR [RUNS=3] [SECONDS=1]
#        bench/splishsplash.sh --patch      (prints the patch SPlisHSPlasH needs, see below)
#   SPHSIMULATOR  SPlisHSPlasH's SPHSimulator binary (a Release build, patched as below)
#   PUDDLE=path   puddle's CLI (default build/apps/cli/puddle)
#   CORES=list    the cores both run on, for taskset (default 0,1); both get 2 threads
#   WORK=dir      scratch folder (default a temporary one, removed at the end)
#   DT_REF=s      the time step at which SPlisHSPlasH's divergence tolerance is set equal to
#                 puddle's (default 0.0025 s, SPlisHSPlasH's mean time step in this scene)
#   DIVERGENCE_TOLERANCE=r  run both at this divergence tolerance instead of the scene's 0.001/s
#                 (puddle's sph.divergence_tolerance, a rate per second; SPlisHSPlasH's maxErrorV
#                 follows through DT_REF: 0.4 is SPlisHSPlasH's own default, 0.1 % a step)
#   OUT=file      where the medians go (default bench/results/splishsplash.csv)
#
# The scene is bench/scenes/dam-break-3d-dfsph-100k.json (lengths in h, the kernel's support
# radius). SPlisHSPlasH gets the same particles: puddle's fill at frame 0, scaled to metres with
# h = 0.1 m (particle radius 0.025 m, support radius 4 radii, as SPlisHSPlasH has it), in the
# same tank, under the same gravity (98.1 h/s^2 = 9.81 m/s^2), with:
#   - DFSPH (simulationMethod 4), its default precomputed cubic spline kernel (puddle's DFSPH uses
#     Wendland C2 at the same support radius), its default volume-map walls (Bender et al. 2019);
#   - maxError = 100 sph.density_tolerance (percent; puddle's default 0.0001 is SPlisHSPlasH's
#     default 0.01 %; SPlisHSPlasH stops at a mean predicted compression below it, puddle at the
#     larger of that mean and a twentieth of the largest); maxErrorV = 100 divergence_tolerance
#     DT_REF (SPlisHSPlasH's is a compression per time step, in percent, puddle's a rate per
#     second); min 2 (SPlisHSPlasH's default) and max_iterations (100) iterations;
#   - the CFL rule of puddle's cfl 0.4: SPlisHSPlasH takes dt = cflFactor 0.4 (2 radii) / v_max,
#     so cflFactor = cfl s / (0.4 * 0.5 h) with s puddle's rest spacing; its largest step is
#     puddle's frame, 1/60 s;
#   - its "standard" viscosity at puddle's 0.5 h^2/s (0.005 m^2/s; the same formula), no XSPH,
#     no boundary viscosity (puddle: xsph 0, wall_friction 0);
#   - its walls moved out by WALL_GAP_H = 0.29 h: a volume-map wall holds a fluid at rest about
#     0.55 h off it (its boundary volume extends a support radius into the fluid), puddle's fill
#     starts s/2 = 0.26 h off its walls; so both fluids start at rest in the same space.
#   - no output files (no partio, VTK or state export), stopAt SECONDS.
#
# Figures (each the median of RUNS runs, the two simulators alternating):
#   wall_s         the stepping's wall time: puddle run's "s stepping", SPlisHSPlasH's
#                  "Time sum: SimStep" (neither counts loading, the volume map, the exports)
#   simulated_s    the simulated time reached (SPlisHSPlasH stops at the first step past SECONDS)
#   steps_per_s    solver steps (puddle: substeps; SPlisHSPlasH: time steps) per wall second
#   mean_density_error, max_density_error: |rho - rho0| / rho0 over the particles with at least
#                  half their rest density (pdl_world_stats), at the end of the run; SPlisHSPlasH
#                  has no such figure, the patch below computes it from its densities of its last
#                  step, the same way
#   mean_dt        simulated_s / steps
#
# SPlisHSPlasH's patch (`bench/splishsplash.sh --patch | git -C SPLISHSPLASH_SOURCE apply`):
# Simulator/SimulatorBase.cpp measures puddle's density error after every step, outside the
# SimStep timing, and logs "Bench density error: ..." at the end (and every step with
# BENCH_STEP_LOG=1). Building it where GitHub is out of reach also needs CMake/*.cmake's
# ExternalProject_Add GIT_REPOSITORY lines replaced by SOURCE_DIR of local clones (bench/README.md).
set -euo pipefail

if [ "${1:-}" = "--patch" ]; then
	cat <<'PATCH'
--- a/Simulator/SimulatorBase.cpp
+++ b/Simulator/SimulatorBase.cpp
@@ -41,6 +41,49 @@ INIT_COUNTING
 using namespace SPH;
 using namespace std;
 using namespace GenParam;
+
+// [puddle bench patch] density error as puddle measures it (pdl_world_stats): |rho - rho0| / rho0
+// over fluid particles with rho >= rho0 / 2, from the densities the last step computed (at its start,
+// i.e. at the positions the step before left). Outside the "SimStep" timing.
+static double bench_err_mean_last = 0, bench_err_max_last = 0, bench_err_mean_sum = 0, bench_err_max_run = 0;
+static double bench_comp_last = 0, bench_comp_sum = 0; // mean over all particles of max(0, rho - rho0) / rho0
+static long long bench_steps = 0;
+static void benchMeasureDensityError()
+{
+	Simulation *sim = Simulation::getCurrent();
+	double sum = 0, mx = 0, comp = 0;
+	long long n = 0, all = 0;
+	for (unsigned int m = 0; m < sim->numberOfFluidModels(); m++)
+	{
+		FluidModel *fm = sim->getFluidModel(m);
+		const double rho0 = fm->getDensity0();
+		const int np = (int)fm->numActiveParticles();
+		all += np;
+		#pragma omp parallel for reduction(+:sum,n,comp) reduction(max:mx) schedule(static)
+		for (int i = 0; i < np; i++)
+		{
+			const double rho = fm->getDensity(i);
+			if (rho > rho0) comp += (rho - rho0) / rho0;
+			if (rho < 0.5 * rho0) continue;
+			const double e = std::fabs(rho - rho0) / rho0;
+			sum += e;
+			n++;
+			if (e > mx) mx = e;
+		}
+	}
+	bench_err_mean_last = n ? sum / n : 0;
+	bench_err_max_last = mx;
+	bench_comp_last = all ? comp / all : 0;
+	bench_comp_sum += bench_comp_last;
+	bench_err_mean_sum += bench_err_mean_last;
+	if (mx > bench_err_max_run) bench_err_max_run = mx;
+	bench_steps++;
+	static const bool step_log = getenv("BENCH_STEP_LOG") != nullptr;
+	if (step_log)
+		LOG_INFO << "Bench step " << bench_steps << " t " << TimeManager::getCurrent()->getTime() << " dt " << TimeManager::getCurrent()->getTimeStepSize()
+			<< " mean " << bench_err_mean_last << " max " << bench_err_max_last << " compression " << bench_comp_last;
+}
+
 using namespace Utilities;
 
 int SimulatorBase::PAUSE = -1;
@@ -629,6 +672,10 @@ void SimulatorBase::cleanup()
 	cleanupExporters();
 
 	// print stats before loggers are deleted
+	if (bench_steps > 0)
+		LOG_INFO << "Bench density error: steps " << bench_steps << " last mean " << bench_err_mean_last << " last max " << bench_err_max_last
+			<< " run mean " << bench_err_mean_sum / bench_steps << " run max " << bench_err_max_run
+			<< " last compression " << bench_comp_last << " run compression " << bench_comp_sum / bench_steps;
 	Utilities::Timing::printAverageTimes();
 	Utilities::Timing::printTimeSums();
 
@@ -969,6 +1016,7 @@ bool SimulatorBase::timeStepNoGUI()
 	START_TIMING("SimStep");
 	Simulation::getCurrent()->getTimeStep()->step();
 	STOP_TIMING_AVG;
+	benchMeasureDensityError();
 
 	m_boundarySimulator->timeStep();
 
PATCH
	exit 0
fi

[ $# -ge 1 ] || { sed -n '5,12p' "$0" >&2; exit 2; }
SPHSIM=$(readlink -f "$1")
RUNS=${2:-3}
SECONDS_SIM=${3:-1}
cd "$(dirname "$0")/.."
PUDDLE=$(readlink -f "${PUDDLE:-build/apps/cli/puddle}")
CORES=${CORES:-0,1}
DT_REF=${DT_REF:-0.0025}
SCENE=bench/scenes/dam-break-3d-dfsph-100k.json
OUT=${OUT:-bench/results/splishsplash.csv}
[ -x "$SPHSIM" ] || { echo "splishsplash.sh: $SPHSIM: not an executable" >&2; exit 2; }
[ -x "$PUDDLE" ] || { echo "splishsplash.sh: $PUDDLE: not built (cmake --build build --target puddle_cli)" >&2; exit 2; }
if [ -n "${WORK:-}" ]; then
	mkdir -p "$WORK"
	WORK=$(readlink -f "$WORK")
else
	WORK=$(mktemp -d)
	trap 'rm -rf "$WORK"' EXIT
fi
if [ -n "${DIVERGENCE_TOLERANCE:-}" ]; then # the scene with the other tolerance, for both
	python3 - "$SCENE" "$WORK/scene.json" "$DIVERGENCE_TOLERANCE" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))
s["solver"]["divergence_tolerance"] = float(sys.argv[3])
json.dump(s, open(sys.argv[2], "w"), indent=2)
EOF
	SCENE="$WORK/scene.json"
fi
pin=()
if command -v taskset >/dev/null && [ "$(nproc --all)" -gt 1 ]; then pin=(taskset -c "$CORES"); fi

# puddle's particles at frame 0 (its fill), for SPlisHSPlasH
"$PUDDLE" run "$SCENE" --steps 1 --csv --export-every 1 --threads 2 --size 16x16 --quiet --out "$WORK/init"

python3 - "$SCENE" "$WORK" "$SECONDS_SIM" "$DT_REF" <<'EOF'
import csv, json, math, sys
scene, work, seconds, dt_ref = sys.argv[1], sys.argv[2], float(sys.argv[3]), float(sys.argv[4])
H_M = 0.1            # metres per h: particle radius 0.025 m, support radius 4 radii
WALL_GAP_H = 0.29    # see the head of this script
s = json.load(open(scene))
sol = s["solver"]
rows = list(csv.DictReader(open(work + "/init/csv/frame_000000.csv")))
# the fill's FCC lattice: particles 0 and 1 are two cube steps (spacing * sqrt 2) apart in x
spacing = (float(rows[1]["x"]) - float(rows[0]["x"])) / math.sqrt(2)
with open(work + "/fluid.pda", "w") as f:
    f.write("ATTRIBUTES\nposition\nTYPES\nV\nNUMBER_OF_PARTICLES: %d\nBEGIN DATA\n" % len(rows))
    for r in rows:
        f.write("%.7g %.7g %.7g\n" % (float(r["x"]) * H_M, float(r["y"]) * H_M, float(r["z"]) * H_M))
# SPlisHSPlasH's data/models/UnitBox.obj: the unit cube, outward faces
box = [(-0.5, -0.5, 0.5), (0.5, -0.5, 0.5), (-0.5, 0.5, 0.5), (0.5, 0.5, 0.5), (-0.5, 0.5, -0.5), (0.5, 0.5, -0.5),
       (-0.5, -0.5, -0.5), (0.5, -0.5, -0.5)]
faces = [(1, 2, 3), (3, 2, 4), (3, 4, 5), (5, 4, 6), (5, 6, 7), (7, 6, 8), (7, 8, 1), (1, 8, 2), (2, 8, 4),
         (4, 8, 6), (7, 1, 5), (5, 1, 3)]
with open(work + "/box.obj", "w") as f:
    for v in box:
        f.write("v %g %g %g\n" % v)
    for t in faces:
        f.write("f %d %d %d\n" % t)
c = s["container"]
half, centre = c["half_extents"], c["position"]
radius = H_M / 4
ssph = {
    "Configuration": {
        "particleRadius": radius,
        "simulationMethod": 4,
        "gravitation": [g * H_M for g in s["world"]["gravity"]],
        "timeStepSize": 0.001,
        "cflMethod": 1,
        "cflFactor": sol["cfl"] * spacing / (0.4 * 0.5),
        "cflMaxTimeStepSize": s["world"]["dt"],
        "stopAt": seconds,
        "enablePartioExport": False,
        "enableVTKExport": False,
        "enableRigidBodyExport": False,
        "enableStateExport": False,
        "boundaryHandlingMethod": 2,
        "DFSPH": {
            "minIterations": 2,
            "maxIterations": sol["max_iterations"],
            "maxError": 100 * sol["density_tolerance"],
            "maxIterationsV": sol["max_iterations"],
            "maxErrorV": 100 * sol["divergence_tolerance"] * dt_ref,
            "enableDivergenceSolver": True,
        },
    },
    "Materials": [{
        "id": "Fluid",
        "density0": 1000,
        "viscosityMethod": 1,
        "Standard viscosity": {"viscosity": sol["viscosity"] * H_M * H_M, "viscosityBoundary": 0.0},
    }],
    "RigidBodies": [{
        "geometryFile": work + "/box.obj",
        "translation": [x * H_M for x in centre],
        "scale": [(2 * e + 2 * WALL_GAP_H) * H_M for e in half],
        "isDynamic": False,
        "isWall": True,
        "mapInvert": True,
        "mapThickness": 0.0,
        "mapResolution": [max(8, round(2 * e)) for e in half],  # cells about h wide
    }],
    "FluidModels": [{"id": "Fluid", "particleFile": work + "/fluid.pda"}],
}
json.dump(ssph, open(work + "/splishsplash.json", "w"), indent=2)
print("splishsplash.sh: %d particles, rest spacing %.4f h, cflFactor %.4f, maxErrorV %.4g %%" %
      (len(rows), spacing, ssph["Configuration"]["cflFactor"], ssph["Configuration"]["DFSPH"]["maxErrorV"]), file=sys.stderr)
EOF

runs="$WORK/runs.csv"
echo "simulator,run,particles,simulated_s,wall_s,steps,mean_density_error,max_density_error,run_mean_density_error,run_max_density_error,cpu_percent,loadavg" >"$runs"
# each run's share of the CPUs (GNU time's %P: 200 % is both cores) and the load average before it:
# on a shared machine these say whether a run had its two cores
timed=()
if [ -x /usr/bin/time ]; then timed=(/usr/bin/time -f "cpu_percent %P"); fi
for run in $(seq 1 "$RUNS"); do
	# SPlisHSPlasH (the first run also builds its volume map, which is cached and not timed)
	log="$WORK/splishsplash-$run.log"
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "")
	(cd "$WORK" && OMP_NUM_THREADS=2 "${timed[@]}" "${pin[@]}" "$SPHSIM" --no-gui --output-dir "$WORK/ssph-out" "$WORK/splishsplash.json" >"$log" 2>&1)
	python3 - "$log" "$run" "$load" >>"$runs" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
def num(pattern):
    m = re.search(pattern, text)
    if not m:
        sys.exit("splishsplash.sh: %s: no match for %r (is SPHSimulator patched? bench/splishsplash.sh --patch)" % (sys.argv[1], pattern))
    return float(m.group(1))
particles = int(num(r"Number of fluid particles: (\d+)"))
wall = num(r"Time sum: SimStep: ([0-9.eE+-]+) ms") / 1000
simulated = num(r"Total number: Time step size: ([0-9.eE+-]+)")
m = re.search(r"Bench density error: steps (\d+) last mean (\S+) last max (\S+) run mean (\S+) run max (\S+)", text)
if not m:
    sys.exit("splishsplash.sh: %s: no 'Bench density error' line: SPHSimulator lacks the patch (bench/splishsplash.sh --patch)" % sys.argv[1])
cpu = re.search(r"cpu_percent (\S+)%", text)
print("splishsplash,%s,%d,%.6f,%.4f,%s,%s,%s,%s,%s,%s,%s" % ((sys.argv[2], particles, simulated, wall) + m.groups() +
      (cpu.group(1) if cpu else "", sys.argv[3])))
EOF
	# puddle
	log="$WORK/puddle-$run.log"
	load=$(cut -d' ' -f1 /proc/loadavg 2>/dev/null || echo "")
	OMP_NUM_THREADS=2 "${timed[@]}" "${pin[@]}" "$PUDDLE" run "$SCENE" --seconds "$SECONDS_SIM" --threads 2 --size 16x16 \
		--out "$WORK/puddle-out" >"$log" 2>"$log.err"
	grep cpu_percent "$log.err" >>"$log" || true
	python3 - "$log" "$run" "$load" >>"$runs" <<'EOF'
import re, sys
text = open(sys.argv[1]).read()
def grab(pattern):
    m = re.search(pattern, text)
    if not m:
        sys.exit("splishsplash.sh: %s: no match for %r" % (sys.argv[1], pattern))
    return m.groups()
particles = int(grab(r"particles\s+(\d+)")[0])
simulated, first, last = grab(r"simulated time\s+([0-9.]+) s \(frames (\d+) to (\d+),")
wall = grab(r"wall time\s+[0-9.]+ s \(([0-9.]+) s stepping\)")[0]
mean, mx = grab(r"density error\s+mean ([0-9.]+) %, max ([0-9.]+) %")
# the CFL rule's substeps: "N.NN per frame on average" (a summary that gives only the scene's
# fixed "N substeps each" does not count them: steps left empty)
m = re.search(r"([0-9.]+) per frame on average", text)
steps = "%d" % round((int(last) - int(first)) * float(m.group(1))) if m else ""
if not m:
    print("splishsplash.sh: %s: the summary does not count DFSPH's substeps; steps_per_s and mean_dt left empty" % sys.argv[1], file=sys.stderr)
cpu = re.search(r"cpu_percent (\S+)%", text)
print("puddle,%s,%d,%s,%s,%s,%.6g,%.6g,,,%s,%s" % (sys.argv[2], particles, simulated, wall, steps, float(mean) / 100, float(mx) / 100,
      cpu.group(1) if cpu else "", sys.argv[3]))
EOF
	tail -n 2 "$runs" >&2
done

mkdir -p "$(dirname "$OUT")"
python3 - "$runs" "$OUT" <<'EOF'
import csv, statistics, sys
rows = list(csv.DictReader(open(sys.argv[1])))
out = open(sys.argv[2], "w")
out.write("simulator,particles,simulated_s,wall_s,steps_per_s,sim_s_per_wall_s,mean_density_error,max_density_error,mean_dt\n")
for sim in ("puddle", "splishsplash"):
    rs = [r for r in rows if r["simulator"] == sim]
    med = lambda f: statistics.median(f(r) for r in rs)
    simulated = med(lambda r: float(r["simulated_s"]))
    wall = med(lambda r: float(r["wall_s"]))
    counted = all(r["steps"] for r in rs)
    out.write("%s,%s,%.4f,%.2f,%s,%.5f,%.5f,%.4f,%s\n" % (
        sim, rs[0]["particles"], simulated, wall,
        "%.2f" % med(lambda r: float(r["steps"]) / float(r["wall_s"])) if counted else "",
        med(lambda r: float(r["simulated_s"]) / float(r["wall_s"])),
        med(lambda r: float(r["mean_density_error"])),
        med(lambda r: float(r["max_density_error"])),
        "%.6f" % med(lambda r: float(r["simulated_s"]) / float(r["steps"])) if counted else ""))
out.close()
print(open(sys.argv[2]).read(), end="")
EOF
echo "every run: $runs" >&2
