#!/usr/bin/env bash
# Strong scaling: one world of PARTICLES particles (SCENE rescaled) on each process count of
# PROCS, with each thread count of THREADS, FRAMES frames a run; writes OUT/strong.csv (columns:
# bench/mpi/README.md) and each run's log and per-frame --mpi-stats CSV under OUT/runs/.
#
#   PARTICLES=10000000 PROCS=1,2,4,8,16,32,64 THREADS=32 PPN=1 \
#     LAUNCH='mpirun --hostfile hosts -np {np} --map-by ppr:{ppn}:node:PE={threads} --bind-to core' \
#     bench/mpi/strong.sh
#
# Extra arguments go to scaling.py (e.g. --hash, --timeout 3600); scaling.py --help lists them.
exec "$(dirname "$0")/scaling.sh" strong "$@"
