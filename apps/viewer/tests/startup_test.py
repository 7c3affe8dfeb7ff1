#!/usr/bin/env python3
"""puddle-view must fail at once, loudly, when it cannot start: no display, a bad scene, no
OpenGL 3.3 context. Each case runs the viewer with a time limit and checks that it exits within
a few seconds, with a non-zero status and a message on stderr that names the cause. (Without a
display SDL 2 once fell back to its windowless "offscreen" driver and the viewer ran invisibly,
silently, at full CPU until killed.)

    startup_test.py --viewer build/apps/viewer/puddle-view --work DIR CASE

CASE is one of: nodisplay, baddriver, emptydriver, badscene, nogl (SDL's dummy driver has no OpenGL), oldgl
(OpenGL 2.1 only, through Mesa's MESA_GL_VERSION_OVERRIDE; run it under xvfb-run).
Only the Python standard library is used.
"""
import argparse
import os
import subprocess
import sys
import time

from viewer_test import Failure, check  # the end-to-end tests' helpers, same folder

LIMIT = 20  # seconds the viewer may take before the test calls it a hang
QUICK = 10  # seconds within which a failure to start must be reported


def run_viewer(viewer, args, env_changes, unset=()):
    env = dict(os.environ)
    for name in unset:
        env.pop(name, None)
    env.update(env_changes)
    start = time.monotonic()
    try:
        done = subprocess.run([viewer, *args], env=env, capture_output=True, text=True,
                              timeout=LIMIT)
    except subprocess.TimeoutExpired:
        raise Failure(f"{' '.join(args)} still running after {LIMIT} s (it must fail at once)")
    seconds = time.monotonic() - start
    print(f"exit {done.returncode} after {seconds:.2f} s; stderr:\n{done.stderr.strip()}")
    return done, seconds


def expect_failure(viewer, name, args, env_changes, causes, unset=()):
    done, seconds = run_viewer(viewer, args, env_changes, unset)
    check(seconds < QUICK, f"{name}: gives up within {QUICK} s ({seconds:.2f} s)")
    check(done.returncode != 0, f"{name}: exits non-zero ({done.returncode})")
    check(done.stderr.startswith("puddle-view: ") or "\npuddle-view: " in done.stderr,
          f"{name}: says so on stderr")
    for cause in causes:
        check(cause in done.stderr, f"{name}: stderr names '{cause}'")


NO_DISPLAY = ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")


def case_nodisplay(viewer, work):
    # no --frames: the broken viewer never stopped
    expect_failure(viewer, "nodisplay", ["blobs"], {},
                   ["no display", "x11", "xvfb-run -a", "SDL_VIDEODRIVER=offscreen"],
                   unset=NO_DISPLAY)


def case_baddriver(viewer, work):
    expect_failure(viewer, "baddriver", ["blobs"], {"SDL_VIDEODRIVER": "x11"},
                   ["SDL_VIDEODRIVER=x11", "x11 not available", "xvfb-run -a"],
                   unset=NO_DISPLAY)


def case_badscene(viewer, work):
    os.makedirs(work, exist_ok=True)
    broken = os.path.join(work, "broken.json")
    with open(broken, "w") as f:
        f.write('{"name": "broken",\n')
    missing = os.path.join(work, "missing.json")
    # the scene is read before any window opens: no display is needed to say it is bad
    expect_failure(viewer, "badscene (name)", ["no-such-scene"], {}, ["no-such-scene"],
                   unset=NO_DISPLAY)
    expect_failure(viewer, "badscene (broken file)", [broken], {},
                   [broken, "invalid JSON"], unset=NO_DISPLAY)
    expect_failure(viewer, "badscene (missing file)", [missing], {},
                   [missing, "cannot open"], unset=NO_DISPLAY)


def case_nogl(viewer, work):
    expect_failure(viewer, "nogl", ["blobs"], {"SDL_VIDEODRIVER": "dummy"},
                   ["dummy", "OpenGL"], unset=("DISPLAY", "WAYLAND_DISPLAY"))


def case_oldgl(viewer, work):
    if not os.environ.get("DISPLAY"):
        raise Failure("oldgl needs a display: run it under xvfb-run")
    expect_failure(viewer, "oldgl", ["blobs"],
                   {"MESA_GL_VERSION_OVERRIDE": "2.1", "LIBGL_ALWAYS_SOFTWARE": "1"},
                   ["no OpenGL 3.3 core context"], unset=("SDL_VIDEODRIVER",))

def case_emptydriver(viewer, work):
    # SDL_VIDEODRIVER set but empty: SDL takes the empty variable over the viewer's choice of
    # driver and fell back to "offscreen", and the viewer ran invisibly until killed (issue 41)
    expect_failure(viewer, "emptydriver", ["blobs"], {"SDL_VIDEODRIVER": ""},
                   ["no display", "x11", "xvfb-run -a"], unset=NO_DISPLAY)


CASES = {"nodisplay": case_nodisplay, "baddriver": case_baddriver, "badscene": case_badscene,
         "nogl": case_nogl, "oldgl": case_oldgl, "emptydriver": case_emptydriver}


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--viewer", required=True)
    p.add_argument("--work", required=True)
    p.add_argument("case", choices=sorted(CASES))
    a = p.parse_args()
    try:
        CASES[a.case](a.viewer, a.work)
    except Failure as e:
        print("FAIL:", e)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
