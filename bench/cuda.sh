#!/usr/bin/env bash
# The CUDA backend's table (issue 24), for a machine with an NVIDIA GPU: the CUDA tests, then
# `puddle bench` rows of the GPU and of the CPU backend on all of the machine's cores, in one run:
#   2D Clavet dam break, 1M particles (bench/scenes/dam-break-1m.json), one step a frame
#   3D Clavet dam break, 1M and 10M particles (bench/scenes/dam-break-3d-{1m,10m}.json)
#   2D and 3D SPH dam breaks rescaled to 1M (scenes/sph-dam-break.json, the 3D one made from
#   bench/scenes/dam-break-3d-1m.json with "kind": "sph"), CFL substeps
#   slime (springs) rescaled to 1M (scenes/slime.json)
# and writes the rows (with the stage profile: --stages) to OUT/cuda-latest.csv.
#
# Usage: bench/cuda.sh [OUT=bench/results]
#   PUDDLE=path/to/puddle, TEST_CUDA=path/to/test_cuda: the builds to run (default: build/...);
#   STEPS (default 100), THREADS for the CPU rows (default: every core).
set -euo pipefail
cd "$(dirname "$0")/.."
out=${1:-bench/results}
PUDDLE=${PUDDLE:-build/apps/cli/puddle}
TEST_CUDA=${TEST_CUDA:-build/tests/test_cuda}
STEPS=${STEPS:-100}
THREADS=${THREADS:-$(nproc)}
mkdir -p "$out"
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
nvidia-smi --query-gpu=name,memory.total,driver_version --format=csv,noheader || true
echo "CPU: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
"$TEST_CUDA"
python3 - "$scratch/sph-3d-1m.json" <<'PY'
import json, sys
s = json.load(open("bench/scenes/dam-break-3d-1m.json"))
s["name"] = "bench-sph-dam-break-3d-1m"
s["solver"]["kind"] = "sph"
json.dump(s, open(sys.argv[1], "w"), indent=2)
PY
csv="$out/cuda-latest.csv"
bench() { "$PUDDLE" bench --stages --warmup 10 "$@"; }
{
	bench bench/scenes/dam-break-1m.json --backend cuda,cpu --threads "$THREADS" --steps "$STEPS"
	bench bench/scenes/dam-break-3d-1m.json --backend cuda,cpu --threads "$THREADS" --steps "$STEPS" | tail -n +2
	bench bench/scenes/dam-break-3d-10m.json --backend cuda --threads "$THREADS" --steps $((STEPS / 4)) | tail -n +2
	bench bench/scenes/dam-break-3d-10m.json --backend cpu --threads "$THREADS" --steps 5 --warmup 1 | tail -n +2
	bench scenes/sph-dam-break.json --particles 1000000 --backend cuda,cpu --threads "$THREADS" --steps $((STEPS / 4)) | tail -n +2
	bench "$scratch/sph-3d-1m.json" --backend cuda --threads "$THREADS" --steps $((STEPS / 4)) | tail -n +2
	bench scenes/slime.json --particles 1000000 --backend cuda,cpu --threads "$THREADS" --steps $((STEPS / 4)) | tail -n +2
} | tee "$csv"
