#!/usr/bin/env python3
"""SIGINT and SIGTERM under mpirun (issue 39 point 6): every process stops within a second wherever
the run is, and cleanly. For 2 and 3 processes a signal lands

  - in the fill or frame 0's files (each process builds 3M particles and writes them as VTK),
    sent to every process as mpirun forwards one;
  - in a long frame (300k particles of Clavet water at 64 substeps), sent to one process only
    (rank 0 with 2 processes, the last with 3), which must make every process stop;
  - in a collective snapshot (io_fault.so makes each write call on the snapshots sleep), sent to
    every process, and, with 3 processes, as Ctrl-C to mpirun itself, which sends SIGTERM to every
    process a second later and then exits 1 whatever they do (Open MPI's choice).

Each case asserts: the job ends (a timeout, not a timing), exit status 130 (1 when mpirun took the
signal), "puddle run: interrupted" said once (at most once when mpirun took the signal: it may drop
what the processes print as it ends the job), no temporary file left and every file under a real
name whole.

    mpi_signal_test.py --puddle build/apps/cli/puddle --scenes scenes --mpirun mpirun --shim io_fault.so
"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.dom.minidom

from mpi_common import arguments, check, clavet_scene, mpirun_command, plain, summary

a = arguments()
work = tempfile.mkdtemp(prefix="puddle_mpi_signal_")
scene = os.path.join(a.scenes, "dam-break.json")


def long_frame_scene():
    """dam-break with Clavet's water at 64 substeps a frame (the most a scene may ask): a frame of
    300k particles then takes seconds on any machine, so the signal lands inside frame 1 by
    construction, not by how fast the machine steps DFSPH's one substep."""
    path = clavet_scene(a, "dam-break", work)
    with open(path) as f:
        s = json.load(f)
    s["world"]["substeps"] = 64
    out = os.path.join(work, "long-frame", "dam-break.json")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    with open(out, "w") as f:
        json.dump(s, f)
    return out
ENDS = 20  # seconds the job may take to end after the signal before it counts as hung


def children(pid):
    """The processes mpirun started (its children), by rank."""
    ranks = {}
    for d in os.listdir("/proc"):
        if not d.isdigit():
            continue
        try:
            with open(f"/proc/{d}/stat") as f:
                if int(f.read().rsplit(")", 1)[1].split()[1]) != pid:
                    continue
            with open(f"/proc/{d}/environ", "rb") as f:
                env = dict(e.split(b"=", 1) for e in f.read().split(b"\0") if b"=" in e)
            if b"OMPI_COMM_WORLD_RANK" in env:
                ranks[int(env[b"OMPI_COMM_WORLD_RANK"])] = int(d)
        except (OSError, ValueError, IndexError):
            pass
    return ranks


def blocks_term(pid):
    """Whether the process blocks SIGTERM (puddle's watcher takes it from then on)."""
    try:
        with open(f"/proc/{pid}/status") as f:
            return any(line.startswith("SigBlk:") and int(line.split()[1], 16) & (1 << (signal.SIGTERM - 1))
                       for line in f)
    except OSError:
        return False


def files_under(root):
    return sorted(os.path.relpath(os.path.join(d, n), root) for d, _, names in os.walk(root) for n in names)


def interrupted(what, n, args, ready, sig, target, env=None, exports=()):
    """Starts mpirun -np n puddle run ARGS, waits until ready() is true, sends sig to target
    ("all": every process, as mpirun forwards a signal; "mpirun"; or a rank), and returns
    (exit status or "hung", stderr)."""
    cmd = mpirun_command(a, n, args)
    cmd = cmd[:1] + sum((["-x", e] for e in exports), []) + cmd[1:]
    p = subprocess.Popen(cmd, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         env=env)
    started = time.monotonic()
    ranks = {}
    # every process started and past loading (it blocks the signals for its watcher; before, a
    # signal ends it as any program; loading Open MPI takes over a second on a loaded machine. A
    # build without the watcher never blocks them, so at most 4 s)
    while time.monotonic() - started < 60 and p.poll() is None:
        ranks = children(p.pid)
        if len(ranks) == n and (all(blocks_term(q) for q in ranks.values()) or time.monotonic() - started > 4):
            break
        time.sleep(0.01)
    while time.monotonic() - started < 120 and p.poll() is None and not ready():
        time.sleep(0.01)
    landed = p.poll() is None
    check(landed and len(ranks) == n, f"{what}: the run was still going when signalled ({len(ranks)} processes)")
    targets = list(ranks.values()) if target == "all" else [p.pid] if target == "mpirun" else [ranks.get(target)]
    for q in targets:
        try:
            os.kill(q, sig)
        except (OSError, TypeError):
            pass
    try:
        _, err = p.communicate(timeout=ENDS)
    except subprocess.TimeoutExpired:
        p.kill()
        for q in ranks.values():
            try:
                os.kill(q, signal.SIGKILL)
            except OSError:
                pass
        _, err = p.communicate()
        return "hung", err
    return p.returncode, err


