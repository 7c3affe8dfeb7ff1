#!/usr/bin/env python3
"""The viewer's fallback when drawing is slow (main.c, fallback_frame), under llvmpipe:

- forced: with --fallback on and a budget of 1 ms (no frame of 6,000 particles draws that fast
  in software), each window of frames steps the look down one level: the liquid at half, then a
  third of the resolution, then spheres, then spheres at half resolution. The report says four
  changes, level 4, spheres drawn (render mode metaball) at scale 0.5, and the message line says
  why; the frames drawn after it take less time than the full liquid's did, and their rate is
  over a modest floor (MIN_FPS: not a real-time claim, the machine may be busy; docs/viewer.md
  has the measured rates);
- off: with --fallback off the same run keeps the full liquid;
- the lower resolution looks like the full one: a liquid picture drawn at half resolution
  (--scale-3d 0.5) scaled up into the viewport differs from the full resolution's by a
  few levels on average (measured: see the printout), and covers the same water.

    fallback_test.py --viewer build/apps/viewer/puddle-view --work DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_test import check, read_png, run_display_test, run_viewer  # noqa: E402

SCENE = "dam-break-3d-clavet"
BASE = [SCENE, "--particles", "6000", "--threads", "2", "--no-panel", "--render", "liquid"]
# 4 levels down at 13 frames a window (3 skipped, 10 measured), then a window at the last
FRAMES = "66"
MIN_FPS = 2.0


def main(viewer, work):

    # forced down: a 1 ms budget
    report = run_viewer(viewer, BASE + ["--frames", FRAMES, "--fallback", "on", "--frame-budget", "1"],
                        work, "forced")
    fb = report["fallback"]
    print(f"fallback: {fb}; message: {report['message']}")
    check(fb["enabled"], "the fallback is on with --fallback on")
    check(fb["changes"] == 4 and fb["level"] == 4, f"four steps down, to spheres at half resolution: {fb}")
    check(report["render_mode"] == "metaball" and fb["scale_3d"] == 0.5, f"spheres drawn at the end: {report['render_mode']}")
    check("spheres at half resolution" in report["message"] and "over the 1 ms budget" in report["message"],
          f"the message line says so: {report['message']!r}")
    first = fb["first_window_ms"]
    after = fb["window_ms"]
    print(f"draw time a frame: {first:.1f} ms in the full liquid, {after:.1f} ms after the fallback "
          f"({1000 / after:.1f} fps)")
    check(after < first, f"the spheres draw faster than the full liquid: {after:.1f} ms against {first:.1f}")
    check(1000 / after > MIN_FPS, f"the spheres draw over {MIN_FPS} frames/s: {1000 / after:.1f}")

    # off: the look stays
    off = run_viewer(viewer, BASE + ["--frames", "20", "--fallback", "off", "--frame-budget", "1"], work, "off")
    check(not off["fallback"]["enabled"] and off["fallback"]["changes"] == 0, f"no fallback when off: {off['fallback']}")
    check(off["render_mode"] == "liquid", f"the liquid stays: {off['render_mode']}")

    # half resolution against full
    shots = {}
    for name, scale in (("full", "1"), ("half", "0.5")):
        png = os.path.join(work, f"{name}.png")
        r = run_viewer(viewer, BASE + ["--frames", "30", "--scale-3d", scale, "--screenshot", png], work, name)
        check(abs(r["fallback"]["scale_3d"] - float(scale)) < 1e-3, f"{name}: drawn at {scale}")
        shots[name] = read_png(png)[2]
    vx, vy, vw, vh = r["viewport"]
    full, half = shots["full"], shots["half"]
    background = full[vy + 2][vx + 2]
    total = [0, 0, 0]
    n = both = either = 0
    for y in range(vy, vy + vh):
        for x in range(vx, vx + vw):
            p, q = full[y][x], half[y][x]
            for c in range(3):
                total[c] += abs(p[c] - q[c])
            n += 1
            wet_p = sum(abs(u - v) for u, v in zip(p, background)) > 40
            wet_q = sum(abs(u - v) for u, v in zip(q, background)) > 40
            both += wet_p and wet_q
            either += wet_p or wet_q
    mean = [t / n for t in total]
    overlap = both / max(either, 1)
    print(f"half against full resolution: mean difference {mean[0]:.1f}, {mean[1]:.1f}, {mean[2]:.1f} "
          f"of 255; the drawn pixels overlap {100 * overlap:.0f}%")
    check(max(mean) < 12, f"half resolution close to full: {mean}")
    check(overlap > 0.85, f"the same water and scenery: {overlap:.2f}")


if __name__ == "__main__":
    run_display_test(main)
