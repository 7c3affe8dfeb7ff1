#!/usr/bin/env python3
"""Hostile input and faults end to end (label cli): names that try to be paths, numbers that
overflow or vanish in float, writes that fail part way (an LD_PRELOAD shim, io_fault.so), signals
in the middle of long work. Each case runs in a fresh temporary folder.

Usage: test_faults.py PUDDLE SCENES_DIR [--shim io_fault.so] [--long] [TEST_NAME...]
(default: every test; --long: the fault-injection sweep at every k instead of a few)"""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree

args = sys.argv[1:]
PUDDLE, SCENES = os.path.abspath(args[0]), os.path.abspath(args[1])
args = args[2:]
SHIM = None
LONG = False
if "--shim" in args:
    i = args.index("--shim")
    SHIM = os.path.abspath(args[i + 1])
    del args[i:i + 2]
if "--long" in args:
    LONG = True
    args.remove("--long")
failures = []
# how much longer work takes under the sanitizers (make test-asan sets PUDDLE_TEST_QUICK)
SLOWER = 10 if os.environ.get("PUDDLE_TEST_QUICK") else 1


def run(*argv, cwd=None, env=None, timeout=120):
    p = subprocess.run([PUDDLE, *argv], capture_output=True, text=True, cwd=cwd, env=env, timeout=timeout,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout, p.stderr


def check(cond, what):
    if not cond:
        failures.append(what)
        print("  FAILED:", what)
    return cond


def scene(base, **changes):
    """A shipped scene as a dict, with top-level keys replaced."""
    with open(os.path.join(SCENES, base + ".json")) as f:
        s = json.load(f)
    s.update(changes)
    return s


def write_scene(path, s):
    with open(path, "w") as f:
        json.dump(s, f)
    return path


def all_files(root):
    found = []
    for d, _, files in os.walk(root):
        found += [os.path.join(d, f) for f in files]
    return sorted(found)


# ---- names never become paths ------------------------------------------------------------------

def test_names(work):
    cwd = os.path.join(work, "a", "b")
    os.makedirs(cwd)
    small = ["--steps", "1", "--size", "32x32", "--particles", "200", "--quiet"]
    for name in ("../../esc", "/tmp/puddle-escape-" + str(os.getpid()), "..", "x/../../../y"):
        path = write_scene(os.path.join(work, "s.json"), scene("drop", name=name))
        rc, out, err = run("run", path, "--vtk", *small, cwd=cwd)
        check(rc == 0, f"name {name!r}: {rc} {err!r}")
        made = all_files(work)
        expected = {os.path.join(cwd, "out", "s", f) for f in ("final.png", "s.pvd", "vtk/frame_000000.vtp",
                                                               "vtk/frame_000001.vtp")}
        check(set(made) - {path} == expected, f"name {name!r} wrote {sorted(set(made) - {path} - expected)}")
        if name.startswith("/"):
            check(not os.path.exists(name), f"name {name!r}: a folder under the name")
            shutil.rmtree(name, ignore_errors=True)
        shutil.rmtree(os.path.join(cwd, "out"))
    # control characters in the name are refused (they would rewrite the terminal)
    path = write_scene(os.path.join(work, "c.json"), scene("drop", name="a\x1b[2Jb"))
    rc, out, err = run("run", path, *small, cwd=cwd)
    check(rc == 2 and "c.json: name: must not contain control characters, got byte 0x1b at 1" in err,
          f"control character: {rc} {err!r}")
    check(not os.path.exists(os.path.join(cwd, "out")), "a refused name made its folder")
    # the file's own name is sanitised: dots, control characters, spaces
    for stem, folder in (("..", "_."), ("a\x01b c", "a_b_c"), (".hidden", "_hidden")):
        path = write_scene(os.path.join(work, stem + ".json"), scene("drop"))
        rc, out, err = run("run", path, *small, cwd=cwd)
        check(rc == 0 and os.path.exists(os.path.join(cwd, "out", folder, "final.png")),
              f"file {stem!r}: {rc} {err!r} {os.listdir(os.path.join(cwd, 'out')) if os.path.isdir(os.path.join(cwd, 'out')) else None}")
        shutil.rmtree(os.path.join(cwd, "out"), ignore_errors=True)


# ---- numbers: overflowing counts, values below float range, bodies too light ----------------------

EMITTER_2D = {"materials": [{"name": "water"}], "container": {"shape": "box", "half_extents": [10, 6]},
              "emitters": [{"position": [0, 0], "velocity": [0, -1], "width": 1e9, "stop": 1}]}
EMITTER_3D = {"world": {"dimensions": 3}, "materials": [{"name": "water"}],
              "container": {"shape": "box", "half_extents": [10, 6, 6]},
              "emitters": [{"position": [0, 0, 0], "velocity": [0, -1, 0], "width": 25000, "stop": 1}]}


def refused(work, s, message, commands=("validate", "info", "run")):
    """Every command refuses the scene with exit 2, the message naming file, key and rule, and
    run writes nothing."""
    path = write_scene(os.path.join(work, "x.json"), s)
    for command in commands:
        extra = ["--out", os.path.join(work, "out")] if command == "run" else []
        rc, out, err = run(command, path, *extra, timeout=30)
        check(rc == 2 and (path + ": " + message) in err, f"{command} {message!r}: {rc} {err.strip()!r}")
    check(not os.path.exists(os.path.join(work, "out")), f"{message!r}: the refused run wrote")


def test_numbers(work):
    # emitter widths that overflowed int (UBSan; "about -21474836470 in all" was accepted)
    refused(work, EMITTER_2D, "emitters[0].width: makes rows of about 2.84e+09 particles, more than "
                              "solver.max_particles = 1000000, got 1e+09")
    refused(work, EMITTER_3D, "emitters[0].width: makes rows of about 2.52e+09 particles, more than "
                              "solver.max_particles = 1000000, got 25000")
    s = json.loads(json.dumps(EMITTER_3D))
    s["emitters"][0].update(width=30, stop=100)
    refused(work, s, "emitters[0]: would make about 1.04e+06 particles in all, more than solver.max_particles = 1000000")
    # a 3D body too light to simulate is refused, by name (it turned every particle NaN)
    s = scene("boats-3d")
    s["bodies"][1]["density"] = 1e-30
    refused(work, s, "bodies[1].density: must be >= 1e-06 in a 3D scene (a lighter body is flung until its speed "
                     "overflows float), got 1e-30")
    # the bound itself, written as the message writes it, is taken (stored as a float, 1e-6 was
    # refused as "must be >= 1e-06, got 1e-06")
    s["bodies"][1]["density"] = 1e-6
    rc, out, err = run("validate", write_scene(os.path.join(work, "x.json"), s))
    check(rc == 0 and "valid; 3D" in out, f"a body of density 1e-6 (the bound): {rc} {err.strip()!r}")
    # an emitter's frame of 91,204 particles in 3D is added at once (each particle worked out the
    # material's rest spacing again: 13 s the frame, 0.1 s now)
    s = json.loads(json.dumps(EMITTER_3D))
    s["solver"] = {"max_particles": 200000}
    s["container"]["half_extents"] = [100, 60, 100]
    s["emitters"][0].update(width=150, stop=0.02)
    started = time.monotonic()
    rc, out, err = run("run", write_scene(os.path.join(work, "e.json"), s), "--steps", "1", "--size", "16x16",
                       "--threads", "1", "--out", os.path.join(work, "e"), timeout=120)
    took = time.monotonic() - started
    check(rc == 0 and "particles          91204" in out and took < 3 * SLOWER,
          f"a 3D emitter's frame of 91,204 particles: {rc} in {took:.1f} s, {err.strip()!r}")
    # values below float range where the rule is > 0 (stored as 0 before)
    for section, key, rule in (("output", "seconds", "must be in (0, 86400]"), ("output", "threshold", "must be in (0, 4]"),
                               ("output", "fps", "must be in (0, 240]"), ("world", "dt", "must be in (0, 1]")):
        s = scene("drop")
        s[section][key] = 1e-300
        refused(work, s, f"{section}.{key}: {rule} and at least 1.17549e-38 (the smallest normal float), got 1e-300")
    s = scene("drop")
    s["strokes"] = [{"end": 1, "points": [[0, 0]], "radius": 1e-40}]
    refused(work, s, "strokes[0].radius: must be > 0 and at least 1.17549e-38 (the smallest normal float), got 1e-40")
    s = scene("drop")
    s["fills"][0]["half_extents"] = [18, 1e-300]
    refused(work, s, "fills[0].half_extents[1]: must be > 0 and at least 1.17549e-38 (the smallest normal float), "
                     "got 1e-300")


# ---- a full disk at the k-th write call, for every output kind ------------------------------------

SMALL_2D = ["--particles", "300", "--size", "48x32", "--threads", "1"]
SMALL_3D = ["--particles", "800", "--size", "48x32", "--threads", "1"]
# (name, scene, options): every output kind of puddle run, each alone, so that a failure names it
KINDS = [
    ("png", "drop", ["--steps", "6", "--png-every", "3"] + SMALL_2D),
    ("video", "drop", ["--steps", "12", "--video", "VIDEO"] + SMALL_2D),
    ("vtk", "float", ["--steps", "6", "--vtk", "--export-every", "3"] + SMALL_2D),
    ("ply", "drop", ["--steps", "6", "--ply", "--export-every", "3"] + SMALL_2D),
    ("csv", "float", ["--steps", "6", "--csv", "--export-every", "3"] + SMALL_2D),
    ("surface", "drop", ["--steps", "6", "--surface", "--export-every", "3"] + SMALL_2D),
    ("surface-3d", "drop-3d", ["--steps", "2", "--surface-obj", "--export-every", "2"] + SMALL_3D),
    ("vdb", "drop-3d", ["--steps", "2", "--vdb", "--export-every", "2"] + SMALL_3D),
    ("snapshot", "drop", ["--steps", "12", "--snapshot-every", "3"] + SMALL_2D),
]


def fault_env(work, at=None, extra=None):
    e = dict(os.environ, LD_PRELOAD=SHIM, IO_FAULT_PATH=os.path.join(work, "f"),
             ASAN_OPTIONS=os.environ.get("ASAN_OPTIONS", "") + ":verify_asan_link_order=0")
    if at is not None:
        e["IO_FAULT_AT"] = str(at)
    e.update(extra or {})
    return e


def faulty_run(work, name, options, at=None, extra=None, quiet=True):
    """puddle run of scenes/name.json into work/f/d (the video at work/f/v.mp4) under the shim."""
    opts = [work + "/f/v.mp4" if o == "VIDEO" else o for o in options]
    return run("run", os.path.join(SCENES, name + ".json"), *opts, "--out", os.path.join(work, "f", "d"),
               *(["--quiet"] if quiet else []), env=fault_env(work, at, extra), timeout=120)


def files_of(root):
    """{path relative to root: bytes} of every file below root."""
    out = {}
    for path in all_files(root):
        with open(path, "rb") as f:
            out[os.path.relpath(path, root)] = f.read()
    return out


def state_hash(out):
    for line in out.splitlines():
        if line.strip().startswith("state hash"):
            return line.split()[-1]
    return None


def same_file(path, data, reference):
    """Whether a file a failed run left is whole: the fault-free run's bytes; a .pvd lists the
    frames written so far (a whole XML document, shorter); a .vdb has a random UUID in its
    header (the same size)."""
    if reference is None:
        return False
    if path.endswith(".pvd"):
        try:
            return xml.etree.ElementTree.fromstring(data) is not None
        except Exception:
            return False
    if path.endswith(".vdb"):
        return len(data) == len(reference)
    return data == reference


def sweep(work, kind, name, options):
    f = os.path.join(work, "f")
    count_file = os.path.join(work, "calls")
    shutil.rmtree(f, ignore_errors=True)
    os.makedirs(f)
    if os.path.exists(count_file):
        os.remove(count_file)
    rc, out, err = faulty_run(work, name, options, extra={"IO_FAULT_COUNT": count_file}, quiet=False)
    if not check(rc == 0, f"{kind}: the fault-free run: {rc} {err!r}"):
        return
    reference, straight = files_of(f), state_hash(out)
    with open(count_file) as c:
        calls = max(int(line.split()[1]) for line in c)
    # the short sweep: the first call, one in the middle, the last; --long: every call, or 200
    # spread over them where there are more (a 3D surface frame is tens of thousands of fprintf)
    if LONG:
        ks = sorted({1 + (calls - 1) * i // 199 for i in range(200)}) if calls > 200 else range(1, calls + 1)
    else:
        ks = sorted({1, (calls + 1) // 2, calls})
    print(f"  {kind}: {calls} write calls, failing at {len(ks)} of them")
    for k in ks:
        shutil.rmtree(f)
        os.makedirs(f)
        rc, out, err = faulty_run(work, name, options, at=k)
        what = f"{kind} at write {k} of {calls}"
        check(rc == 1, f"{what}: exit {rc}, {err!r}")
        err = err.strip()
        check("\n" not in err and err.startswith("puddle run: ") and (" " + f + "/") in err and
              "No space left on device" in err, f"{what}: message {err!r}")
        left = files_of(f)
        temporary = [p for p in left if ".tmp." in p or "ffmpeg-log" in p]
        check(not temporary, f"{what}: temporary files left: {temporary}")
        # nothing partial under a real name: whatever is there is the fault-free run's file
        partial = [p for p, data in left.items() if p not in temporary and not same_file(p, data, reference.get(p))]
        check(not partial, f"{what}: files unlike the fault-free run's: {partial}")
        snaps = sorted(p for p in left if p.endswith(".pdls"))
        if snaps and kind == "snapshot":
            # the last complete snapshot resumes to the uninterrupted run's state, bitwise
            resumed = os.path.join(work, "resumed")
            rc, out, err = run("run", os.path.join(SCENES, name + ".json"), *options, "--resume",
                               os.path.join(f, snaps[-1]), "--out", resumed)
            check(rc == 0 and state_hash(out) == straight,
                  f"{what}: resumed from {snaps[-1]}: {rc} {state_hash(out)} vs {straight} {err!r}")
            shutil.rmtree(resumed, ignore_errors=True)


def test_full_disk(work):
    if not SHIM:
        return print("  (no --shim io_fault.so given: skipped)")
    for kind, name, options in KINDS:
        if kind == "video" and not shutil.which("ffmpeg"):
            continue
        if kind == "vdb" and os.environ.get("PUDDLE_HAS_VDB", "ON").upper() in ("OFF", "0", "FALSE", ""):
            continue
        sweep(work, kind, name, options)


def test_real_disk(work):
    """The issue's own commands on a real full disk, a 1 MB tmpfs (skipped where this user may not
    mount one): the shim above fails puddle's and ffmpeg's writes, but not the ffmpeg log's that
    a real full disk fails too, so the video's message lost its reason there."""
    disk = os.path.join(work, "disk")
    os.makedirs(disk)
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", "size=1m", "tmpfs", disk], capture_output=True, text=True)
    if mounted.returncode != 0:
        return print(f"  (cannot mount a small tmpfs here: skipped: {mounted.stderr.strip()})")
    try:
        if shutil.which("ffmpeg"):
            # 4 kB left: frames fit in ffmpeg's buffers, its trailer does not (ffmpeg 5.1 exits 0)
            with open(os.path.join(disk, "fill"), "wb") as f:
                f.write(bytes(1020 * 1024))
            video = os.path.join(disk, "v.mp4")
            rc, out, err = run("run", os.path.join(SCENES, "drop.json"), "--steps", "30", "--size", "320x240",
                               "--particles", "300", "--threads", "1", "--video", video, "--out",
                               os.path.join(work, "o"), "--quiet", timeout=60)
            check(rc == 1 and err.startswith(f"puddle run: ffmpeg failed writing {video}: ") and err.count("\n") == 1
                  and "No space left on device" in err, f"video on a full disk: {rc} {err!r}")
            check(os.listdir(disk) == ["fill"], f"video on a full disk: left {os.listdir(disk)}")
            os.remove(os.path.join(disk, "fill"))
        if os.environ.get("PUDDLE_HAS_VDB", "ON").upper() not in ("OFF", "0", "FALSE", ""):
            # 280 kB a frame: the fourth does not fit; the three before stay, whole
            vdb = ["--particles", "3000", "--steps", "30", "--vdb", "--export-every", "1", "--size", "32x32", "--quiet"]
            rc, out, err = run("run", os.path.join(SCENES, "drop-3d.json"), *vdb, "--out", os.path.join(disk, "d"),
                               timeout=60)
            frames = os.path.join(disk, "d", "vdb")
            left = sorted(os.listdir(frames)) if os.path.isdir(frames) else []
            check(rc == 1 and err == f"puddle run: {frames}/frame_{len(left):06d}.vdb: write failed: No space left on "
                                      "device\n", f"VDB on a full disk: {rc} {err!r}, left {left}")
            vdb[3] = str(len(left))
            ref = os.path.join(work, "ref")
            run("run", os.path.join(SCENES, "drop-3d.json"), *vdb, "--out", ref, timeout=60)
            whole = [name for name in left if os.path.getsize(os.path.join(frames, name)) ==
                     os.path.getsize(os.path.join(ref, "vdb", name))]
            check(left and whole == left == [f"frame_{i:06d}.vdb" for i in range(len(left))],
                  f"VDB on a full disk: left {left}, whole {whole}")
    finally:
        subprocess.run(["umount", disk])


def test_messages(work):
    """What point 9 of the faults said was misleading, said as it is."""
    snap_dir = os.path.join(work, "s")
    rc, out, err = run("run", os.path.join(SCENES, "drop.json"), "--steps", "3", "--snapshot-every", "3",
                       "--out", snap_dir, *SMALL_2D, "--quiet")
    snap = os.path.join(snap_dir, "snapshots", "snap_000003.pdls")
    check(rc == 0 and os.path.exists(snap), f"snapshot: {rc} {err!r}")
    resume = ["run", os.path.join(SCENES, "drop.json"), "--steps", "6", *SMALL_2D, "--out", os.path.join(work, "r"),
              "--resume"]
    rc, out, err = run(*resume, os.path.join(snap_dir, "snapshots"))
    check(rc == 2 and "snapshots: is a folder; give one of the snapshot files in it (snap_NNNNNN.pdls)" in err,
          f"--resume DIR: {rc} {err!r}")
    fifo = os.path.join(work, "fifo")
    os.mkfifo(fifo)
    rc, out, err = run(*resume, fifo, timeout=20)
    check(rc == 2 and "fifo: is not a regular file (a pipe, device or socket); give a snapshot file" in err,
          f"--resume FIFO: {rc} {err!r}")
    with open(snap, "rb") as f:
        data = bytearray(f.read())
    bad = os.path.join(work, "bad.pdls")
    size = bytes(data[16:24])
    data[16:24] = (1 << 40).to_bytes(8, "little")  # the payload size field: 1 TiB
    with open(bad, "wb") as f:
        f.write(data)
    rc, out, err = run(*resume, bad)
    check(rc == 2 and f"bad.pdls: truncated snapshot: {len(data) - 40} of 1099511627776 payload bytes present" in err,
          f"payload size 1 TiB: {rc} {err!r}")
    data[16:24] = size
    data[35] = 1  # a reserved header byte
    with open(bad, "wb") as f:
        f.write(data)
    rc, out, err = run(*resume, bad)
    check(rc == 2 and "bad.pdls: corrupted snapshot: reserved header bytes 32 to 39 are not 0" in err,
          f"reserved bytes: {rc} {err!r}")
    check(not os.path.exists(os.path.join(work, "r")), "a refused resume made its folder")
    # a backend the machine lacks is bad input for run and bench alike (bench said 1, run 2)
    cuda = write_scene(os.path.join(work, "cuda.json"), scene("drop", solver={"interaction_radius": 1, "backend": "cuda"}))
    ran = [run("run", cuda, "--steps", "1", "--out", os.path.join(work, "c"), *SMALL_2D),
           run("bench", cuda, "--particles", "300", "--steps", "1")]
    codes = [rc for rc, _, _ in ran]
    check(codes in ([2, 2], [0, 0]), f"cuda backend: run and bench exit {codes}")
    # and both say why, naming the file and the key: this build has no CUDA, or this machine no
    # GPU CUDA can use (the CUDA runtime's own words, "driver version is insufficient", read as
    # if a driver update would help, and were all it said)
    reasons = ("this build of puddle has no CUDA (configure with -DPUDDLE_CUDA=ON where nvcc is)",
               "\"cuda\" needs an NVIDIA GPU and its driver, and this machine has none that CUDA can use",
               "no usable CUDA GPU: ")
    for command, (rc, out, err) in zip(("run", "bench"), ran):
        said = [line for line in err.splitlines() if line.startswith(cuda + ": solver.backend: ")]
        check(rc == 0 or (len(said) == 1 and any(r in said[0] for r in reasons) and
                          ("insufficient" not in said[0] or reasons[1] in said[0])),
              f"cuda backend: {command} said {err.strip()!r}")
    # a video into a folder that cannot be written (the shim refuses opens there: as root, a
    # chmod 555 folder is still writable)
    if SHIM and shutil.which("ffmpeg"):
        os.makedirs(os.path.join(work, "f"))
        rc, out, err = faulty_run(work, "drop", ["--steps", "3", "--video", "VIDEO"] + SMALL_2D,
                                  extra={"IO_FAULT_OPEN": "1", "IO_FAULT_PATH": os.path.join(work, "f", "v.mp4")})
        check(rc == 1 and "v.mp4: cannot write the video there: Read-only file system" in err,
              f"--video in a read-only folder: {rc} {err!r}")
        check(not os.listdir(os.path.join(work, "f")) or os.listdir(os.path.join(work, "f")) == ["d"],
              f"read-only video: left {os.listdir(os.path.join(work, 'f'))}")


# ---- SIGINT and SIGTERM within a second, wherever the run is ------------------------------------

def interrupted_run(work, sig, after, args):
    """Starts puddle run, sends sig after `after` seconds, returns (exit status, seconds from the
    signal to the exit, stderr)."""
    p = subprocess.Popen([PUDDLE, "run", *args], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                         stdin=subprocess.DEVNULL)
    # from when puddle run blocks the signals for its watcher (before that, the process is still
    # being loaded, and the default action is the right one)
    started = time.monotonic()
    while time.monotonic() - started < 20:
        try:
            with open(f"/proc/{p.pid}/status") as f:
                blocked = [int(line.split()[1], 16) for line in f if line.startswith("SigBlk:")]
            if blocked and blocked[0] & (1 << (signal.SIGTERM - 1)):
                break
        except OSError:
            break
        time.sleep(0.005)
    time.sleep(after)
    sent = time.monotonic()
    p.send_signal(sig)
    try:
        _, err = p.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        p.kill()
        _, err = p.communicate()
        return "hung", 30, err
    return p.returncode, time.monotonic() - sent, err


# a second, and half a second for the test's own polling and a loaded machine; under the
# sanitizers (make test-asan sets PUDDLE_TEST_QUICK) the exit of a 1.5M-particle process alone,
# unmapping its shadow memory, takes about a second more
LATE = 3.0 if os.environ.get("PUDDLE_TEST_QUICK") else 1.5


def test_signals(work):
    # a 1.5-million-particle run: the signal lands in the build, the first step or a VTK write,
    # none of which returns to the frame loop within a second
    big = [os.path.join(SCENES, "dam-break.json"), "--particles", "1500000", "--steps", "4", "--vtk", "--threads", "1",
           "--size", "64x32", "--quiet"]
    for sig, after in ((signal.SIGTERM, 0.2), (signal.SIGINT, 0.8), (signal.SIGTERM, 1.6)):
        out = os.path.join(work, f"big-{after}")
        rc, took, err = interrupted_run(work, sig, after, big + ["--out", out])
        what = f"{signal.Signals(sig).name} after {after} s"
        check(rc == 130 and took < LATE and "puddle run: interrupted" in err, f"{what}: exit {rc} {took:.2f} s later, {err!r}")
        left = all_files(out) if os.path.isdir(out) else []
        check(not [p for p in left if ".tmp." in p], f"{what}: temporary files left: {left}")
        # finished frames are whole (a fast machine writes the first frame, 85 MB, before the
        # signal at 1.6 s: ElementTree's C parser reads it in 4 s, minidom took over 200)
        for path in left:
            try:
                whole = xml.etree.ElementTree.parse(path) is not None
            except xml.etree.ElementTree.ParseError:
                whole = False
            check(whole, f"{what}: {path} is not whole")
    # a video between frames: ffmpeg stopped, no video under its name, no temporary
    if shutil.which("ffmpeg"):
        video = os.path.join(work, "v.mp4")
        rc, took, err = interrupted_run(work, signal.SIGINT, 1.0,
                                        [os.path.join(SCENES, "drop.json"), "--steps", "100000", "--video", video,
                                         "--out", os.path.join(work, "v")] + SMALL_2D)
        check(rc == 130 and took < LATE and "puddle run: interrupted" in err, f"video: {rc} {took:.2f} s {err!r}")
        check(os.listdir(work) == ["v"] or sorted(os.listdir(work)) == sorted(["v"] + [d for d in os.listdir(work)
                                                                               if d.startswith("big-")]),
              f"video: left {os.listdir(work)}")


TESTS = [test_names, test_numbers, test_messages, test_full_disk, test_real_disk, test_signals]


def main():
    chosen = [t for t in TESTS if not args or t.__name__ in args]
    for t in chosen:
        print(t.__name__)
        sys.stdout.flush()
        work = tempfile.mkdtemp(prefix="puddle_faults_")
        try:
            t(work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
    print("PASS" if not failures else f"{len(failures)} FAILED")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
