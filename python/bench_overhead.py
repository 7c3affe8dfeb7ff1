"""The overhead of Python's World.step() against the C step, at about 10,000 particles.

The dam break (scenes/dam-break.json) rescaled to --particles, warmed up, then stepped in
alternating windows of --frames frames: a Python loop of w.step() calls (one frame each: the
binding's argument parsing, the scene's events, the GIL released and taken back), and the same
number of bare pdl_world_step() calls timed inside C (w._c_step_seconds). Both windows of a round
step the same world one after the other, so the flow they step is alike, and a machine shared
with other programs slows both alike: the overhead is the median over --rounds rounds of the
ratio of a round's two windows (which of the two goes first alternates), in wall time and in the
process's CPU time (which other programs' load disturbs less). It also times step(0), the
binding's fixed cost per call.

    python3 python/bench_overhead.py [--particles 10000] [--threads 0] [--rounds 60] [--frames 20]
"""
import argparse
import os
import statistics
import time

import puddle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--scene", default=os.path.join(ROOT, "scenes", "dam-break.json"))
parser.add_argument("--particles", type=float, default=10000)
parser.add_argument("--threads", type=int, default=0, help="0: one per core")
parser.add_argument("--rounds", type=int, default=60)
parser.add_argument("--frames", type=int, default=20)
args = parser.parse_args()

w = puddle.load_scene(args.scene, threads=args.threads, particles=args.particles)
w.step(60)  # past the first frames' allocations and the column's first fall



def python_window():
    t, cpu = time.perf_counter(), time.process_time()
    for _ in range(args.frames):
        w.step()
    return 1e3 * (time.perf_counter() - t) / args.frames, 1e3 * (time.process_time() - cpu) / args.frames


def c_window():
    cpu = time.process_time()
    wall = w._c_step_seconds(args.frames)
    return 1e3 * wall / args.frames, 1e3 * (time.process_time() - cpu) / args.frames


python_ms, c_ms, python_cpu, c_cpu = [], [], [], []
for k in range(args.rounds):
    order = (c_window, python_window) if k % 2 else (python_window, c_window)
    for window in order:
        wall, cpu = window()
        (python_ms if window is python_window else c_ms).append(wall)
        (python_cpu if window is python_window else c_cpu).append(cpu)
ratios = [p / c for p, c in zip(python_ms, c_ms)]
cpu_ratios = [p / c for p, c in zip(python_cpu, c_cpu)]

calls = 100000
t = time.perf_counter()
for _ in range(calls):
    w.step(0)
call_us = 1e6 * (time.perf_counter() - t) / calls

py, c = statistics.median(python_ms), statistics.median(c_ms)
print(f"{w.scene_name}: {w.particle_count} particles, {w.thread_count} threads, vector loops {puddle.vector_loops()}")
print(f"C step      median {c:.4f} ms/frame (windows {min(c_ms):.4f} to {max(c_ms):.4f})")
print(f"Python step median {py:.4f} ms/frame (windows {min(python_ms):.4f} to {max(python_ms):.4f})")
for what, r in (("wall time", ratios), ("CPU time", cpu_ratios)):
    q = statistics.quantiles(r, n=4)
    print(f"overhead    {100 * (statistics.median(r) - 1):+.2f} % of the C step in {what}: median of {args.rounds} "
          f"rounds' ratios (quartiles {100 * (q[0] - 1):+.2f} % and {100 * (q[2] - 1):+.2f} %), windows of "
          f"{args.frames} frames")
print(f"step(0)     {call_us:.3f} us a call: the binding's own cost, {100 * call_us / (1e3 * c):.3f} % of a C step")
