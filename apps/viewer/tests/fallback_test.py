#!/usr/bin/env python3
"""The viewer's fallback when drawing is slow (main.c, fallback_frame), under llvmpipe:

- forced: with --fallback on and a budget of 1 ms (no frame of 6,000 particles draws that fast
  in software), each window of frames steps the look down one level: the liquid at half, then a
  third of the resolution, then spheres, spheres at half resolution, then flat discs at half and
  at a quarter of the resolution. Drawing only (--paused), so that the process's CPU a frame is
  the drawing's. The report says six changes, level 6, discs drawn (render mode metaball, discs)
  at scale 0.25, and the message line says why; each disc level costs less CPU a frame than the
  spheres at half resolution did, the last frames take less wall time than the full liquid's,
  and their rate is over a modest floor (MIN_FPS: not a real-time claim, the machine may be busy;
  docs/viewer.md has the measured rates); the last picture shows the water where the spheres
  at half resolution (--look-level 4) show it;
- off: with --fallback off the same run keeps the full liquid;
- the lower resolution looks like the full one: a liquid picture drawn at half resolution
  (--scale-3d 0.5) scaled up into the viewport differs from the full resolution's by a
  few levels on average (measured: see the printout), and covers the same water.

    fallback_test.py --viewer build/apps/viewer/puddle-view --work DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_test import (REPORT_ONLY, check, check_grown, grown_script, hex_rgb, read_png,  # noqa: E402
                         run_display_test, run_viewer)

SCENE = "dam-break-3d-clavet"
BASE = [SCENE, "--particles", "6000", "--threads", "2", "--no-panel", "--render", "liquid"]
# 6 levels down at 5 frames a window (2 not counted, then 3 each far over the 1 ms budget:
# main.c's FALLBACK_QUICK_FRAMES), then two windows at the last level; the last frame, which
# saves the screenshot (inside its drawing time), is an uncounted one of a third
FRAMES = "41"
LEVELS = 7
MIN_FPS = 2.0
# the scenes' water (the default material's colour)
WATER = hex_rgb("#2a7fd4")


def wet(pixel, background):
    """Drawn over: away from the background colour."""
    return sum(abs(u - v) for u, v in zip(pixel, background)) > 40


def compare(a, b, viewport):
    """The mean difference per channel over the viewport, and how much of what either picture
    draws over the background both draw."""
    vx, vy, vw, vh = viewport
    background = a[vy + 2][vx + 2]
    total = [0, 0, 0]
    n = both = either = 0
    for y in range(vy, vy + vh):
        for x in range(vx, vx + vw):
            p, q = a[y][x], b[y][x]
            for c in range(3):
                total[c] += abs(p[c] - q[c])
            n += 1
            wet_p, wet_q = wet(p, background), wet(q, background)
            both += wet_p and wet_q
            either += wet_p or wet_q
    return [t / n for t in total], both / max(either, 1)


def water_share(rows, viewport):
    """The share of the viewport in the water's hue: blue over red and green as WATER is."""
    vx, vy, vw, vh = viewport
    water = sum(1 for y in range(vy, vy + vh) for x in range(vx, vx + vw)
                if rows[y][x][2] > rows[y][x][0] + 60 and rows[y][x][2] > rows[y][x][1] + 20)
    return water / (vw * vh)


