"""A matplotlib animation of scenes/dam-break.json, headless (Agg), written to a file.

The particles are drawn as a scatter coloured by speed, one animation frame every 4 simulation
frames (15 frames/s of simulated time at the scene's dt = 1/60 s). Writes an MP4 with ffmpeg
where it is installed, else an animated GIF (Pillow, which matplotlib brings), and the last
frame as a PNG beside it.

    python3 python/examples/dam_break_animation.py [--seconds 4] [--out out/python]
"""
import argparse
import os

import matplotlib

matplotlib.use("Agg")  # no display needed
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib import animation  # noqa: E402
import numpy as np  # noqa: E402

import puddle  # noqa: E402

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--scene", default=os.path.join(ROOT, "scenes", "dam-break.json"))
parser.add_argument("--seconds", type=float, default=4.0)
parser.add_argument("--every", type=int, default=4, help="simulation frames per animation frame")
parser.add_argument("--out", default=os.path.join("out", "python"))
args = parser.parse_args()

world = puddle.load_scene(args.scene)
(x0, y0), (x1, y1) = world.bounds
frames = int(round(args.seconds / world.get_def()["dt"] / args.every))

fig, ax = plt.subplots(figsize=(9.6, 4.8), dpi=100)
ax.set_xlim(x0, x1)
ax.set_ylim(y0, y1)
ax.set_aspect("equal")
ax.set_facecolor("#10141c")
ax.set_xticks([])
ax.set_yticks([])
# sized so that neighbouring particles touch at this zoom (a rest spacing across)
spacing = puddle.rest_spacing(world.get_def()["interaction_radius"], world.get_material(0)["rest_density"])
points_per_unit = fig.get_size_inches()[0] * 72 / (x1 - x0)
dots = ax.scatter(world.x, world.y, s=(spacing * points_per_unit) ** 2, c=np.zeros(world.particle_count),
                  cmap="viridis", vmin=0, vmax=12, linewidths=0)
label = ax.text(0.01, 0.97, "", transform=ax.transAxes, color="white", va="top", family="monospace")
fig.colorbar(dots, ax=ax, fraction=0.03, pad=0.01, label="speed (h/s)")
fig.tight_layout()


def draw(k):
    if k > 0:
        world.step(args.every)
    # the views are read here, right after the step, and copied by matplotlib
    dots.set_offsets(np.column_stack([world.x, world.y]))
    dots.set_array(np.hypot(world.vx, world.vy))
    label.set_text(f"{world.scene_name}  t = {world.time:4.2f} s  {world.particle_count} particles")
    return dots, label


anim = animation.FuncAnimation(fig, draw, frames=frames + 1, blit=True)
os.makedirs(args.out, exist_ok=True)
fps = 1 / (world.get_def()["dt"] * args.every)
if animation.writers.is_available("ffmpeg"):
    path = os.path.join(args.out, "dam_break.mp4")
    anim.save(path, writer=animation.FFMpegWriter(fps=fps, codec="h264", extra_args=["-pix_fmt", "yuv420p"]))
else:
    path = os.path.join(args.out, "dam_break.gif")
    anim.save(path, writer=animation.PillowWriter(fps=fps))
fig.savefig(os.path.join(args.out, "dam_break_last.png"))
print(f"wrote {path} ({frames + 1} frames, t = {world.time:.2f} s) and {os.path.join(args.out, 'dam_break_last.png')}")
