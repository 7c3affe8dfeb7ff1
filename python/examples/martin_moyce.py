"""The dam-break front against Martin & Moyce 1952, measured with numpy (a notebook-style script:
each block below could be a cell).

A water column a wide and 2a tall stands against the left wall of a dry tank 14a long and is let
go. Martin & Moyce measured the surge front's distance from the wall, Z = x / a, at the
dimensionless times T = t sqrt(2g/a) (Phil. Trans. R. Soc. Lond. A 244, 312-324, Fig. 3, n^2 = 2,
as tabled in PySPH's db_exp_data.py). This builds the case of validate/dam_break.c (docs/
validation.md) in Python: Clavet's stiff water (k = 150, k_near = 75, two substeps a frame), the
column `--across` particles wide. The front is the farthest point of the connected water, plus
half a rest spacing: here the x-sorted particles up to the first gap wider than h (a droplet
ahead, which does not touch the surge, is left out; the validation suite joins clusters in 2D).

    python3 python/examples/martin_moyce.py [--across 32] [--solver clavet|sph|dfsph] [--out out/python]

Prints the table and the mean of |Z / Z_experiment - 1| over the experiment's points with T in
[1, 6.8] (docs/validation.md: 2.9-3.0 % for Clavet at 32 and 64 across), and plots both curves.
"""
import argparse
import os

import numpy as np

import puddle

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--across", type=int, default=32, help="particles across the column")
parser.add_argument("--solver", default="clavet", choices=["clavet", "sph", "dfsph"])
parser.add_argument("--out", default=os.path.join("out", "python"))
args = parser.parse_args()

# %% The experiment: (T, Z), Martin & Moyce 1952, Fig. 3, n^2 = 2
experiment = np.array([
    (0.832, 1.217), (1.219, 1.474), (1.997, 2.292), (2.547, 2.995), (3.345, 4.134),
    (4.034, 4.944), (4.418, 5.881), (5.091, 6.980), (5.685, 7.945), (6.306, 8.966),
    (6.822, 9.986), (7.439, 10.963), (8.031, 11.977), (8.633, 13.005), (9.237, 13.970),
])

# %% The column, built in code (h = 1, g = 10)
g, h = 10.0, 1.0
water = dict(stiffness=150, near_stiffness=75) if args.solver == "clavet" else {}
spacing = puddle.rest_spacing(h, 4.0)  # the default material's rest density
a = args.across * spacing
world_def = dict(solver=args.solver, substeps=2 if args.solver == "clavet" else 1)
if args.solver == "sph":  # Monaghan's c^2 = 200 g H, as the validation suite sets it
    world_def["sph"] = {"speed_of_sound": max(100.0, float(np.sqrt(200 * g * 2 * a)))}
world = puddle.World(**world_def)
world.add_material(**water)
world.add_boundary(kind="box_container", position=(7 * a, 1.5 * a), half_extents=(7 * a, 1.5 * a))
n = world.fill(shape="box", position=(0.5 * a, a), half_extents=(0.5 * a, a))
print(f"{args.solver}: column {a:.1f} h wide, {n} particles")


# %% The front: the connected water's farthest x, plus half a spacing, over a
def front(w):
    xs = np.sort(w.x)
    gaps = np.nonzero(np.diff(xs) > h)[0]
    end = xs[gaps[0]] if len(gaps) else xs[-1]
    return (end + 0.5 * spacing) / a


# %% Run to T = 6.9, recording (T, Z) every frame
T_per_second = np.sqrt(2 * g / a)
dt = world.get_def()["dt"]
frames = int(np.ceil(6.9 / T_per_second / dt)) + 1
T, Z = np.empty(frames + 1), np.empty(frames + 1)
for f in range(frames + 1):
    if f:
        world.step()
    T[f], Z[f] = world.time * T_per_second, front(world)
assert world.particle_count == n and world.stats()["non_finite"] == 0

# %% Compare at the experiment's times in [1, 6.8]
compared = experiment[(experiment[:, 0] >= 1) & (experiment[:, 0] <= 6.83)]
Z_sim = np.interp(compared[:, 0], T, Z)
error = np.abs(Z_sim / compared[:, 1] - 1)
print("    T    Z (M&M)   Z (puddle)   error")
for (t, z), zs, e in zip(compared, Z_sim, error):
    print(f"{t:6.3f}  {z:8.3f}  {zs:10.3f}   {100 * e:5.1f} %")
print(f"mean |Z / Z_exp - 1| over T in [1, 6.8]: {100 * error.mean():.2f} %")

# %% The plot
import matplotlib  # noqa: E402

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

fig, ax = plt.subplots(figsize=(6.4, 4.4), dpi=100)
ax.plot(T, Z, label=f"puddle, {args.solver}, {args.across} across")
ax.plot(experiment[:, 0], experiment[:, 1], "o", mfc="none", color="k", label="Martin & Moyce 1952")
ax.set_xlabel("T = t sqrt(2g/a)")
ax.set_ylabel("Z = x / a")
ax.set_xlim(0, 7)
ax.set_ylim(0, 11)
ax.grid(alpha=0.3)
ax.legend(loc="upper left")
ax.set_title(f"Dam-break front: mean error {100 * error.mean():.1f} %")
os.makedirs(args.out, exist_ok=True)
path = os.path.join(args.out, f"martin_moyce_{args.solver}.png")
fig.savefig(path, bbox_inches="tight")
print("wrote", path)