def main(viewer, work):
    check(WATER[2] > WATER[0] + 60 and WATER[2] > WATER[1] + 20, f"water_share's hue is the water's: {WATER}")

    # forced down: a 1 ms budget
    last_png = os.path.join(work, "forced.png")
    report = run_viewer(viewer, BASE + ["--paused", "--frames", FRAMES, "--fallback", "on", "--frame-budget", "1",
                                        "--screenshot", last_png], work, "forced")
    fb = report["fallback"]
    print(f"fallback: {fb}; message: {report['message']}")
    check(fb["enabled"], "the fallback is on with --fallback on")
    check(fb["changes"] == LEVELS - 1 and fb["level"] == LEVELS - 1,
          f"six steps down, to flat discs at a quarter of the resolution: {fb}")
    check(report["render_mode"] == "metaball" and fb["discs"] and fb["scale_3d"] == 0.25,
          f"discs drawn at the end: {report['render_mode']}, {fb}")
    check("flat discs at a quarter of the resolution" in report["message"] and "over the 1 ms budget" in report["message"],
          f"the message line says so: {report['message']!r}")
    levels = fb["levels"]
    for level in range(LEVELS):
        check(levels[level]["window_ms"] > 0 and levels[level]["cpu_ms"] > 0, f"level {level} measured: {levels}")
        print(f"level {level}: {levels[level]['window_ms']:.1f} ms a frame, {levels[level]['cpu_ms']:.1f} ms of CPU")
    spheres = levels[4]["cpu_ms"]
    for level in (5, 6):
        check(levels[level]["cpu_ms"] < spheres,
              f"level {level}'s discs cost less CPU a frame than the spheres at half resolution: "
              f"{levels[level]['cpu_ms']:.1f} against {spheres:.1f} ms")
    first = fb["first_window_ms"]
    after = fb["window_ms"]
    print(f"draw time a frame: {first:.1f} ms in the full liquid, {after:.1f} ms after the fallback "
          f"({1000 / after:.1f} fps)")
    check(after < first, f"the discs draw faster than the full liquid: {after:.1f} ms against {first:.1f}")
    check(1000 / after > MIN_FPS, f"the discs draw over {MIN_FPS} frames/s: {1000 / after:.1f}")

    # the discs show the water the spheres do
    spheres_png = os.path.join(work, "spheres.png")
    r = run_viewer(viewer, BASE + ["--paused", "--frames", "3", "--look-level", "4", "--screenshot", spheres_png],
                   work, "spheres")
    check(r["render_mode"] == "metaball" and not r["fallback"]["discs"], f"spheres at --look-level 4: {r['fallback']}")
    discs, balls = read_png(last_png)[2], read_png(spheres_png)[2]
    share = water_share(discs, r["viewport"])
    _, overlap = compare(balls, discs, r["viewport"])
    print(f"discs: water on {100 * share:.1f}% of the viewport; drawn where the spheres are: {100 * overlap:.0f}%")
    check(share > 0.02, f"the discs show water: {100 * share:.1f}% of the viewport")
    check(overlap > 0.75, f"the discs cover the spheres' water: {overlap:.2f}")

    # off: the look stays
    off = run_viewer(viewer, BASE + ["--frames", "20", "--fallback", "off", "--frame-budget", "1"], work, "off",
                     REPORT_ONLY)
    check(not off["fallback"]["enabled"] and off["fallback"]["changes"] == 0, f"no fallback when off: {off['fallback']}")
    check(off["render_mode"] == "liquid", f"the liquid stays: {off['render_mode']}")

    # half resolution against full (the screenshots drawn at the full size: grown_script)
    shots = {}
    for name, scale in (("full", "1"), ("half", "0.5")):
        png = os.path.join(work, f"{name}.png")
        r = run_viewer(viewer, BASE + ["--frames", "30", "--scale-3d", scale, "--screenshot", png, "--script",
                                       grown_script(work, name, 30)], work, name, REPORT_ONLY)
        check_grown(r, name)
        check(abs(r["fallback"]["scale_3d"] - float(scale)) < 1e-3, f"{name}: drawn at {scale}")
        shots[name] = read_png(png)[2]
    mean, overlap = compare(shots["full"], shots["half"], r["viewport"])
    print(f"half against full resolution: mean difference {mean[0]:.1f}, {mean[1]:.1f}, {mean[2]:.1f} "
          f"of 255; the drawn pixels overlap {100 * overlap:.0f}%")
    check(max(mean) < 12, f"half resolution close to full: {mean}")
    check(overlap > 0.85, f"the same water and scenery: {overlap:.2f}")


if __name__ == "__main__":
    run_display_test(main)
