#!/usr/bin/env python3
"""The viewer's real-time clock when a frame is slow (main.c, the loop's catch-up steps), under
llvmpipe, with --clock real (the interactive loop's clock, for a counted run):

- a frame that took longer than the world's dt has more than one step due; it takes the further
  ("catch-up") steps only while one more step and the drawing, as long as they last took, still
  end within the frame budget (--frame-budget). The full liquid look of 6,000 particles takes
  hundreds of ms a frame to draw in software (docs/viewer.md: 550-1,700 ms), so every frame has
  several steps due:
  - with a budget no step fits (1 ms), each frame takes one step and no more: the window keeps
    its frames and the fluid slows down (steps <= frames);
  - with a budget everything fits (10 s), each frame catches up, up to the 4 steps a frame allows
    (steps >= 2 frames: the fluid keeps closer to real time, the window shows fewer frames).
Counts only, no timing thresholds: which branch a frame takes is set by the budget.

    clock_test.py --viewer build/apps/viewer/puddle-view --work DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from viewer_test import check, run_display_test, run_viewer  # noqa: E402

BASE = ["dam-break-3d-clavet", "--particles", "6000", "--threads", "2", "--no-panel", "--render", "liquid",
        "--fallback", "off", "--clock", "real"]
FRAMES = 10
MAX_CATCH_UP_STEPS = 4  # main.c


def main(viewer, work):
    tight = run_viewer(viewer, BASE + ["--frames", str(FRAMES), "--frame-budget", "1"], work, "tight")
    check(tight["frames"] == FRAMES, f"tight budget: ran {tight['frames']} frames")
    check(0 < tight["steps"] <= FRAMES,
          f"tight budget: at most one step a frame ({tight['steps']} steps in {FRAMES} frames)")
    loose = run_viewer(viewer, BASE + ["--frames", str(FRAMES), "--frame-budget", "10000"], work, "loose")
    check(2 * FRAMES <= loose["steps"] <= MAX_CATCH_UP_STEPS * FRAMES,
          f"loose budget: slow frames catch up, up to {MAX_CATCH_UP_STEPS} steps a frame "
          f"({loose['steps']} steps in {FRAMES} frames)")
    # the counted clock (--clock steps, the default with --frames): one step a frame, always
    counted = run_viewer(viewer, BASE[:-2] + ["--frames", str(FRAMES), "--frame-budget", "10000"], work, "counted")
    check(counted["steps"] == FRAMES, f"--frames without --clock real: one step a frame ({counted['steps']})")


if __name__ == "__main__":
    run_display_test(main)
