#!/usr/bin/env python3
"""The viewer's layout at 1280x800 and at twice the scale (issue 23 #3): the side panel's default
sections fit its height without scrolling, the stats box and the panel leave the tank free, and
no slider's value text lies under its grab or outside its frame.

    layout_test.py --viewer build/apps/viewer/puddle-view --work DIR

Runs the viewer (under xvfb-run, with a screen of at least 2560x1600) with the stats box shown
(F) on a 2D scene with a circle tank, one with a box tank and a 3D scene, and reads the JSON that
--layout writes (window points).
"""
import argparse
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_test import Failure, check, run_viewer, write_script  # noqa: E402

RUNS = [
    # scene, window, ui scale
    ("stratify", "1280x800", 1.0),
    ("dam-break", "1280x800", 1.0),
    ("dam-break-3d", "1280x800", 1.0),
    ("blobs", "2560x1600", 2.0),
]


def overlap(a, b):
    """True when rectangles [x0, y0, x1, y1] share an area (touching edges do not count)."""
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def inside(a, b, slack=0.5):
    return a[0] >= b[0] - slack and a[1] >= b[1] - slack and a[2] <= b[2] + slack and a[3] <= b[3] + slack


def check_layout(layout, name, window):
    w, h = (int(v) for v in window.split("x"))
    check(layout["window"] == [w, h], f"{name}: window is {w}x{h} points")
    panel, stats, tank, view = layout["panel"], layout["stats"], layout["tank"], layout["viewport"]
    check(layout["panel_shown"] and layout["stats_shown"], f"{name}: panel and stats box shown")
    panel_height = panel[3] - panel[1]
    print(f"{name}: panel {panel}, content ends at y {layout['panel_content_end_y']:.0f} of "
          f"{panel_height:.0f}, scroll range {layout['panel_scroll_max_y']:.0f}; stats {stats}; "
          f"tank {tank}; view {view}; label column {layout['label_column']:.0f}")
    check(layout["panel_scroll_max_y"] == 0 and layout["panel_content_end_y"] <= panel_height,
          f"{name}: the panel's default sections fit its height "
          f"({layout['panel_content_end_y']:.0f} <= {panel_height:.0f}, no scrolling)")
    check(tank is not None, f"{name}: the tank is in front of the camera")
    check(inside(tank, view), f"{name}: the tank {tank} lies in the view {view}")
    check(not overlap(stats, tank), f"{name}: the stats box {stats} leaves the tank {tank} free")
    check(not overlap(panel, tank), f"{name}: the panel {panel} leaves the tank {tank} free")
    check(not overlap(stats, panel), f"{name}: the stats box and the panel do not overlap")

    sliders = layout["sliders"]
    check(len(sliders) >= 8, f"{name}: {len(sliders)} sliders measured")
    worst = None
    for s in sliders:
        frame, grab, text = s["frame"], s["grab"], s["text"]
        label = f"{name}: slider '{s['label']}' = '{s['value']}'"
        if not inside(text, frame):
            raise Failure(f"{label}: value text {text} outside its frame {frame}")
        if overlap(text, grab):
            raise Failure(f"{label}: value text {text} under the grab {grab}")
        # the value fits beside the grab wherever the grab is: in half the frame less half the
        # grab and the padding between the text and the frame's edge
        padding = min(text[0] - frame[0], frame[2] - text[2])
        room = 0.5 * ((frame[2] - frame[0]) - (grab[2] - grab[0])) - padding
        width = text[2] - text[0]
        if width > room:
            raise Failure(f"{label}: value text {width:.0f} wide, {room:.0f} free beside a grab")
        if worst is None or room - width < worst[0]:
            worst = (room - width, s["label"], s["value"], width, room, frame[2] - frame[0])
        print(f"  {s['label']:<20} '{s['value']}': frame {frame[2] - frame[0]:.0f}, grab "
              f"{grab[2] - grab[0]:.0f}, text {width:.0f} of {room:.0f} free beside the grab")
    check(True, f"{name}: every value text clear of its grab and inside its frame; tightest "
                f"'{worst[1]}' = '{worst[2]}', {worst[3]:.0f} of {worst[4]:.0f} in a frame of "
                f"{worst[5]:.0f}")


# The solver section shows the fields the declaration (include/puddle/fields.h) gives the running
# solver, and no other solver's: (scene, labels that must be there, labels that must not).
SOLVER_SLIDERS = {
    "stratify": ([], ["viscosity", "xsph", "speed of sound", "density tolerance"]),  # Clavet
    "dam-break": (["viscosity", "xsph", "density tolerance", "dt", "substeps", "interaction radius"],
                  ["speed of sound", "cfl", "max iterations"]),  # DFSPH; cfl and iterations in "limits"
}


def check_solver_sliders(layout, scene, name):
    if scene not in SOLVER_SLIDERS:
        return
    labels = {s["label"] for s in layout["sliders"]}
    present, absent = SOLVER_SLIDERS[scene]
    missing = [l for l in present if l not in labels]
    extra = [l for l in absent if l in labels]
    check(not missing and not extra,
          f"{name}: the solver section's sliders are the declared ones for its solver "
          f"(missing {missing}, not its solver's or closed {extra})")


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--viewer", required=True)
    p.add_argument("--work", required=True)
    a = p.parse_args()
    os.makedirs(a.work, exist_ok=True)
    script = write_script(a.work, "stats", ["0 key F"])
    try:
        for scene, window, scale in RUNS:
            name = f"{scene}-{window}"
            path = os.path.join(a.work, name + "-layout.json")
            run_viewer(a.viewer, [scene, "--size", window, "--ui-scale", str(scale), "--frames", "8",
                                  "--script", script, "--layout", path,
                                  "--screenshot", os.path.join(a.work, name + ".png")], a.work, name)
            with open(path) as f:
                layout = json.load(f)
            check_layout(layout, name, window)
            check_solver_sliders(layout, scene, name)
    except Failure as failure:
        print("FAIL:", failure)
        return 1
    print("PASS layout")
    return 0


if __name__ == "__main__":
    sys.exit(main())
