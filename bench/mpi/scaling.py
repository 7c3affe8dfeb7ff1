#!/usr/bin/env python3
"""Strong and weak scaling of `puddle run` under MPI (docs/mpi.md, "Model"); bench/mpi/README.md
says how to run it on a cluster and what each column means.

    scaling.py strong --particles 1000000 --procs 1,2,4,8 --threads 1,4 --frames 20
    scaling.py weak   --particles 250000  --procs 1,2,4,8 --threads 1,4 --frames 20

strong: the same world (SCENE rescaled to --particles) on every process count.
weak:   --particles per process: SCENE rescaled to --particles x processes.

Each configuration is one launch of `puddle run SCENE --steps FRAMES --threads T --mpi-stats
FILE` (and `--hash` with --hash); its summary and its per-frame CSV give one row of OUT/MODE.csv.
The launcher is a template (--launch): {np} is the process count, {threads} the threads a
process, {ppn} the processes a node (--ppn) and {nodes} the nodes those need, so

    --launch "mpirun -np {np}"                                         (default; one machine)
    --launch "mpirun --hostfile hosts -np {np} --map-by ppr:{ppn}:node:PE={threads} --bind-to core"
    --launch "srun -N {nodes} -n {np} -c {threads} --cpu-bind=cores --mpi=pmix"

(srun runs puddle with PUDDLE_UNDER_MPI=1, set by this script, so it takes the split path.)
"""
import argparse
import csv
import math
import os
import re
import shlex
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

COLUMNS = [
    "mode", "scene", "processes", "threads", "cores", "particles", "particles_per_process", "frames",
    "wall_s", "s_per_frame", "halo_per_process_frame", "halo_ratio", "imbalance",
    "bytes_sent_per_process_frame", "messages_per_process_frame", "recuts",
    "exchange_s_per_frame", "exchange_min_s_per_frame", "step_s_per_frame", "step_max_s_per_frame",
    "build_keep_s_per_frame", "balance_s_per_frame", "speedup", "efficiency", "hash", "exit",
]


def numbers(text):
    return [int(x) for x in text.split(",") if x.strip()]


def arguments():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("mode", choices=("strong", "weak"))
    p.add_argument("--puddle", default=os.environ.get("PUDDLE", os.path.join(ROOT, "build/apps/cli/puddle")))
    p.add_argument("--scene", default=os.path.join(ROOT, "bench/scenes/dam-break-3d-clavet.json"))
    p.add_argument("--particles", type=int, default=1000000,
                   help="strong: the world's particles; weak: particles a process (default 1000000)")
    p.add_argument("--procs", type=numbers, default=[1, 2, 4, 8], help="process counts (default 1,2,4,8)")
    p.add_argument("--threads", type=numbers, default=[1], help="threads a process (default 1)")
    p.add_argument("--frames", type=int, default=20, help="frames a run (default 20)")
    p.add_argument("--ppn", type=int, default=1, help="processes a node, for {ppn} and {nodes} (default 1)")
    p.add_argument("--launch", default=os.environ.get("LAUNCH", "mpirun -np {np}"),
                   help="launcher template (default: $LAUNCH or 'mpirun -np {np}')")
    p.add_argument("--hash", action="store_true",
                   help="also print the state hash (gathers every particle to process 0 at the end)")
    p.add_argument("--out", default=os.path.join(HERE, "results"), help="folder for MODE.csv and runs/ (default bench/mpi/results)")
    p.add_argument("--timeout", type=float, default=None, help="seconds a run may take (default: no limit)")
    return p.parse_args()


def summary_value(pattern, out, cast=float):
    m = re.search(pattern, out)
    return cast(m.group(1)) if m else None


def per_frame(stats_path, processes):
    """Means over the frames of the per-frame CSV that --mpi-stats wrote."""
    rows = list(csv.DictReader(open(stats_path)))
    frames = sorted({int(r["frame"]) for r in rows})
    if not frames:
        return {}
    n = len(frames)
    total = lambda key: sum(float(r[key]) for r in rows)
    by_rank = {}
    for r in rows:
        by_rank.setdefault(int(r["rank"]), []).append(r)
    rank_sum = lambda key: [sum(float(r[key]) for r in rs) for rs in by_rank.values()]
    imbalance = 0.0
    for f in frames:
        owned = [float(r["owned"]) for r in rows if int(r["frame"]) == f]
        mean = sum(owned) / len(owned)
        imbalance += max(owned) / mean if mean > 0 else 1.0
    return {
        "halo_per_process_frame": total("halo") / (n * processes),
        "owned_per_process_frame": total("owned") / (n * processes),
        "imbalance": imbalance / n,
        "bytes_sent_per_process_frame": total("bytes_sent") / (n * processes),
        "messages_per_process_frame": total("messages_sent") / (n * processes),
        "recuts": total("recut") / processes,
        "exchange_s_per_frame": total("exchange_s") / (n * processes),
        "exchange_min_s_per_frame": min(rank_sum("exchange_s")) / n,
        "step_s_per_frame": total("step_s") / (n * processes),
        "step_max_s_per_frame": max(rank_sum("step_s")) / n,
        "build_keep_s_per_frame": (total("build_s") + total("keep_s")) / (n * processes),
        "balance_s_per_frame": total("balance_s") / (n * processes),
    }


