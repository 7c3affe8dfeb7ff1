#!/usr/bin/env bash
# make demo: renders the default scene, stratify (three density classes separating into layers,
# with the Rust stratification demo's parameters), to out/demo.mp4 and out/demo.png with the puddle command built in build/.
# Usage: scripts/demo.sh [SCENE]   (default scenes/stratify.json)
set -euo pipefail
cd "$(dirname "$0")/.."

puddle=build/apps/cli/puddle
scene=${1:-scenes/stratify.json}
if [ ! -x "$puddle" ]; then
	echo "demo: $puddle is missing; build first (make build, or cmake -S . -B build && cmake --build build)" >&2
	exit 2
fi
if ! command -v ffmpeg >/dev/null 2>&1; then
	echo "demo: ffmpeg is missing (apt-get install ffmpeg); it encodes out/demo.mp4" >&2
	exit 2
fi
mkdir -p out
"$puddle" run "$scene" --out out/demo-run --video out/demo.mp4 --png out/demo.png
echo "demo: wrote out/demo.mp4 and out/demo.png"
