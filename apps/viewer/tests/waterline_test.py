#!/usr/bin/env python3
"""Bodies in the water in the viewer's 3D liquid look (shaders/liquid/composite.frag.glsl, the
waterline): web/test/fixtures/waterline-3d.json's red box and orange ball afloat after 60 frames,
measured by waterline.py as the page's and `puddle run`'s pictures are: a light line where the
surface meets them (measured 244 pixels in the test's 1100x700 window, 95 at 640x400; 0 with the
waterline's alpha at 0), and under it their submerged parts seen, tinted, through the water (554,
321; 0).

    waterline_test.py --viewer build/apps/viewer/puddle-view --work DIR
"""
import os
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_test import REPORT_ONLY, check, check_grown, grown_script, run_display_test, run_viewer  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
FIXTURE = os.path.join(HERE, "..", "..", "..", "web", "test", "fixtures", "waterline-3d.json")


def main(viewer, work):
    png = os.path.join(work, "waterline.png")
    # (the screenshot drawn at the full size: grown_script)
    report = run_viewer(viewer, [FIXTURE, "--frames", "60", "--threads", "2", "--no-panel", "--render", "liquid",
                                 "--screenshot", png, "--script", grown_script(work, "waterline", 60)],
                        work, "waterline", REPORT_ONLY)
    check_grown(report, "waterline")
    check(report["bodies"] == 2 and report["render_mode"] == "liquid", "two bodies, drawn in the liquid look")
    p = subprocess.run([sys.executable, os.path.join(HERE, "waterline.py"), png, "--bodies", "#e4572e,#f3a712",
                        "--water", "#2a7fd4", "--min-line", "30", "--min-seen", "60"], capture_output=True, text=True)
    print(p.stdout, end="")
    check(p.returncode == 0, "a waterline along the bodies, their submerged parts seen through the water")


if __name__ == "__main__":
    run_display_test(main)
