#!/usr/bin/env python3
"""The cost model of docs/mpi.md ("Model"): seconds a frame of `puddle run` split over MPI
processes, for the layer's two ways (a thick halo once a frame: SPH, springs, bodies; ghosts one
cell reach deep exchanged at each substep's two ghost stages: Clavet), from quantities measured
on one machine and a stated network. Prints the
docs' tables (markdown), so the arithmetic can be checked and re-run with other numbers:

    model.py                                  # the docs' figures
    model.py --particles 1e7 --nodes 8        # another cluster
    model.py --check                          # the model's halo against the measured one

Geometry: the scene is dam-break-3d rescaled (h kept): its water block is 9.5 x 16.5 x 12 h at
19,734 particles, so the block's sides grow as (N / 19,734)^(1/3) and its particle density is
19,734 / (9.5 x 16.5 x 12) = 10.49 per h^3. The layer cuts it into slabs across its widest
side (16.5, the height): a slab's cross-section is the other two sides. The frame-0 block is
the geometry modelled; as the water spreads the cross-section grows and the slabs thin.
"""
import argparse
import math

BASE_PARTICLES = 19734
BASE_SIDES = (9.5, 16.5, 12.0)  # h: x, y (the split axis), z
RECORD = 32  # bytes a particle on the wire: x, v (6 floats), id, material
PRESSURE_RECORD = 12  # bytes a ghost's pressures: id, pressure, near pressure


def arguments():
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--particles", type=float, default=1e8)
    p.add_argument("--nodes", type=int, default=64)
    p.add_argument("--cores", type=int, default=32, help="cores a node")
    p.add_argument("--substeps", type=int, default=2)
    p.add_argument("--halo", type=float, default=6.1,
                   help="the current layer's halo width in h (its checked halo at a 2-substep Clavet frame: "
                        "5 h and the motion's margin; the halos measured at frame 2 fit 6.1 h)")
    p.add_argument("--bandwidth", type=float, default=100e9 / 8, help="bytes/s a node's link (default 100 Gb/s)")
    p.add_argument("--latency", type=float, default=2e-6, help="seconds a message (default 2 us)")
    # measured here (docs/mpi.md, "Model": the measurements), seconds a particle a frame on one core
    p.add_argument("--c-plain", type=float, default=0.91e-6, help="pdl_world_step, pair passes (puddle bench, 1 thread)")
    p.add_argument("--c-split", type=float, default=0.95e-6,
                   help="pdl_world_step in a process of a split world (pair passes at row slabs, fixed grid "
                        "frame), a particle held (mpirun -np 2, 1 thread each; 1.25e-6 with the gather passes)")
    p.add_argument("--c-serial", type=float, default=0.12e-6,
                   help="the halo layer's serial work a particle held (packing, id sort, set_particles, keep)")
    p.add_argument("--c-ghost-layer", type=float, default=0.054e-6,
                   help="the ghost layer's own work a particle owned a frame, one thread: the moves across cuts, "
                        "the ghost stages' scans, packing and insertion, the owned copy (mpirun -np 2, 1M: 27 ms a "
                        "frame for 504k owned, the wait for the other process included)")
    p.add_argument("--ghost-width", type=float, default=1.65,
                   help="ghost layer depth in h on each side of a cut: one cell reach (h in 3D), plus the cell a "
                        "cut runs through and the particles that cross it in the frame (mpirun -np 2, 1M: "
                        "26,845 ghosts a substep = 1.65 h of the block's cross-section)")
    p.add_argument("--efficiency", type=float, default=0.8, help="thread efficiency at --cores threads (assumed)")
    p.add_argument("--imbalance", type=float, default=1.05, help="busiest process / mean (measured 1.01-1.04)")
    p.add_argument("--stages", type=int, default=2, help="ghost stages a substep (positions, pressures)")
    p.add_argument("--recut-every", type=float, default=21.0,
                   help="frames between re-cuts (measured: 17 in 360 frames of dam-break-3d, -np 4)")
    p.add_argument("--c-bin", type=float, default=27e-9,
                   help="seconds a particle a process holds to re-cut (binning its coordinates and the histogram's "
                        "allreduce: 25-31 ms for 1M at the start of mpirun -np 2, where each process holds them all, "
                        "with the test suite running beside)")
    p.add_argument("--bins", type=int, default=1 << 16, help="the re-cut histogram's bins (4 bytes each)")
    p.add_argument("--check", action="store_true", help="the model's halo against the measured halos")
    return p.parse_args()


