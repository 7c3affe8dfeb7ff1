#!/usr/bin/env python3
"""Files of puddle over MPI (docs/mpi.md): under mpirun, --csv, --ply and --snapshot-every write the
same bytes for any process count; --vtk writes per frame one .vtp piece per process, a .pvtp that
lists them and a .pvd over the frames; a snapshot written by N processes resumes on M (or in one
plain process, and the other way; with springs, a plain run's) and the resumed run ends with the same hash as one that did not
stop; with rigid bodies process 0 writes their CSV and VTK, the same bytes for any process count too; progress and summary
are printed once.

    mpi_files_test.py --puddle build/apps/cli/puddle --scenes scenes [--mpirun mpirun]
"""
import filecmp
import os
import re
import shutil
import subprocess
import sys
import tempfile

from mpi_common import arguments, check, clavet_scene, mpirun, plain, state_hash, summary


def check_vtk(run, processes, frames, particles):
    """Each frame's .pvtp lists one piece per process (processes: a count, or one per frame); the
    pieces hold every particle once; the .pvd lists the frames' .pvtp files."""
    per_frame = processes if isinstance(processes, dict) else {k: processes for k in frames}
    pvd = open(os.path.join(run, "dam-break.pvd")).read()
    listed = re.findall(r'timestep="([^"]+)"[^>]*file="([^"]+)"', pvd)
    check([f for _, f in listed] == [f"vtk/frame_{k:06d}.pvtp" for k in frames],
          f"{run}: the .pvd lists {[f for _, f in listed]}")
    for k in frames:
        pvtp = open(os.path.join(run, f"vtk/frame_{k:06d}.pvtp")).read()
        pieces = re.findall(r'<Piece Source="([^"]+)"/>', pvtp)
        ids = []
        for piece in pieces:
            text = open(os.path.join(run, "vtk", piece)).read()
            block = text.split('Name="id"')[1].split("</DataArray>")[0]
            ids += [int(x) for x in block.split(">", 1)[1].split()]
        check(pieces == [f"frame_{k:06d}_{r}.vtp" for r in range(per_frame[k])] and sorted(ids) == list(range(particles)),
              f"-np {per_frame[k]} frame {k}: the .pvtp lists {len(pieces)} pieces holding {len(ids)} particles "
              f"({len(set(ids))} different ids; the world has {particles})")


VTK_READ = """
import sys, vtk
r = vtk.vtkXMLPPolyDataReader()
r.SetFileName(sys.argv[1])
r.Update()
o = r.GetOutput()
ids = o.GetPointData().GetArray("id")
print(r.GetErrorCode(), o.GetNumberOfPoints(), o.GetNumberOfVerts(),
      len(set(int(ids.GetTuple1(i)) for i in range(ids.GetNumberOfTuples()))) if ids else -1)
"""


def check_vtk_reads(pvtp, particles):
    """VTK's own parallel reader (ParaView's) reads the .pvtp as one data set of every particle,
    where a Python with VTK is installed (Debian's python3-vtk9, which scripts/install-deps.sh mpi
    installs); skipped elsewhere."""
    for python in (sys.executable, "/usr/bin/python3"):
        if not os.path.exists(python) or subprocess.run([python, "-c", "import vtk"], capture_output=True).returncode:
            continue
        done = subprocess.run([python, "-c", VTK_READ, pvtp], capture_output=True, text=True, timeout=120)
        check(done.stdout.split() == ["0", str(particles), str(particles), str(particles)],
              f"VTK's vtkXMLPPolyDataReader reads {os.path.basename(pvtp)}: error code, points, vertices, ids: "
              f"{done.stdout.strip()} {done.stderr.strip()[-200:]}")
        return
    print("skip: no Python with VTK here to read the .pvtp back (python3-vtk9)", flush=True)


