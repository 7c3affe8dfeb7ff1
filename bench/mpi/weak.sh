#!/usr/bin/env bash
# Weak scaling: PARTICLES particles a process (default 250,000; SCENE rescaled to PARTICLES x
# processes) on each process count of PROCS, with each thread count of THREADS, FRAMES frames a
# run; writes OUT/weak.csv (columns: bench/mpi/README.md) and each run's log and per-frame
# --mpi-stats CSV under OUT/runs/.
#
#   PARTICLES=1000000 PROCS=1,2,4,8,16,32,64 THREADS=32 PPN=1 \
#     LAUNCH='mpirun --hostfile hosts -np {np} --map-by ppr:{ppn}:node:PE={threads} --bind-to core' \
#     bench/mpi/weak.sh
#
# Extra arguments go to scaling.py (e.g. --hash, --timeout 3600); scaling.py --help lists them.
exec "$(dirname "$0")/scaling.sh" weak "$@"
