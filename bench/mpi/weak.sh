#!/usr/bin/env bash
# Weak scaling: PARTICLES particles a process (SCENE rescaled to PARTICLES x processes) on each process count of
# PROCS, with each thread count of THREADS, FRAMES frames a run; writes OUT/weak.csv (columns:
# bench/mpi/README.md) and each run's log and per-frame --mpi-stats CSV under OUT/runs/.
#
#   PARTICLES=1000000 PROCS=1,2,4,8,16,32,64 THREADS=32 PPN=1 \
#     LAUNCH='mpirun --hostfile hosts -np {np} --map-by ppr:{ppn}:node:PE={threads} --bind-to core' \
#     bench/mpi/strong.sh
#
# Extra arguments go to scaling.py (e.g. --hash, --timeout 3600); scaling.py --help lists them.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
default_launch='mpirun -np {np}'
exec python3 "$here/scaling.py" weak \
	--scene "${SCENE:-$(dirname "$(dirname "$here")")/scenes/dam-break-3d.json}" \
	--particles "${PARTICLES:-250000}" --procs "${PROCS:-1,2,4,8}" --threads "${THREADS:-1}" \
	--frames "${FRAMES:-20}" --ppn "${PPN:-1}" --launch "${LAUNCH:-$default_launch}" \
	--out "${OUT:-$here/results}" "$@"