def main():
    a = arguments()
    tmp = tempfile.mkdtemp(prefix="puddle_mpi_files_")
    try:
        run(a, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


def run(a, tmp):
    scene = clavet_scene(a, "dam-break", tmp)
    particles = 1595
    # 1. the same CSV, PLY and snapshot bytes from 1 and 3 processes (frames 0, 10, 20)
    outs = {}
    for n in (1, 3):
        d = os.path.join(tmp, f"np{n}")
        code, out, err = mpirun(a, n, [scene, "--steps", "20", "--export-every", "10", "--vtk", "--csv", "--ply",
                                       "--snapshot-every", "10", "--out", d, "--hash"])
        check(code == 0, f"-np {n} --vtk --csv --ply --snapshot-every: exit {code} {err.strip()[-300:] if code else ''}")
        outs[n] = (d, out, err)
        # printed once: the summary by process 0, the progress (stderr, not a terminal: a line a
        # tenth) by process 0
        check(out.count("wrote ") == 1 and out.count("state hash") == 1 and out.count("particles over") == 1
              and err.count("dam-break: 100%") == 1,
              f"-np {n}: summary and progress printed once ({out.count('state hash')} hash lines, "
              f"{err.count('dam-break: 100%')} lines at 100%)")
        check_vtk(d, n, (0, 10, 20), particles)
        check_vtk_reads(os.path.join(d, "vtk/frame_000020.pvtp"), particles)
    files = [f"{kind}/frame_{k:06d}.{kind}" for kind in ("csv", "ply") for k in (0, 10, 20)] + \
            [f"snapshots/snap_{k:06d}.pdls" for k in (10, 20)]
    for f in files:
        p1, p3 = os.path.join(outs[1][0], f), os.path.join(outs[3][0], f)
        same = os.path.exists(p1) and os.path.exists(p3) and filecmp.cmp(p1, p3, shallow=False)
        check(same, f"{f}: -np 1 and -np 3 wrote the same bytes ({os.path.getsize(p1) if os.path.exists(p1) else 0} bytes)")
    lines = open(os.path.join(outs[3][0], "csv/frame_000020.csv")).read().splitlines()
    check(len(lines) == particles + 1 and [int(l.split(",")[0]) for l in lines[1:]] == list(range(particles)),
          f"-np 3 CSV: a header and {len(lines) - 1} rows in id order")
    check(not [f for f in os.listdir(os.path.join(outs[3][0], "snapshots")) if ".tmp." in f],
          "no temporary files left beside the snapshots")

    # 2. a snapshot of 2 processes at frame 20 resumed on 3 to frame 40: the hash of an
    # uninterrupted run on 1; the .pvd of the resumed run lists the earlier run's frames too. In
    # 3D at frame 60 the fluid has spread so that a grid frame chosen from the snapshot's
    # particles would order the axes otherwise than the run's start did: resumed that way, this
    # case ended at 0f97ac6d9d2389c5 instead of 444cb367b85f1fcf
    # SPH resumes too (its substeps come from the state alone), and so does an emitter's world
    # (the next id is in the snapshot)
    for name, half, whole, more in (("dam-break", 20, 40, []), ("dam-break-3d", 60, 90, ["--particles", "3000"]),
                                    ("sph-dam-break", 20, 40, []), ("obstacles", 150, 300, [])):
        d = os.path.join(tmp, f"resume-{name}")
        s = clavet_scene(a, name, tmp)
        code, _, err = mpirun(a, 2, more + [s, "--steps", str(half), "--snapshot-every", str(half), "--out", d, "--vtk",
                                     "--export-every", str(half), "--quiet"])
        snap = os.path.join(d, f"snapshots/snap_{half:06d}.pdls")
        check(code == 0 and os.path.exists(snap), f"{name}: -np 2 wrote {snap}: exit {code} {err.strip()[-300:]}")
        code, out, err = mpirun(a, 3, more + [s, "--steps", str(whole), "--resume", snap, "--out", d, "--vtk",
                                       "--export-every", str(half), "--hash", "--quiet"])
        resumed = state_hash(out)
        code1, out1, _ = mpirun(a, 1, more + [s, "--steps", str(whole), "--hash", "--quiet", "--out", d + "-whole"])
        whole_hash = state_hash(out1)
        check(code == 0 and code1 == 0 and resumed is not None and resumed == whole_hash,
              f"{name}: -np 2 to frame {half} then -np 3 from its snapshot to {whole}: {resumed}; -np 1 to {whole}: "
              f"{whole_hash} {err.strip()[-300:] if code else ''}")
        if name == "dam-break":
            check_vtk(d, {0: 2, 20: 2, 40: 3}, (0, 20, 40), particles)

    # 3. one plain process and the split world read each other's snapshots
    d = os.path.join(tmp, "plain")
    code, out, err = plain(a, [scene, "--steps", "20", "--snapshot-every", "20", "--out", d, "--quiet"])
    snap = os.path.join(d, "snapshots/snap_000020.pdls")
    check(code == 0 and os.path.exists(snap), f"plain puddle run wrote {snap}: exit {code}")
    hashes = {}
    for n in (1, 3):
        code, out, err = mpirun(a, n, [scene, "--steps", "40", "--resume", snap, "--out", d + f"-np{n}", "--hash",
                                       "--quiet"])
        hashes[n] = state_hash(out) if code == 0 else f"exit {code}: {err.strip()[-200:]}"
    check(hashes[1] is not None and hashes[1] == hashes[3],
          f"a plain run's snapshot resumed by -np 1 and -np 3: {hashes[1]}, {hashes[3]}")
    mpi_snap = os.path.join(outs[3][0], "snapshots/snap_000020.pdls")
    code, out, err = plain(a, [scene, "--steps", "40", "--resume", mpi_snap, "--out", d + "-resumed"])
    check(code == 0 and "particles lost     0" in out,
          f"plain puddle run resumes the -np 3 snapshot to frame 40: exit {code} {err.strip()[-300:] if code else ''}")

    # 4. springs: a plain run's snapshot of the slime (8,000 particles, springs made and
    # stretched by frame 150) resumed over 1 and 3 processes, to the same hash: the springs
    # come through by partner id
    slime = f"{a.scenes}/slime.json"
    d = os.path.join(tmp, "slime")
    code, out, err = plain(a, [slime, "--particles", "8000", "--steps", "150", "--snapshot-every", "150", "--out", d,
                               "--quiet"])
    snap = os.path.join(d, "snapshots/snap_000150.pdls")
    check(code == 0 and os.path.exists(snap), f"plain puddle run wrote {snap}: exit {code}")
    hashes = {}
    for n in (1, 3):
        code, out, err = mpirun(a, n, [slime, "--particles", "8000", "--steps", "250", "--resume", snap, "--out",
                                       d + f"-np{n}", "--hash", "--quiet"])
        hashes[n] = state_hash(out) if code == 0 else f"exit {code}: {err.strip()[-200:]}"
    check(hashes[1] is not None and hashes[1] == hashes[3],
          f"a plain run's slime snapshot (springs) resumed by -np 1 and -np 3: {hashes[1]}, {hashes[3]}")
    # its CSV, PLY and snapshots over 3 processes are -np 1's bytes (a snapshot's springs name
    # partners by place in id order: each process asks the one whose id block holds a partner),
    # and -np 3's snapshot at frame 20 resumed on 2 processes ends at -np 1's hash
    for n in (1, 3):
        code, out, err = mpirun(a, n, [slime, "--steps", "40", "--csv", "--ply", "--export-every", "20",
                                       "--snapshot-every", "20", "--out", d + f"-files{n}", "--quiet", "--hash"])
        check(code == 0, f"slime -np {n} --csv --ply --snapshot-every: exit {code} {err.strip()[-200:]}")
        hashes[f"files{n}"] = state_hash(out)
    code, out, err = mpirun(a, 2, [slime, "--steps", "40", "--resume", d + "-files3/snapshots/snap_000020.pdls",
                                   "--out", d + "-resumed", "--quiet", "--hash"])
    check(code == 0 and state_hash(out) is not None and state_hash(out) == hashes["files1"],
          f"slime: -np 3's snapshot (springs) at 20 resumed on 2 to 40: {state_hash(out)}; -np 1: {hashes['files1']}")
    for f in ("csv/frame_000020.csv", "ply/frame_000020.ply", "snapshots/snap_000020.pdls", "snapshots/snap_000040.pdls"):
        p1, p3 = os.path.join(d + "-files1", f), os.path.join(d + "-files3", f)
        check(os.path.exists(p1) and os.path.exists(p3) and filecmp.cmp(p1, p3, shallow=False),
              f"slime {f}: -np 1 and -np 3 wrote the same bytes")

    # 3. bodies (float): process 0 writes their CSV and VTK (every process holds every body);
    # CSV, PLY, the bodies' CSV and VTK and the snapshots are -np 1's bytes from 3 processes, the
    # .pvd lists the bodies beside the particles, and -np 2 resumes -np 3's snapshot to -np 1's end
    fl = clavet_scene(a, "float", tmp)
    for n in (1, 3):
        code, out, err = mpirun(a, n, [fl, "--steps", "20", "--csv", "--ply", "--vtk", "--export-every", "10",
                                       "--snapshot-every", "10", "--out", os.path.join(tmp, f"float{n}"), "--quiet"])
        check(code == 0, f"float -np {n} --csv --ply --vtk --snapshot-every: exit {code} {err.strip()[-200:]}")
    for f in [f"{kind}/{what}_{k:06d}.{ext}" for k in (0, 10, 20)
              for kind, what, ext in (("csv", "frame", "csv"), ("ply", "frame", "ply"), ("csv", "bodies", "csv"),
                                      ("vtk", "bodies", "vtp"))] + \
             ["snapshots/snap_000010.pdls", "snapshots/snap_000020.pdls", "float.pvd"]:
        p1, p3 = os.path.join(tmp, "float1", f), os.path.join(tmp, "float3", f)
        check(os.path.exists(p1) and os.path.exists(p3) and filecmp.cmp(p1, p3, shallow=False),
              f"float {f}: -np 1 and -np 3 wrote the same bytes")
    pvd = open(os.path.join(tmp, "float3", "float.pvd")).read() if os.path.exists(os.path.join(tmp, "float3", "float.pvd")) else ""
    check(pvd.count("vtk/bodies_") == 3 and pvd.count("vtk/frame_") == 3, "float.pvd lists 3 particle and 3 body frames")
    code, out, err = mpirun(a, 2, [fl, "--steps", "20", "--resume", os.path.join(tmp, "float3", "snapshots/snap_000010.pdls"),
                                   "--hash", "--quiet", "--out", os.path.join(tmp, "float-resumed")])
    code1, out1, _ = mpirun(a, 1, [fl, "--steps", "20", "--hash", "--quiet", "--out", os.path.join(tmp, "float-whole")])
    check(code == 0 and state_hash(out) is not None and state_hash(out) == state_hash(out1),
          f"float: -np 3's snapshot at 10 resumed on 2 to 20: {state_hash(out)}; -np 1: {state_hash(out1)}")


if __name__ == "__main__":
    sys.exit(main())
