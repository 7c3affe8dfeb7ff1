#!/usr/bin/env python3
"""Diffuse particles in the viewer's 3D liquid look (liquid_gl.c with shaders/liquid/diffuse.vert.glsl):
dam-break-3d at about 6,000 particles, run until its surge has hit the far wall, screenshot with
its spray, foam and bubbles drawn and with --no-diffuse (the fluid is the same bits either way:
they never act on it), then on the two pictures:

- the report counts the diffuse particles, spray and foam among them, and says whether they
  were drawn;
- pixels turn near-white with them (measured in the last picture of a run: see the printout),
  and most of those lie right of the tank's middle, on the far wall's half (yaw 25: the far
  wall, +x, is on the right);
- without them nothing else changes: every pixel that differs between the two is brighter with
  them.

    diffuse_test.py --viewer build/apps/viewer/puddle-view --work DIR
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_test import Failure, check, read_png, run_viewer  # noqa: E402

SCENE = "dam-break-3d"
FRAMES = "110"  # 1.8 s of the scene at 6,000 particles: the surge is at the far wall
# A quarter of the display tests' window (the same 11:7 view): the drawing is most of the test's
# CPU, and the white water still covers a thousand pixels and more of it
WINDOW = "550x350"


def near_white(p):
    return min(p) >= 160 and max(p) - min(p) <= 32


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewer", required=True)
    parser.add_argument("--work", required=True)
    a = parser.parse_args()
    os.makedirs(a.work, exist_ok=True)
    shots = {}
    for name, extra in (("on", []), ("off", ["--no-diffuse"])):
        png = os.path.join(a.work, f"{name}.png")
        report = run_viewer(a.viewer, [SCENE, "--particles", "6000", "--threads", "2", "--frames", FRAMES,
                                       "--no-panel", "--render", "liquid", "--screenshot", png] + extra,
                            a.work, name, WINDOW)
        shots[name] = (read_png(png)[2], report)
    on, report = shots["on"]
    off, report_off = shots["off"]
    d = report["diffuse"]
    print(f"diffuse particles: {d}")
    check(d["drawn"] and not report_off["diffuse"]["drawn"], "drawn with them, not with --no-diffuse")
    check(d == dict(report_off["diffuse"], drawn=True), "the same diffuse particles either way")
    check(d["spray"] + d["foam"] > 100, f"spray and foam at the far wall: {d}")
    vx, vy, vw, vh = report["viewport"]
    middle = vx + vw / 2
    whiter = darker = right = 0
    for y in range(vy, vy + vh):
        for x in range(vx, vx + vw):
            p, q = on[y][x], off[y][x]
            if p == q:
                continue
            if sum(p) < sum(q):
                darker += 1
            if near_white(p) and not near_white(q):
                whiter += 1
                right += x > middle
    print(f"{whiter} pixels turn near-white with the diffuse particles, {right} right of the middle; "
          f"{darker} darker")
    check(whiter >= 100, f"white water drawn: {whiter} pixels turn near-white")
    check(right >= 0.7 * whiter, f"on the far wall's half: {right} of {whiter}")
    check(darker == 0, f"they only whiten: {darker} pixels darker with them")


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print("FAIL:", e)
        sys.exit(1)
