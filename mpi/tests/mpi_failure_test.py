#!/usr/bin/env python3
"""Failures of puddle over MPI (docs/mpi.md, issue 22 point 4):
- a process killed (SIGKILL) after the first snapshot takes the run down: mpirun says which process
  died and exits non-zero, within the test's timeout (no hang), and every snapshot on disk is whole
  and resumes, on another process count, to the hash of a run that never stopped;
- a full disk (a small tmpfs, where this user may mount one) while writing a snapshot: a message
  naming the file and the reason, exit 1 from every process, the previous snapshot intact and no
  temporary file left;
- a damaged snapshot given to --resume: said once, exit 2;
- particles lost (left world.bounds) in the last process's part only: said once by process 0,
  naming the process, the count of -np 1, exit 1 (the other processes' errors reach the user).

    mpi_failure_test.py --puddle build/apps/cli/puddle --scenes scenes [--mpirun mpirun]
"""
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time

from mpi_common import arguments, check, clavet_scene, mpirun, mpirun_command, state_hash, summary


def descendants(root):
    """The processes below root (pid -> parent pid read from /proc)."""
    parents = {}
    for pid in os.listdir("/proc"):
        if pid.isdigit():
            try:
                stat = open(f"/proc/{pid}/stat").read()
                parents[int(pid)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                pass
    found, todo = [], [root]
    while todo:
        p = todo.pop()
        kids = [c for c, parent in parents.items() if parent == p]
        found += kids
        todo += kids
    return found


def rank_pid(root, rank):
    """The pid of MPI process `rank` of the job mpirun `root` started (its environment says)."""
    for pid in descendants(root):
        try:
            env = open(f"/proc/{pid}/environ", "rb").read().split(b"\0")
        except OSError:
            continue
        if f"OMPI_COMM_WORLD_RANK={rank}".encode() in env:
            return pid
    return None


def stop(job):
    """Ends the job this test started: mpirun and its processes (its own process group)."""
    try:
        os.killpg(job.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    job.communicate()


def killed_rank(a, tmp, scene):
    d = os.path.join(tmp, "killed")
    snaps = os.path.join(d, "snapshots")
    job = subprocess.Popen(mpirun_command(a, 2, [scene, "--steps", "1000000", "--snapshot-every", "20", "--out", d,
                                                 "--quiet"]),
                           stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           start_new_session=True)
    started = time.time()
    while not os.path.exists(os.path.join(snaps, "snap_000020.pdls")) and time.time() - started < 60 \
            and job.poll() is None:
        time.sleep(0.02)
    victim = rank_pid(job.pid, 1)
    check(victim is not None, f"found process 1 of the job (pid {victim}) once snap_000020.pdls was written")
    if victim is None:
        stop(job)
        return
    os.kill(victim, signal.SIGKILL)
    try:
        out, err = job.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        stop(job)
        check(False, "the job went on for 60 s after one of its processes was killed")
        return
    said = re.search(r"process rank 1 .*exited on signal 9", out + err)
    check(job.returncode != 0 and said is not None,
          f"killed process 1: the job ended in {time.time() - started:.1f} s, exit {job.returncode}, "
          f"mpirun said: {said.group(0) if said else (out + err).strip()[-300:]}")
    written = sorted(f for f in os.listdir(snaps) if re.fullmatch(r"snap_\d{6}\.pdls", f))
    check(len(written) >= 1, f"snapshots on disk after the kill: {written}")
    if not written:
        return
    last = written[-1]
    frame = int(last[5:11])
    # every snapshot under its real name is whole (read and checked by the resume), and the last
    # one goes on, on 3 processes, to the hash of a run on 1 that never stopped
    end = frame + 20
    code, out, err = mpirun(a, 3, [scene, "--steps", str(end), "--resume", os.path.join(snaps, last), "--out",
                                   os.path.join(tmp, "after-kill"), "--hash", "--quiet"], timeout=120)
    resumed = state_hash(out)
    code1, out1, _ = mpirun(a, 1, [scene, "--steps", str(end), "--out", os.path.join(tmp, "never-stopped"), "--hash",
                                   "--quiet"], timeout=120)
    check(code == 0 and code1 == 0 and resumed is not None and resumed == state_hash(out1),
          f"{last} (of {len(written)}) resumed on 3 processes to frame {end}: {resumed}; one process without stopping: "
          f"{state_hash(out1)} {err.strip()[-300:] if code else ''}")
    for f in written[:-1]:
        code, out, err = mpirun(a, 2, [scene, "--steps", str(int(f[5:11])), "--resume", os.path.join(snaps, f), "--out",
                                       os.path.join(tmp, "check"), "--quiet"], timeout=120)
        check(code == 0, f"{f} reads back whole: exit {code} {err.strip()[-200:] if code else ''}")


def full_disk(a, tmp, scene):
    disk = os.path.join(tmp, "disk")
    os.makedirs(disk)
    # room for one 2D dam-break snapshot (33,933 bytes) and not two
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=48k", "tmpfs", disk], capture_output=True, text=True)
    if mounted.returncode != 0:
        print(f"skip: full disk: cannot mount a small tmpfs here ({mounted.stderr.strip()})", flush=True)
        return
    try:
        d = os.path.join(disk, "run")
        code, out, err = mpirun(a, 2, [scene, "--steps", "40", "--snapshot-every", "20", "--out", d, "--quiet"],
                                timeout=120)
        lines = [l for l in err.splitlines() if l.startswith("puddle run:")]
        check(code != 0 and len(lines) == 1 and "snap_000040.pdls" in lines[0] and "No space left on device" in lines[0],
              f"full disk at frame 40: exit {code}, said once: {lines}")
        snaps = os.path.join(d, "snapshots")
        left = sorted(os.listdir(snaps)) if os.path.isdir(snaps) else []
        check(left == ["snap_000020.pdls"], f"on the full disk: {left} (the frame-20 snapshot, no temporary)")
        # the one left is whole: the same bytes as one process writes at frame 20 elsewhere
        ref = os.path.join(tmp, "reference")
        code, _, _ = mpirun(a, 1, [scene, "--steps", "20", "--snapshot-every", "20", "--out", ref, "--quiet"])
        same = code == 0 and open(os.path.join(snaps, "snap_000020.pdls"), "rb").read() == \
            open(os.path.join(ref, "snapshots/snap_000020.pdls"), "rb").read()
        check(same, "the snapshot before the full disk is intact (byte for byte one process's)")
    finally:
        subprocess.run(["umount", disk])


def damaged_snapshot(a, tmp, scene):
    d = os.path.join(tmp, "damaged")
    code, _, _ = mpirun(a, 2, [scene, "--steps", "10", "--snapshot-every", "10", "--out", d, "--quiet"])
    snap = os.path.join(d, "snapshots/snap_000010.pdls")
    data = bytearray(open(snap, "rb").read())
    data[len(data) // 2] ^= 0xff
    bad = os.path.join(d, "bad.pdls")
    open(bad, "wb").write(bytes(data))
    code, out, err = mpirun(a, 3, [scene, "--steps", "20", "--resume", bad, "--out", d, "--quiet"], timeout=120)
    lines = [l for l in err.splitlines() if l.startswith("puddle run:")]
    check(code == 2 and len(lines) == 1 and "checksum" in lines[0],
          f"a damaged snapshot to --resume: exit {code} (want 2), said once: {lines}")


def lost_in_one_part(a, tmp):
    # no container and gravity along +x: the fluid slides out of world.bounds on the right, which
    # is the last process's slab (NaN particles go there too)
    path = os.path.join(tmp, "edge.json")
    with open(path, "w") as f:
        json.dump({"name": "edge", "world": {"gravity": [10, 0], "dt": 1 / 60, "substeps": 2,
                                             "bounds": {"min": [-20, -10], "max": [20, 10]}},
                   "solver": {"interaction_radius": 1},
                   "materials": [{"name": "water", "rest_density": 4, "stiffness": 60, "near_stiffness": 30}],
                   "fills": [{"shape": "box", "material": "water", "position": [10, 0], "half_extents": [8, 3]}]}, f)
    counts = {}
    for n in (1, 3):
        code, out, err = mpirun(a, n, [path, "--steps", "60", "--out", os.path.join(tmp, "edge"), "--quiet"],
                                timeout=120)
        lines = [l for l in err.splitlines() if l.startswith("puddle run:")]
        said = re.match(r"puddle run: (\d+) particles lost \(left world.bounds or became NaN; (\d+) on process "
                        rf"{n - 1}\): the scene is unstable$", lines[0]) if len(lines) == 1 else None
        check(code == 1 and said is not None and said.group(1) == said.group(2),
              f"-np {n}: particles lost in process {n - 1}'s part: exit {code}, said {lines}")
        counts[n] = said.group(1) if said else None
    check(counts[1] is not None and counts[1] == counts[3], f"lost on 1 and 3 processes: {counts}")


def main():
    a = arguments()
    tmp = tempfile.mkdtemp(prefix="puddle_mpi_failure_")
    scene = clavet_scene(a, "dam-break", tmp)
    try:
        killed_rank(a, tmp, scene)
        full_disk(a, tmp, scene)
        damaged_snapshot(a, tmp, scene)
        lost_in_one_part(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
