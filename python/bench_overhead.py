"""The overhead of Python's World.step() against the C step, at about 10,000 particles.

The standard benchmark's 10k dam break (bench/scenes/dam-break-10k.json, bench/README.md; or
--scene, rescaled with --particles), warmed up, is stepped in pairs
of frames: one frame by a Python call w.step() (the binding's argument parsing, the scene's
events, the GIL released and taken back), timed around the call with time.perf_counter(), and
one frame by a bare pdl_world_step() timed inside C (w._c_step_seconds(1)); which of the two
goes first alternates. Both step the same world one after the other, so the flow is alike. On a
machine shared with other programs single frames vary by tens of percent, but such bursts hit
single frames: the overhead is the median over --pairs pairs of (Python frame - C frame), over
the median C frame.

That comparison is only as fine as the machine is quiet, so the binding's own cost is also
measured where nothing hides it: the same scene with every particle removed, stepped in the same
pairs (an empty step takes microseconds, so the difference of the pairs is the binding's work
alone: the call, the scene's events, releasing the GIL), and step(0) (the call without a frame).
That cost over the 10k C frame is the overhead with the noise taken out.

    python3 python/bench_overhead.py [--scene S] [--particles N] [--threads 0] [--pairs 1000]
"""
import argparse
import os
import statistics
import time

import puddle

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("--scene", default=os.path.join(ROOT, "bench", "scenes", "dam-break-10k.json"))
parser.add_argument("--particles", type=float, default=0, help="rescale the scene to about this many")
parser.add_argument("--threads", type=int, default=0, help="0: one per core")
parser.add_argument("--pairs", type=int, default=1000)
args = parser.parse_args()

clock = time.perf_counter


def pairs(w, n):
    """(Python frames, C frames, their differences), seconds, over n pairs."""
    def python_frame():
        t = clock()
        w.step()
        return clock() - t

    python_s, c_s, diff_s = [], [], []
    for k in range(n):
        if k % 2:
            c, p = w._c_step_seconds(1), python_frame()
        else:
            p, c = python_frame(), w._c_step_seconds(1)
        python_s.append(p)
        c_s.append(c)
        diff_s.append(p - c)
    return python_s, c_s, diff_s


w = puddle.load_scene(args.scene, threads=args.threads, particles=args.particles)
w.step(60)  # past the first frames' allocations and the column's first fall
python_s, c_s, diff_s = pairs(w, args.pairs)
c = statistics.median(c_s)
d = statistics.median(diff_s)
q = statistics.quantiles(diff_s, n=4)
print(f"{w.scene_name}: {w.particle_count} particles, {w.thread_count} threads, vector loops {puddle.vector_loops()}")
print(f"C frame        median {1e3 * c:.4f} ms; Python frame median {1e3 * statistics.median(python_s):.4f} ms")
print(f"direct         {100 * d / c:+.3f} % of the C step: median of {args.pairs} pairs' differences, "
      f"{1e6 * d:+.1f} us (quartiles {1e6 * q[0]:+.1f} and {1e6 * q[2]:+.1f} us: the machine's noise)")

empty = puddle.load_scene(args.scene, threads=args.threads, particles=args.particles)
lo, hi = empty.bounds
empty.remove_in_box([(a + b) / 2 for a, b in zip(lo, hi)], [b - a for a, b in zip(lo, hi)])
assert empty.particle_count == 0
_, empty_c, empty_diff = pairs(empty, 20 * args.pairs)
binding = statistics.median(empty_diff)
calls = 100000
t = clock()
for _ in range(calls):
    w.step(0)
call_s = (clock() - t) / calls
print(f"binding        {1e6 * binding:.3f} us a frame (empty world: Python {1e6 * (statistics.median(empty_c) + binding):.2f} "
      f"us, C {1e6 * statistics.median(empty_c):.2f} us, median of {20 * args.pairs} pairs' differences); "
      f"step(0) {1e6 * call_s:.3f} us a call")
print(f"overhead       {100 * binding / c:.4f} % of the {w.particle_count}-particle C step ({1e3 * c:.3f} ms)")