def expect(what, code, err, out, want=130):
    """want 1: mpirun itself took the signal; it exits 1 and may drop what the processes print
    as it tears the job down, so the message is not required then."""
    said = [line for line in err.splitlines() if line.startswith("puddle run: ")]
    check(code == want, f"{what}: exit {code} ({want} expected, within {ENDS} s)")
    only_interrupted = all(line.startswith("puddle run: interrupted") for line in said)
    check(only_interrupted and len(said) in ((0, 1) if want == 1 else (1,)), f"{what}: said {said!r}, {err[-600:]!r}")
    left = files_under(out) if os.path.isdir(out) else []
    check(not [f for f in left if ".tmp." in f], f"{what}: no temporary file left: {left}")
    return left


def whole_vtk(what, out, left):
    for f in left:
        if f.endswith(".vtp") or f.endswith(".pvtp") or f.endswith(".pvd"):
            try:
                xml.dom.minidom.parse(os.path.join(out, f))
            except Exception as e:  # noqa: BLE001 -- any parse error is a partial file
                check(False, f"{what}: {f} is not whole: {e}")


def whole_snapshots(what, out, left):
    """Every snapshot under a real name resumes (plain puddle run reads them)."""
    for f in left:
        if f.endswith(".pdls"):
            code, _, err = plain(a, [scene, "--particles", "20000", "--steps", "2", "--quiet", "--resume",
                                     os.path.join(out, f), "--out", os.path.join(work, "resumed")])
            check(code == 0, f"{what}: {f} does not resume: exit {code}, {err[-300:]!r}")


def after(seconds, condition=lambda: True):
    """A condition that holds from `seconds` after `condition` first held."""
    since = []

    def ready():
        if not since and condition():
            since.append(time.monotonic())
        return bool(since) and time.monotonic() - since[0] >= seconds
    return ready


def exists(path):
    return lambda: os.path.exists(path)


def temporary_in(folder):
    return lambda: os.path.isdir(folder) and any(".tmp." in f for f in os.listdir(folder))


try:
    for n in (2, 3):
        # the fill and frame 0's files: 3M particles that every process builds (half a second)
        # and writes as VTK (seconds); the signal 0.3 s after loading, before frame 0 is whole
        out = os.path.join(work, f"fill-{n}")
        args = [scene, "--particles", "3000000", "--steps", "2", "--threads", "1", "--vtk", "--export-every", "1",
                "--out", out]
        early, frame_0 = after(0.3), exists(os.path.join(out, "vtk", "frame_000000.pvtp"))
        when = {}  # whether frame 0 was whole when the signal went

        def fill_ready():
            if not early():
                return False
            when["frame 0 whole"] = frame_0()
            return True
        code, err = interrupted(f"-np {n} fill", n, args, fill_ready, signal.SIGTERM, "all")
        check(when.get("frame 0 whole") is False, f"-np {n} fill: signalled before frame 0 was whole ({when})")
        whole_vtk(f"-np {n} fill", out, expect(f"-np {n} fill, SIGTERM to every process", code, err, out))

        # a long frame: frame 0 written, frame 1 being stepped (half a second in); one process
        # signalled
        out = os.path.join(work, f"frame-{n}")
        args = [long_frame_scene(), "--particles", "300000", "--steps", "3", "--threads", "1", "--vtk", "--export-every", "1",
                "--out", out]
        alone = 0 if n == 2 else n - 1
        what = f"-np {n} long frame, SIGINT to process {alone} alone"
        code, err = interrupted(what, n, args, after(0.5, exists(os.path.join(out, "vtk", "frame_000000.pvtp"))),
                                signal.SIGINT, alone)
        left = expect(what, code, err, out)
        check("vtk/frame_000001.pvtp" not in left, f"{what}: stopped in frame 1, its files not begun: {left}")
        whole_vtk(what, out, left)

        # a collective snapshot, each write call slowed to 0.3 s by the shim
        if a.shim:
            targets = [("all", signal.SIGTERM, 130)] + ([("mpirun", signal.SIGINT, 1)] if n == 3 else [])
            for target, sig, want in targets:
                out = os.path.join(work, f"snap-{n}-{target}")
                env = dict(os.environ, LD_PRELOAD=a.shim, IO_FAULT_PATH=os.path.join(out, "snapshots"),
                           IO_FAULT_DELAY_MS="300")
                args = [scene, "--particles", "20000", "--steps", "50", "--threads", "1", "--snapshot-every", "1",
                        "--out", out]
                what = f"-np {n} snapshot, {signal.Signals(sig).name} to {'every process' if target == 'all' else target}"
                code, err = interrupted(what, n, args, temporary_in(os.path.join(out, "snapshots")), sig, target,
                                        env=env, exports=["LD_PRELOAD", "IO_FAULT_PATH", "IO_FAULT_DELAY_MS"])
                whole_snapshots(what, out, expect(what, code, err, out, want))
finally:
    shutil.rmtree(work, ignore_errors=True)
sys.exit(summary())
