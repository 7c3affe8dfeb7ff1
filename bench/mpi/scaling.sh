#!/usr/bin/env bash
# scaling.sh strong|weak [scaling.py arguments]: scaling.py with its settings from the
# environment (bench/mpi/README.md): PUDDLE, SCENE, PARTICLES, PROCS, THREADS, FRAMES, PPN,
# LAUNCH, OUT. strong.sh and weak.sh call this.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
mode=$1
shift
default_launch='mpirun -np {np}'
default_particles=$([ "$mode" = weak ] && echo 250000 || echo 1000000)
exec python3 "$here/scaling.py" "$mode" \
	--scene "${SCENE:-$(dirname "$(dirname "$here")")/bench/scenes/dam-break-3d-clavet.json}" \
	--particles "${PARTICLES:-$default_particles}" --procs "${PROCS:-1,2,4,8}" --threads "${THREADS:-1}" \
	--frames "${FRAMES:-20}" --ppn "${PPN:-1}" --launch "${LAUNCH:-$default_launch}" \
	--out "${OUT:-$here/results}" "$@"
