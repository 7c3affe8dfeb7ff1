#!/usr/bin/env bash
# Seed corpus of fuzz_snapshot: real snapshots of the scenes the fuzzer builds its worlds from,
# written by the puddle command line (small: --particles keeps each file a few kilobytes).
# Usage: fuzz/make-seeds.sh PUDDLE OUT_DIR    e.g. fuzz/make-seeds.sh build/apps/cli/puddle build-fuzz/seeds/snapshot
set -euo pipefail
puddle=$1
out=$2
mkdir -p "$out"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# scene:particles (0 = as the scene is); lava starts empty and its emitter fills it
for entry in lava:0 slime:300 float:300 dam-break-3d:400; do
	scene=${entry%%:*}
	n=${entry#*:}
	args=()
	if [ "$n" != 0 ]; then args=(--particles "$n"); fi
	for steps in 2 30; do
		"$puddle" run "scenes/$scene.json" --steps "$steps" --snapshot-every "$steps" "${args[@]}" \
			--out "$work/$scene-$steps" --png "$work/$scene-$steps.png" --quiet
		cp "$work/$scene-$steps/snapshots/snap_$(printf %06d "$steps").pdls" "$out/$scene-$steps.pdls"
	done
done