def block(particles):
    scale = (particles / BASE_PARTICLES) ** (1 / 3)
    x, y, z = (s * scale for s in BASE_SIDES)
    density = BASE_PARTICLES / (BASE_SIDES[0] * BASE_SIDES[1] * BASE_SIDES[2])
    return x, y, z, density


def slab_halo(particles, processes, width, density, cross, length):
    """Mean particles a process imports from slabs within `width` of its own (both sides; the
    end slabs have one side), each slab `length / processes` thick."""
    t = length / processes
    total = 0.0
    for r in range(processes):
        below = min(width, r * t)
        above = min(width, (processes - 1 - r) * t)
        total += (below + above) * density * cross
    return total / processes, t


def scenario(a, name, design, processes, threads, boxes=False):
    x, y, z, n = block(a.particles)
    cross = x * z
    owned = a.particles / processes
    ppn = max(1, processes // a.nodes)
    eff = a.efficiency if threads > 1 else 1.0
    rows = []
    if design == "thick":
        w = a.halo  # h
        halo, t = slab_halo(a.particles, processes, w, n, cross, y)
        exchanges, ghosts = 1, halo
        neighbours = 2 * math.ceil(w / t) if processes > 1 else 0
        neighbours = min(neighbours, processes - 1)
        compute = (owned + halo) * a.c_split / (threads * eff) * a.imbalance
        serial = (owned + halo) * a.c_serial
        geometry = f"slabs {t:.2f} h thick, halo {w:.1f} h"
    else:
        exchanges = a.stages * a.substeps
        w = a.ghost_width
        if boxes:
            side = (owned / n) ** (1 / 3)
            ghosts = ((side + 2 * w) ** 3 - side ** 3) * n
            neighbours = 26
            geometry = f"boxes {side:.1f} h a side, ghosts {w:.2f} h (not built)"
        else:
            ghosts, t = slab_halo(a.particles, processes, w, n, cross, y)
            neighbours = min(2 * math.ceil(w / t), processes - 1)
            geometry = f"slabs {t:.2f} h thick, ghosts {w:.2f} h"
        halo = ghosts
        # the ghosts take part in the neighbour passes (and the rest of the step) as the own do
        compute = (owned + ghosts) * a.c_split / (threads * eff) * a.imbalance
        # the layer's scans and copies run on one thread (as the code is)
        serial = owned * a.c_ghost_layer
    sent = RECORD * ghosts * exchanges if design == "thick" else (RECORD + PRESSURE_RECORD) * ghosts * a.substeps
    transfer = sent * ppn / a.bandwidth  # the processes of a node share its link
    collectives = 3 * 2 * math.log2(processes) if processes > 1 else 0  # allreduces: recursive doubling
    counts = processes - 1  # the all-to-all of counts: one message to each
    if design == "ghost":  # each substep's positions stage: an allgather of the cell spans and counts
        collectives += a.substeps * 2 * math.log2(processes) if processes > 1 else 0
        counts *= 1 + a.substeps
    messages = exchanges * neighbours
    latency = a.latency * (messages + counts + collectives)
    # a re-cut, once every recut_every frames: each process bins its own coordinates, and the
    # histogram is summed (an allreduce of 4-byte bins: 2 log2 P latencies, twice the bins' bytes
    # over the link)
    steps = 2 * math.log2(processes) if processes > 1 else 0
    recut = (owned * a.c_bin + steps * a.latency + 2 * 4 * a.bins * ppn / a.bandwidth) / a.recut_every
    total = compute + serial + transfer + latency
    return dict(name=name, design=design, processes=processes, threads=threads, owned=owned, geometry=geometry,
                halo=halo, ratio=halo / owned, exchanges=exchanges, messages=messages + counts,
                sent=sent, compute=compute, serial=serial, transfer=transfer, latency=latency, total=total,
                recut=recut)


def table(rows):
    head = ["", *[r["name"] for r in rows]]
    lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
    fmt = [
        ("processes x threads", lambda r: f"{r['processes']} x {r['threads']}"),
        ("particles a process (N/P)", lambda r: f"{r['owned']:,.0f}"),
        ("geometry", lambda r: r["geometry"]),
        ("halo or ghost particles a process, an exchange", lambda r: f"{r['halo']:,.0f} ({r['ratio']:.2f} x own)"),
        ("exchanges a frame", lambda r: f"{r['exchanges']}"),
        ("messages a process a frame", lambda r: f"{r['messages']:,.0f}"),
        ("bytes sent a process a frame (halo: 32 B each; ghosts: 32 + 12 B a substep)", lambda r: f"{r['sent'] / 1e6:,.1f} MB"),
        ("compute", lambda r: f"{r['compute'] * 1e3:,.1f} ms"),
        ("layer's serial work (halo: sort, rebuild; ghosts: scans, packing, insertion)", lambda r: f"{r['serial'] * 1e3:,.1f} ms"),
        ("transfer (bytes x processes a node / link)", lambda r: f"{r['transfer'] * 1e3:,.1f} ms"),
        ("latency (messages x latency)", lambda r: f"{r['latency'] * 1e3:,.2f} ms"),
        ("**seconds a frame**, without re-cuts", lambda r: f"**{r['total']:.3f}**"),
        ("re-cut (a histogram of the cut axis), a frame on average", lambda r: f"{r['recut'] * 1e3:,.2f} ms"),
        ("seconds a frame with the re-cuts", lambda r: f"{r['total'] + r['recut']:.3f}"),
    ]
    for label, f in fmt:
        lines.append("| " + label + " | " + " | ".join(f(r) for r in rows) + " |")
    return "\n".join(lines)


def check(a):
    """The model's mean halo against what --mpi-stats measured at frame 2 with the checked halo
    (docs/mpi.md; frame 1's is larger: the prediction has no earlier frame's motion yet)."""
    measured = {(100035, 2): 22444, (100035, 4): 33666, (1008170, 2): 104396, (1008170, 4): 156594}
    print("| particles | processes | model halo a process | measured |\n|---|---|---|---|")
    for (particles, processes), got in measured.items():
        x, y, z, n = block(particles)
        halo, _ = slab_halo(particles, processes, a.halo, n, x * z, y)
        print(f"| {particles:,} | {processes} | {halo:,.0f} | {got:,} |")


def main():
    a = arguments()
    if a.check:
        check(a)
        return
    if None in (a.c_plain, a.c_split, a.c_serial, a.c_bin):
        raise SystemExit("model.py: give --c-plain, --c-split, --c-serial and --c-bin (docs/mpi.md, Model, lists the measured ones)")
    cores = a.nodes * a.cores
    rows = [
        scenario(a, "thick halo, a process a node", "thick", a.nodes, a.cores),
        scenario(a, "ghosts, a process a node", "ghost", a.nodes, a.cores),
        scenario(a, "thick halo, a process a core", "thick", cores, 1),
        scenario(a, "ghosts, a process a core (slabs)", "ghost", cores, 1),
        scenario(a, "ghosts, a process a core (boxes)", "ghost", cores, 1, boxes=True),
    ]
    x, y, z, n = block(a.particles)
    print(f"{a.particles:,.0f} particles: block {x:.1f} x {y:.1f} x {z:.1f} h, {n:.2f} per h^3; "
          f"{a.nodes} nodes x {a.cores} cores; link {a.bandwidth * 8 / 1e9:.0f} Gb/s, latency {a.latency * 1e6:.1f} us\n")
    print(table(rows))


if __name__ == "__main__":
    main()
