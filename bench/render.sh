#!/usr/bin/env bash
# The viewer's drawing cost, measured on the GPU itself (gpu_timer.c's timestamp queries):
# drop-3d and dam-break-3d at about 20k and 100k particles, spheres (--render metaball)
# against the liquid look, at 1280x800 and 1920x1080, without a window (SDL's offscreen
# driver, which renders through EGL: on a headless NVIDIA machine that is the GPU itself).
# One row per run to bench/results/render-latest.csv: the GPU's mean ms a frame and per stage
# over FRAMES frames (the first 5 not counted), the CPU's step and the frames per second.
#
# Usage: bench/render.sh [FRAMES=150] [THREADS=0]
#   VIEW="command" runs another viewer (default build/apps/viewer/puddle-view); it gets
#   the options after it, so a wrapper (a loader, env settings) may stand in front.
#   PARTICLES="N ..." other sizes (default "20000 100000").
#   OUT=dir writes the CSV and the last frame of each 1920x1080 liquid run there instead
#   (default bench/results).
# Under Mesa's llvmpipe the timestamps are taken as the commands are queued, not as they run,
# so there the GPU columns are not the drawing's cost (use --stats' render_ms).
set -euo pipefail
cd "$(dirname "$0")/.."
FRAMES=${1:-150}
THREADS=${2:-0}
VIEW=${VIEW:-build/apps/viewer/puddle-view}
OUT=${OUT:-bench/results}
mkdir -p "$OUT"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
csv="$OUT/render-latest.csv"
echo "scene,particles,render,size,frames,gpu,gpu_ms,scene_ms,particles_ms,depth_ms,thickness_ms,smooth_ms,shade_ms,foam_ms,step_ms,fps" > "$csv"
run=0
for scene in drop-3d dam-break-3d; do
	for n in ${PARTICLES:-20000 100000}; do
		for size in 1280x800 1920x1080; do
			for mode in metaball liquid; do
				run=$((run + 1))
				report="$scratch/$run.json"
				shot=()
				if [ "$mode" = liquid ] && [ "$size" = 1920x1080 ]; then shot=(--screenshot "$OUT/render-$scene-$n-$size.png"); fi
				SDL_VIDEODRIVER=offscreen $VIEW "$scene" --scenes scenes --no-panel --stats \
					--frames "$FRAMES" --particles "$n" --render "$mode" --size "$size" \
					--threads "$THREADS" --report "$report" "${shot[@]}" > "$scratch/$run.log" 2>&1 ||
					{ cat "$scratch/$run.log"; exit 1; }
				gpu=$(sed -n 's/^puddle-view: gpu "\(.*\)" gpu_ms.*/\1/p' "$scratch/$run.log")
				python3 - "$report" "$size" "$gpu" >> "$csv" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))
s = r["gpu_stage_ms"]
row = [r["scene"], r["particles"], r["render_mode"], sys.argv[2], r["frames"],
       '"' + sys.argv[3] + '"', r["gpu_ms"]] + [s[k] for k in
       ("scene", "particles", "depth", "thickness", "smooth", "shade", "foam")] + \
      [r["step_ms"], r["fps"]]
print(",".join(f"{v:.3f}" if isinstance(v, float) else str(v) for v in row))
PY
				tail -1 "$csv"
			done
		done
	done
done
echo "wrote $csv"
