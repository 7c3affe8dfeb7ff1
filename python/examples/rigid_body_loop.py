"""Coupling a rigid-body loop written in Python with puddle through a kinematic body.

Python owns the raft: its mass, its velocity and angle, gravity, and the integration (semi-
implicit Euler). puddle owns the water. Every frame the raft's pose and velocity go into puddle
as a KINEMATIC body (set_body), puddle steps the water around it, and the force and torque the
water put on it (body_force) come back into the Python loop. This is how a program that already
has a rigid-body engine (pymunk, a robot simulator, a game) adds puddle's water; the C version
with Chipmunk2D is examples/chipmunk_float.c.

A raft at half the water's density, let go just above the surface, bobs and comes to rest
floating with half its area under the water. The script prints its depth over time and checks
that share at the end.

    python3 python/examples/rigid_body_loop.py
"""
import math

import numpy as np

import puddle

TANK_X, TANK_Y, WATER_TOP = 14.0, 9.0, -3.0
HALF_X, HALF_Y, DENSITY = 2.0, 1.0, 0.5  # a raft twice as wide as tall floats upright

world = puddle.World(substeps=2)  # h = 1, dt = 1/60 s, gravity (0, -10)
world.add_material(stiffness=150, near_stiffness=75)  # stiff water: a body floats on its real density
world.add_boundary(kind="box_container", half_extents=(TANK_X, TANK_Y))
world.fill(shape="box", position=(0, 0.5 * (WATER_TOP - TANK_Y)), half_extents=(TANK_X, 0.5 * (TANK_Y + WATER_TOP)))

# The raft in puddle: kinematic, so puddle moves it only as told. Its density sets the mass that
# body_mass reports (density x area x the water's density), which the Python loop uses.
raft = world.add_body(type="kinematic", shape="box", half_extents=(HALF_X, HALF_Y), position=(0, -1.5), density=DENSITY)
mass = world.body_mass(raft)
m, inertia = mass["mass"], mass["inertia"]
gravity = np.array(world.get_def()["gravity"])
dt = world.get_def()["dt"]

# The Python rigid-body state
x, v = np.array([0.0, -1.5]), np.zeros(2)
angle, spin = 0.0, 0.0

spacing = puddle.rest_spacing(1, world.get_material(0)["rest_density"])


def surface_beside(px):
    """The water's surface 3 to 6 units beside the raft: the highest particle of each side's
    band, plus half a spacing."""
    xs, ys = world.x, world.y
    band = (np.abs(xs - px) > HALF_X + 3) & (np.abs(xs - px) < HALF_X + 6)
    return float(ys[band].max()) + 0.5 * spacing


print(f"raft: {DENSITY} of the water's density, mass {m:.2f}, inertia {inertia:.2f}")
shares = []
for frame in range(900):
    world.set_body(raft, position=tuple(x), angle=angle, linear_velocity=tuple(v), angular_velocity=spin)
    world.step()
    force, torque = world.body_force(raft)
    # the Python engine's step: the water's force and gravity, semi-implicit Euler
    v += dt * (np.array(force) / m + gravity)
    x += dt * v
    spin += dt * torque / inertia
    angle += dt * spin
    if frame % 60 == 59 or frame >= 600:
        top = surface_beside(x[0])
        share = min(max((top - (x[1] - HALF_Y)) / (2 * HALF_Y), 0.0), 1.0)  # upright raft
        if frame >= 600:
            shares.append(share)
        if frame % 120 == 119:
            print(f"t = {(frame + 1) * dt:4.1f} s  raft at y = {x[1]:6.2f}, angle {math.degrees(angle):5.1f} deg, "
                  f"{share:.2f} of it under the surface")

mean = float(np.mean(shares))
print(f"over the last 5 s: {mean:.2f} of the raft under the surface (Archimedes: {DENSITY})")
assert abs(mean - DENSITY) < 0.1, "the raft does not float at its density"
