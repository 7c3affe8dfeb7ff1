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


TESTS = [test_names, test_numbers]


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