def main():
    a = arguments()
    runs = os.path.join(a.out, "runs")
    os.makedirs(runs, exist_ok=True)
    table = os.path.join(a.out, f"{a.mode}.csv")
    scene_name = os.path.splitext(os.path.basename(a.scene))[0]
    env = dict(os.environ, PUDDLE_UNDER_MPI="1")
    rows, reference, failures = [], None, 0
    with open(table, "w", newline="") as f:
        out = csv.DictWriter(f, fieldnames=COLUMNS)
        out.writeheader()
        for threads in a.threads:
            for np_ in a.procs:
                asked = a.particles if a.mode == "strong" else a.particles * np_
                name = f"{a.mode}-np{np_}-t{threads}"
                stats = os.path.join(runs, name + ".csv")
                if os.path.exists(stats):
                    os.remove(stats)
                env["OMP_NUM_THREADS"] = str(threads)
                launch = a.launch.format(np=np_, threads=threads, ppn=a.ppn, nodes=math.ceil(np_ / a.ppn))
                command = shlex.split(launch) + [a.puddle, "run", a.scene, "--particles", str(asked),
                                                 "--steps", str(a.frames), "--threads", str(threads),
                                                 "--mpi-stats", stats]
                if a.hash:
                    command.append("--hash")
                print(f"{name}: {' '.join(shlex.quote(c) for c in command)}", file=sys.stderr, flush=True)
                try:
                    done = subprocess.run(command, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                                          env=env, timeout=a.timeout)
                    code, text, err = done.returncode, done.stdout, done.stderr
                except subprocess.TimeoutExpired as e:
                    code, text, err = 124, e.stdout or "", "timed out"
                    text = text.decode() if isinstance(text, bytes) else text
                with open(os.path.join(runs, name + ".log"), "w") as log:
                    log.write(" ".join(command) + "\n" + text + "\n" + (err if isinstance(err, str) else ""))
                row = {c: "" for c in COLUMNS}
                row.update(mode=a.mode, scene=scene_name, processes=np_, threads=threads, cores=np_ * threads,
                           frames=a.frames, exit=code)
                particles = summary_value(r"(\d+) particles over", text, int)
                wall = summary_value(r"wall time\s+([0-9.]+) s", text)
                if code != 0 or particles is None or wall is None or not os.path.exists(stats):
                    failures += 1
                    print(f"{name}: exit {code}: {(err or '').strip()[-400:]}", file=sys.stderr, flush=True)
                    out.writerow(row)
                    f.flush()
                    continue
                row.update(particles=particles, particles_per_process=round(particles / np_), wall_s=f"{wall:.3f}",
                           s_per_frame=f"{wall / a.frames:.6f}")
                m = per_frame(stats, np_)
                for key, value in m.items():
                    if key in row:
                        row[key] = f"{value:.6f}" if key.endswith("_s_per_frame") else f"{value:.3f}"
                owned = m.get("owned_per_process_frame", 0)
                row["halo_ratio"] = f"{m['halo_per_process_frame'] / owned:.3f}" if owned else ""
                h = summary_value(r"state hash \(ids\)\s+([0-9a-f]{16})", text, str)
                row["hash"] = h or ""
                seconds = wall / a.frames
                if reference is None:
                    reference = (seconds, np_ * threads)
                # strong: time x cores against the first row's; weak: time against the first row's
                speedup = reference[0] / seconds
                if a.mode == "strong":
                    row["speedup"] = f"{speedup:.3f}"
                    row["efficiency"] = f"{speedup * reference[1] / (np_ * threads):.3f}"
                else:
                    row["speedup"] = f"{speedup * (np_ * threads) / reference[1]:.3f}"
                    row["efficiency"] = f"{speedup:.3f}"
                out.writerow(row)
                f.flush()
                rows.append(row)
                print(f"{name}: {particles} particles, {seconds * 1000:.1f} ms a frame, halo "
                      f"{row['halo_per_process_frame']} a process, imbalance {row['imbalance']}"
                      f"{', hash ' + h if h else ''}", file=sys.stderr, flush=True)
    print(table)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
