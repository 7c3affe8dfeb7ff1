#!/usr/bin/env python3
"""A full disk under one MPI process, for every file the split run writes (issue 39 points 2, 3):
io_fault.so (apps/cli/tests/io_fault.c, loaded with LD_PRELOAD through mpirun -x) fails the k-th
write call of one process (IO_FAULT_RANK) with ENOSPC. For 2, 3 and 4 processes, the first and the
last process failing, each write path (collective snapshots, CSV and PLY; VTK pieces and the .pvd
of process 0; the bodies' CSV and VTK files, which process 0 writes alone): the job ends within
the timeout (a collective that one process left early hung 3 processes forever), exit status 1,
the file and the reason said once (after "process R: " when process R > 0 failed), no temporary
file and no file unlike the fault-free run's, and the last snapshot on disk resumes to the
fault-free hash; --mpi-stats likewise. And a --resume snapshot the last process alone cannot open
(IO_FAULT_OPEN=read): every process agrees before the collective read, exit 2, the reason said
once after "process R: " (each process read it alone, and the others waited forever).

    mpi_faults_test.py --puddle build/apps/cli/puddle --scenes scenes --mpirun mpirun --shim io_fault.so [--long]

--long: every write path for 2, 3 and 4 processes, the first and the last process failing, at
every write call that process makes, or SPREAD of them spread from the first to the last.
"""
import os
import shutil
import subprocess
import sys
import tempfile

from mpi_common import arguments, check, clavet_scene, mpirun, mpirun_command, state_hash, summary

a = arguments()
if not a.shim:
    print("no --shim: skipped")
    sys.exit(0)
work = tempfile.mkdtemp(prefix="puddle_mpi_faults_")
scene = clavet_scene(a, "dam-break", work)
floating = clavet_scene(a, "float", work)
base = ["--steps", "12", "--particles", "1500", "--threads", "1", "--hash"]
# name: (scene and options, the text in the paths that fail): each write path alone; the bodies'
# files, which process 0 alone writes, alone too
KINDS = {"snapshot": ([scene, "--snapshot-every", "4"], None), "csv": ([scene, "--csv", "--export-every", "6"], None),
         "ply": ([scene, "--ply", "--export-every", "6"], None), "vtk": ([scene, "--vtk", "--export-every", "6"], None),
         "bodies-csv": ([floating, "--csv", "--export-every", "6"], "bodies_"),
         "bodies-vtk": ([floating, "--vtk", "--export-every", "6"], "bodies_")}


def command(options, *more):
    """puddle run's arguments: the scene, base, the kind's options, more."""
    return options[:1] + base + options[1:] + list(more)


def files_of(root):
    out = {}
    for d, _, names in os.walk(root):
        for n in names:
            with open(os.path.join(d, n), "rb") as f:
                out[os.path.relpath(os.path.join(d, n), root)] = f.read()
    return out


def faulty(n, options, out, fault):
    """mpirun -np n puddle run ... with the shim's variables in `fault` passed to every process."""
    env = dict(os.environ, IO_FAULT_PATH=out)
    env.update(fault)
    cmd = mpirun_command(a, n, command(options, "--out", out))
    exports = ["-x", "LD_PRELOAD=" + a.shim] + sum((["-x", k] for k in ["IO_FAULT_PATH"] + list(fault)), [])
    cmd = cmd[:1] + exports + cmd[1:]
    try:
        p = subprocess.run(cmd, stdin=subprocess.DEVNULL, capture_output=True, text=True, env=env, timeout=60)
        return p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired:
        return "hung", "", ""


def case(n, kind, rank, k):
    what = f"-np {n} {kind}, process {rank} full at write {k}"
    options, files = KINDS[kind]
    ref = os.path.join(work, f"ref-{n}-{kind}")
    if not os.path.isdir(ref):
        code, out, err = mpirun(a, n, command(options, "--out", ref))
        check(code == 0, f"-np {n} {kind}: fault-free run: {code} {err[-300:]!r}")
        with open(os.path.join(ref, "hash"), "w") as f:
            f.write(state_hash(out) or "")
    with open(os.path.join(ref, "hash")) as f:
        straight = f.read()
    reference = files_of(ref)
    out_dir = os.path.join(work, "f")
    shutil.rmtree(out_dir, ignore_errors=True)
    fault = {"IO_FAULT_AT": str(k), "IO_FAULT_RANK": str(rank)}
    code, out, err = faulty(n, options, out_dir, dict(fault, IO_FAULT_PATH=files) if files else fault)
    check(code == 1, f"{what}: exit {code} (1 expected, within 60 s)")
    said = [line for line in err.splitlines() if line.startswith("puddle run: ")]
    check(len(said) == 1 and out_dir in said[0] and "No space left on device" in said[0], f"{what}: said {said!r}")
    # what process R > 0 alone saw reaches the user once, from process 0, naming R
    named = said[0].startswith(f"puddle run: process {rank}: " if rank > 0 else "puddle run: process ") if said else None
    check(named == (rank > 0), f"{what}: said {said!r}, the process named when not 0")
    left = files_of(out_dir) if os.path.isdir(out_dir) else {}
    temporary = [p for p in left if ".tmp." in p]
    check(not temporary, f"{what}: temporary files left: {temporary}")
    # a .pvd lists the frames written so far: shorter than the fault-free run's, never cut
    partial = [p for p, data in left.items() if p not in temporary and p != "hash" and
               (reference.get(p) != data if not p.endswith(".pvd") else not data.rstrip().endswith(b"</VTKFile>"))]
    check(not partial, f"{what}: files unlike the fault-free run's: {partial}")
    snaps = sorted(p for p in left if p.endswith(".pdls"))
    if snaps:
        code, out, err = mpirun(a, n, command(options, "--resume", os.path.join(out_dir, snaps[-1]), "--out",
                                              os.path.join(work, "resumed")))
        check(code == 0 and state_hash(out) == straight, f"{what}: resumed from {snaps[-1]}: {state_hash(out)} vs {straight}")
        shutil.rmtree(os.path.join(work, "resumed"), ignore_errors=True)


