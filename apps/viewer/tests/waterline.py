#!/usr/bin/env python3
"""Bodies in the water in a picture of the 3D liquid look (shaders/liquid/look.h, the waterline):
the one measure the viewer's, the page's and `puddle run`'s tests apply (waterline_test.py,
web/test/waterline.test.mjs, apps/cli/tests/test_cli.py), so all three are held to the same rule.

Given the bodies' colours and the water's:

- a body's dry pixels are its colour shaded (k C, k in 0.35 to 1.45, within 30 levels);
- waterline pixels are light (every channel over 140: the waterline's tone,
  PDL_LIQUID_WATERLINE_COLOR, over the water or over the body at the contact), not grey (a white
  body, lit or fogged, has its channels within 15 levels) and not a dry shade of a coloured body,
  within 3 pixels of a coloured body's dry pixels;
- under each waterline pixel, the next pixels down (3 to 8 below) are the hull seen through the
  water when they are neither dry body nor plain water: their red minus blue is more than the
  water's (the water's colour, blue, absorbs the body's red) and they are off the dry shades.
  That counts the warm bodies (red over blue) only.

    waterline.py PICTURE.png --bodies '#e4572e,#f3a712' --water '#2a7fd4' [--min-line N] [--min-seen N]
"""
import argparse
import math
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_test import hex_rgb, read_png  # noqa: E402


def shade_of(colour, pixel):
    """k and the residual of pixel against k colour (least squares)."""
    cc = sum(v * v for v in colour)
    k = sum(p * v for p, v in zip(pixel, colour)) / cc
    return k, math.sqrt(sum((p - k * v) ** 2 for p, v in zip(pixel, colour)))


def is_dry(colour, pixel):
    k, residual = shade_of(colour, pixel)
    return 0.35 <= k <= 1.45 and residual < 30


def is_line(pixel):
    return min(pixel) > 140 and max(pixel) - min(pixel) > 15


def analyse(rows, bodies, water):
    """{"line": waterline pixels, "seen": hull pixels seen through the water under them, "per_body":
    line pixels next to each body colour, "water_rb": the plain water's red minus blue}."""
    h, w = len(rows), len(rows[0])
    coloured = [c for c in bodies if max(c) - min(c) > 40]  # a white body has no hue to find
    dry = [[None] * w for _ in range(h)]
    for y in range(h):
        for x in range(w):
            for i, c in enumerate(coloured):
                if is_dry(c, rows[y][x]):
                    dry[y][x] = i
                    break
    near = [[None] * w for _ in range(h)]
    for y in range(h):
        for x in range(w):
            if dry[y][x] is None:
                continue
            for dy in range(-3, 4):
                for dx in range(-3, 4):
                    yy, xx = y + dy, x + dx
                    if 0 <= yy < h and 0 <= xx < w:
                        near[yy][xx] = dry[y][x]
    # the plain water's red minus blue: pixels of the water's hue (within 30 levels of a shade)
    water_rb = [p[0] - p[2] for row in rows for p in row if is_dry(water, p)]
    water_rb = sorted(water_rb)[len(water_rb) // 2] if water_rb else -255
    line = seen = 0
    per_body = [0] * len(coloured)
    counted = set()
    for y in range(h):
        for x in range(w):
            body = near[y][x]
            if body is None or dry[y][x] is not None or not is_line(rows[y][x]):
                continue
            line += 1
            per_body[body] += 1
            c = coloured[body]
            if c[0] - c[2] < 60:
                continue  # not a warm body: its colour under blue water is not told by red
            for dy in range(3, 9):
                yy = y + dy
                if yy >= h or (x, yy) in counted:
                    continue
                p = rows[yy][x]
                if dry[yy][x] is None and not is_line(p) and p[0] - p[2] > water_rb + 40 and not is_dry(water, p):
                    seen += 1
                    counted.add((x, yy))
    return {"line": line, "seen": seen, "per_body": per_body, "water_rb": water_rb}


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("picture")
    parser.add_argument("--bodies", required=True, help="the bodies' colours, #rrggbb, comma separated")
    parser.add_argument("--water", required=True, help="the water's colour, #rrggbb")
    parser.add_argument("--min-line", type=int, default=0)
    parser.add_argument("--min-seen", type=int, default=0)
    a = parser.parse_args()
    rows = read_png(a.picture)[2]
    r = analyse(rows, [hex_rgb(c) for c in a.bodies.split(",")], hex_rgb(a.water))
    print(f"{a.picture}: {r['line']} waterline pixels along the bodies ({r['per_body']} by body), "
          f"{r['seen']} pixels of hull seen through the water under them (water's red - blue {r['water_rb']})")
    ok = r["line"] >= a.min_line and r["seen"] >= a.min_seen
    if not ok:
        print(f"FAIL: want at least {a.min_line} waterline pixels and {a.min_seen} of hull seen through the water")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
