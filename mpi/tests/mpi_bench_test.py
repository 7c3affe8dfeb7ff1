#!/usr/bin/env python3
"""bench/mpi/strong.sh at a tiny size (bench/scenes/dam-break-3d-clavet.json rescaled to 20k particles, 3 frames, 1, 2 and
4 processes): it exits 0 and writes strong.csv with the columns bench/mpi/README.md lists, one row
a process count, the same state hash in every row, no halo in one process and a halo, bytes and
messages in more; and the per-frame --mpi-stats files it keeps are consistent (every byte sent is
received, every particle owned by exactly one process).

    mpi_bench_test.py --puddle build/apps/cli/puddle --scenes scenes --mpirun mpirun --bench bench/mpi
"""
import argparse
import csv
import os
import subprocess
import sys
import tempfile

from mpi_common import check, summary



def main():
    p = argparse.ArgumentParser()
    p.add_argument("--puddle", required=True)
    p.add_argument("--scenes", required=True)
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--bench", required=True, help="the bench/mpi folder")
    a = p.parse_args()
    sys.path.insert(0, a.bench)
    sys.dont_write_bytecode = True  # no __pycache__ in the source tree
    from scaling import COLUMNS  # the columns bench/mpi/README.md describes
    readme = open(os.path.join(a.bench, "README.md")).read()
    check(all(f"`{c}`" in readme for c in COLUMNS), "bench/mpi/README.md describes every column")

    with tempfile.TemporaryDirectory() as out:
        env = dict(os.environ, PUDDLE=a.puddle, SCENE=os.path.join(os.path.dirname(a.bench), "scenes", "dam-break-3d-clavet.json"),
                   PARTICLES="20000", PROCS="1,2,4", THREADS="1", FRAMES="3", OUT=out,
                   LAUNCH=f"{a.mpirun} --allow-run-as-root --oversubscribe -np {{np}}")
        done = subprocess.run([os.path.join(a.bench, "strong.sh"), "--hash", "--timeout", "120"], env=env,
                              stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=300)
        check(done.returncode == 0, f"strong.sh exits 0 (exit {done.returncode}){' ' + done.stderr[-600:] if done.returncode else ''}")
        table = os.path.join(out, "strong.csv")
        check(os.path.exists(table), "strong.csv written")
        if not os.path.exists(table):
            return summary()
        with open(table) as f:
            reader = csv.DictReader(f)
            header, rows = reader.fieldnames, list(reader)
        print(open(table).read(), flush=True)
        check(header == COLUMNS and "s_per_frame" in header and "halo_per_process_frame" in header and "imbalance" in header, f"the columns are those of bench/mpi/README.md ({header})")
        check([r["processes"] for r in rows] == ["1", "2", "4"], "one row for each of 1, 2 and 4 processes")
        check(all(r["exit"] == "0" and r["frames"] == "3" and r["mode"] == "strong" for r in rows), "every run exits 0 after 3 frames")
        particles = {r["particles"] for r in rows}
        check(len(particles) == 1 and 19000 < int(particles.pop()) < 21000, "the same world of about 20k particles in every row")
        hashes = {r["hash"] for r in rows}
        check(len(hashes) == 1 and len(hashes.pop()) == 16, f"the same state hash for 1, 2 and 4 processes ({[r['hash'] for r in rows]})")
        one, more = rows[0], rows[1:]
        check(float(one["halo_per_process_frame"]) == 0 and float(one["bytes_sent_per_process_frame"]) == 0
              and float(one["imbalance"]) == 1, "one process: no halo, nothing sent, imbalance 1")
        check(all(float(r["halo_per_process_frame"]) > 0 and float(r["bytes_sent_per_process_frame"]) > 0
                  and float(r["messages_per_process_frame"]) >= 1 and 1 <= float(r["imbalance"]) < 1.2 for r in more),
              "2 and 4 processes: a halo, bytes and messages sent, imbalance below 1.2")
        check(all(float(r["s_per_frame"]) > 0 and float(r["step_s_per_frame"]) > 0 for r in rows),
              "times are there (not checked against anything)")

        # the per-frame stats of 4 processes: each frame, what all send is what all receive, and
        # every particle is owned by exactly one process
        stats = os.path.join(out, "runs", "strong-np4-t1.csv")
        check(os.path.exists(stats), "the per-frame --mpi-stats file of -np 4 kept")
        if os.path.exists(stats):
            frames = {}
            for r in csv.DictReader(open(stats)):
                frames.setdefault(int(r["frame"]), []).append(r)
            total = int(rows[2]["particles"]) if rows[2]["particles"] else -1
            check(sorted(frames) == [1, 2, 3] and all(len(v) == 4 for v in frames.values()), "4 rows a frame, frames 1 to 3")
            # (with ghosts: 32-byte particles, and 12-byte pressures for each ghost)
            check(all(sum(int(r["bytes_sent"]) for r in v) == sum(int(r["bytes_received"]) for r in v)
                      and sum(int(r["bytes_sent"]) for r in v) % 4 == 0 and sum(int(r["bytes_sent"]) for r in v) > 0
                      for v in frames.values()),
                  "each frame: bytes sent = bytes received over the processes, whole records")
            check(all(sum(int(r["owned"]) for r in v) == total for v in frames.values()),
                  f"each frame: the processes own {total} particles between them")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