def stats_file_fails(n):
    """--mpi-stats, which process 0 writes frame by frame, on a full disk: the reason said at the
    end, exit 1, no file under its name and no temporary (a 0-byte file was left, the reason not
    said)."""
    out = os.path.join(work, "stats")
    stats = os.path.join(out, "stats.csv")
    os.makedirs(out)
    code, _, err = faulty(n, [scene, "--mpi-stats", stats], os.path.join(out, "d"),
                          {"IO_FAULT_PATH": stats, "IO_FAULT_AT": "1", "IO_FAULT_RANK": "0"})
    said = [line for line in err.splitlines() if line.startswith("puddle run: ")]
    check(code == 1 and said == [f"puddle run: --mpi-stats: {stats}: write failed: No space left on device"] and
          os.listdir(out) == [], f"-np {n} --mpi-stats on a full disk: exit {code}, said {said!r}, left {os.listdir(out)}")


def resume_refused_to_one(n):
    what = f"-np {n}, --resume refused to process {n - 1} alone"
    ref = os.path.join(work, f"resume-{n}")
    code, out, err = mpirun(a, 1, command(KINDS["snapshot"][0], "--out", ref))
    snap = os.path.join(ref, "snapshots", "snap_000004.pdls")
    code, out, err = faulty(n, [scene, "--resume", snap], os.path.join(work, "r"),
                            {"IO_FAULT_PATH": snap, "IO_FAULT_OPEN": "read", "IO_FAULT_RANK": str(n - 1)})
    said = [line for line in err.splitlines() if line.startswith("puddle run: ")]
    check(code == 2 and said == [f"puddle run: process {n - 1}: --resume: {snap}: cannot open: Permission denied"],
          f"{what}: exit {code} (2 expected, within 60 s), said {said!r}")


SPREAD = 12


def write_calls(n, kind, rank):
    """The write calls process `rank` makes on the kind's files in a fault-free run."""
    options, files = KINDS[kind]
    count = os.path.join(work, "calls")
    if os.path.exists(count):
        os.remove(count)
    out_dir = os.path.join(work, "count")
    shutil.rmtree(out_dir, ignore_errors=True)
    fault = {"IO_FAULT_COUNT": count, "IO_FAULT_RANK": str(rank)}
    code, out, err = faulty(n, options, out_dir, dict(fault, IO_FAULT_PATH=files) if files else fault)
    check(code == 0, f"-np {n} {kind}: the fault-free run under the shim: {code} {err[-300:]!r}")
    with open(count) as c:
        return max(int(line.split()[1]) for line in c)


def long_sweep():
    for n in (2, 3, 4):
        for kind, (options, files) in KINDS.items():
            for rank in (0, n - 1) if not files else (0,):  # process 0 alone writes the bodies' files
                calls = write_calls(n, kind, rank)
                ks = sorted({1 + (calls - 1) * i // (SPREAD - 1) for i in range(SPREAD)}) if calls > SPREAD \
                    else range(1, calls + 1)
                print(f"-np {n} {kind}, process {rank}: {calls} write calls, failing at {len(ks)} of them", flush=True)
                for k in ks:
                    case(n, kind, rank, k)


try:
    resume_refused_to_one(3)
    stats_file_fails(2)
    if a.long:
        long_sweep()
    else:
        for n in (2, 3, 4):
            for rank in (0, n - 1):
                case(n, "snapshot", rank, 1)
        case(3, "snapshot", 0, 12)  # in the second snapshot (8 calls each): the first resumes
        for kind in ("csv", "ply", "vtk"):
            case(3, kind, 0, 2)
            case(3, kind, 2, 1)
        case(3, "bodies-csv", 0, 1)
finally:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(summary())
