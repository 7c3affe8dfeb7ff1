#!/usr/bin/env python3
"""The 3D liquid look (liquid_gl.c) against the spheres it replaces: stratify-3d (three
coloured liquids) run 30 steps and screenshot in the liquid mode and in the metaball mode
(spheres), then on the pixels showing fluid in both:

- not blank: many colours, and fluid covers part of the view;
- smoother: the mean squared Laplacian of luminance over the water's inside is under a quarter
  of the spheres';
- tinted: the water is coloured, its hues spread over at least two 15-degree bins (the
  materials' colours show through; still mixed after 30 steps, so not yet two clusters).

    liquid_test.py --viewer build/apps/viewer/puddle-view --work DIR
"""
import argparse
import colorsys
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_test import Failure, check, read_png, run_viewer  # noqa: E402

SCENE = "stratify-3d"


def luminance(p):
    return 0.299 * p[0] + 0.587 * p[1] + 0.114 * p[2]


def fluid_mask(rows, viewport, background):
    vx, vy, vw, vh = viewport
    return {(x, y) for y in range(vy, vy + vh) for x in range(vx, vx + vw)
            if sum(abs(a - b) for a, b in zip(rows[y][x], background)) > 40}


def inside(mask):
    """The mask's pixels whose 9x9 neighbourhood is in it too: away from the silhouette."""
    return [(x, y) for x, y in mask
            if all((x + dx, y + dy) in mask for dx in (-4, 0, 4) for dy in (-4, 0, 4))]


def laplacian_energy(rows, pixels):
    total = 0.0
    for x, y in pixels:
        lap = (luminance(rows[y][x - 1]) + luminance(rows[y][x + 1]) + luminance(rows[y - 1][x])
               + luminance(rows[y + 1][x]) - 4 * luminance(rows[y][x]))
        total += lap * lap
    return total / max(len(pixels), 1)


def hue_clusters(rows, pixels, bins=24, share=0.04):
    """Groups of neighbouring hue bins (of the saturated pixels) each holding over `share`."""
    counts = [0] * bins
    n = 0
    for x, y in pixels:
        r, g, b = (v / 255 for v in rows[y][x])
        h, s, v = colorsys.rgb_to_hsv(r, g, b)
        if s < 0.15 or v < 0.15:
            continue
        counts[int(h * bins) % bins] += 1
        n += 1
    full = [c > share * max(n, 1) for c in counts]
    groups = sum(1 for i in range(bins) if full[i] and not full[i - 1])
    if all(full):
        groups = 1
    return groups, counts


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--viewer", required=True)
    parser.add_argument("--work", required=True)
    a = parser.parse_args()
    os.makedirs(a.work, exist_ok=True)
    shots = {}
    for mode in ("liquid", "metaball"):
        png = os.path.join(a.work, f"{mode}.png")
        report = run_viewer(a.viewer, [SCENE, "--frames", "30", "--no-panel", "--render", mode,
                                       "--screenshot", png], a.work, mode)
        check(report["render_mode"] == mode, f"{mode}: drawn in the {mode} mode")
        check(report["non_finite"] == 0, f"{mode}: {report['particles']} particles, all finite")
        width, height, rows = read_png(png)
        shots[mode] = (rows, report)
    water, report = shots["liquid"]
    spheres, _ = shots["metaball"]
    vx, vy, vw, vh = report["viewport"]
    background = water[vy + 2][vx + 2]
    colours = {water[y][x] for y in range(vy, vy + vh, 5) for x in range(vx, vx + vw, 5)}
    check(len(colours) > 50, f"liquid: the picture is not blank ({len(colours)} colours)")
    wet = fluid_mask(water, report["viewport"], background)
    dry = fluid_mask(spheres, report["viewport"], background)
    share = len(wet) / (vw * vh)
    check(share > 0.03, f"liquid: fluid covers {share:.1%} of the view")
    both = inside(wet & dry)
    check(len(both) > 0.5 * len(dry) * 0.5, f"liquid: water where the spheres are ({len(both)} "
          f"inner pixels, spheres {len(dry)})")
    e_water, e_spheres = laplacian_energy(water, both), laplacian_energy(spheres, both)
    check(e_water < 0.25 * e_spheres, f"liquid: smoother than spheres (mean squared Laplacian of "
          f"luminance {e_water:.1f} against {e_spheres:.1f}, ratio {e_water / e_spheres:.3f})")
    # After 30 steps stratify's three liquids are still mixed, so their hues sit side by side:
    # two or more 15-degree hue bins each hold over 4% of the (saturated) water. Two separate
    # clusters would need the layers settled, hundreds of steps: too slow under llvmpipe.
    groups, counts = hue_clusters(water, both)
    tinted = sum(1 for c in counts if c > 0.04 * sum(counts))
    saturated = sum(counts) / len(both)
    check(saturated > 0.5 and tinted >= 2, f"liquid: tinted by the materials, {saturated:.0%} of "
          f"the water saturated, {tinted} hue bins over 4% ({groups} clusters: {counts})")


if __name__ == "__main__":
    try:
        main()
    except Failure as e:
        print("FAIL:", e)
        sys.exit(1)
