#!/usr/bin/env python3
"""DFSPH over MPI (docs/mpi.md, "DFSPH"): `mpirun -np N puddle run SCENE --hash` gives the same state
hash for N = 1, 2, 3, 4 processes (1 or 2 threads each) with the DFSPH solver, in 2D (the shipped
dfsph-dam-break) and 3D (dam-break-3d with its solver, 3,000 particles), and with surface tension
and two materials of different densities (the passes' other branches), and with rigid bodies (2D
float's boxes, a box dropped on the 3D column); with PUDDLE_MPI_HALO=1 a DFSPH world is refused,
once, exit 2; a split run's snapshot is one process's and resumes to the uninterrupted run's hash.

    mpi_dfsph_test.py --puddle build/apps/cli/puddle --scenes scenes [--mpirun mpirun]
"""
import json
import os
import re
import shutil
import sys
import tempfile

from mpi_common import arguments, check, mpirun, plain, state_hash, summary


def same_for_all(a, name, args, counts=(1, 2, 3, 4)):
    hashes = {}
    for n in counts:
        threads = 2 if n % 2 else 1
        code, out, err = mpirun(a, n, args + ["--threads", str(threads), "--hash"])
        found = state_hash(out)
        ghosts = re.search(r"ghost particles\s+(\d+)", out)
        check(code == 0 and found is not None and "ghosts exchanged each substep" in out,
              f"{name}, {n} processes x {threads} threads: exit {code}, hash printed once, with ghosts"
              f"{' ' + err.strip()[-300:] if code else ''}")
        if found:
            hashes[n] = found
            print(f"    {name} -np {n}: {found}, ghosts {ghosts.group(1) if ghosts else '?'} a process a substep",
                  flush=True)
    check(len(hashes) == len(counts) and len(set(hashes.values())) == 1,
          f"{name}: the same hash for {', '.join(map(str, counts))} processes ({sorted(set(hashes.values()))})")


def main():
    a = arguments()
    work = tempfile.mkdtemp(prefix="puddle-mpi-dfsph-")
    with open(f"{a.scenes}/dfsph-dam-break.json") as f:
        dfsph = json.load(f)

    # 2D: the shipped scene, 120 frames (2 s: the surge hits the far wall and climbs it)
    same_for_all(a, "dfsph-dam-break", [f"{a.scenes}/dfsph-dam-break.json", "--steps", "120"])

    # snapshots carry the solves' warm start: -np 2's snapshot at frame 20 is -np 1's, byte for
    # byte, and resumed on 1 and on 3 processes ends at the uninterrupted run's hash
    # (-np 1 runs on to 40 past its snapshot: the uninterrupted run, not stepped twice to 20)
    code, out, err = mpirun(a, 1, [f"{a.scenes}/dfsph-dam-break.json", "--steps", "40", "--snapshot-every", "20",
                                   "--out", f"{work}/snap1", "--hash"])
    whole = state_hash(out)
    mpirun(a, 2, [f"{a.scenes}/dfsph-dam-break.json", "--steps", "20", "--snapshot-every", "20",
                  "--out", f"{work}/snap2"])
    snaps = [f"{work}/snap{n}/snapshots/snap_000020.pdls" for n in (1, 2)]
    same_bytes = all(os.path.exists(p) for p in snaps) and open(snaps[0], "rb").read() == open(snaps[1], "rb").read()
    resumed = []
    for n in (1, 3):
        code, out, err = mpirun(a, n, [f"{a.scenes}/dfsph-dam-break.json", "--resume", snaps[1], "--steps", "40",
                                       "--hash"])
        resumed.append(state_hash(out))
    check(same_bytes and whole is not None and resumed == [whole, whole],
          f"dfsph-dam-break: -np 2's snapshot at 20 {'is' if same_bytes else 'is not'} -np 1's; resumed to 40 on 1 "
          f"and 3 processes {resumed}, uninterrupted {whole}")

    # 3D: dam-break-3d with dfsph-dam-break's solver and water, 3,000 particles
    with open(f"{a.scenes}/dam-break-3d.json") as f:
        d3 = json.load(f)
    d3["solver"] = dfsph["solver"]
    d3["materials"] = dfsph["materials"]
    d3["world"]["substeps"] = 1
    d3["name"] = "dfsph-dam-break-3d"
    path3 = os.path.join(work, "dfsph-dam-break-3d.json")
    with open(path3, "w") as f:
        json.dump(d3, f)
    same_for_all(a, "3D DFSPH dam break (3,000)", [path3, "--particles", "3000", "--steps", "30"])

    # surface tension (the ghosts' densities and normals) and two materials of different rest
    # densities (the passes' non-uniform branch): a heavy column beside a light one
    mixed = json.loads(json.dumps(dfsph))
    mixed["solver"]["surface_tension"] = 0.5
    mixed["materials"].append({"name": "oil", "rest_density": 2, "color": "#d4a22a"})
    mixed["fills"] = [
        {"shape": "box", "material": "water", "position": [-13.5, -1], "half_extents": [2.5, 9]},
        {"shape": "box", "material": "oil", "position": [-8.5, -1], "half_extents": [2.5, 9]},
    ]
    mixed_path = os.path.join(work, "dfsph-mixed.json")
    with open(mixed_path, "w") as f:
        json.dump(mixed, f)
    same_for_all(a, "2D DFSPH, two materials and surface tension", [mixed_path, "--steps", "40"], counts=(1, 2, 3))

    # rigid bodies: every process steps every body; the particles in a body's zone go to every
    # process as ghosts. float's four boxes in 2D; in 3D a box dropped onto the 3D column
    with open(f"{a.scenes}/float.json") as f:
        floating = json.load(f)
    floating["solver"] = dfsph["solver"]
    floating["materials"] = dfsph["materials"]
    float_path = os.path.join(work, "float-dfsph.json")
    with open(float_path, "w") as f:
        json.dump(floating, f)
    same_for_all(a, "float with DFSPH (four boxes)", [float_path, "--steps", "30"], counts=(1, 2, 3))
    d3["bodies"] = [{"shape": "box", "position": [-11, 8, 0], "half_extents": [1.5, 1.5, 1.5], "density": 0.5}]
    box3_path = os.path.join(work, "dfsph-box-3d.json")
    with open(box3_path, "w") as f:
        json.dump(d3, f)
    same_for_all(a, "3D DFSPH, a box dropped on the column", [box3_path, "--particles", "3000", "--steps", "40"],
                 counts=(1, 3))

    # the halo cannot split DFSPH (its solves need ghosts): refused once, exit 2
    os.environ["PUDDLE_MPI_HALO"] = "1"
    code, out, err = mpirun(a, 2, [f"{a.scenes}/dfsph-dam-break.json", "--steps", "2"])
    del os.environ["PUDDLE_MPI_HALO"]
    lines = [line for line in err.splitlines() if "DFSPH" in line]
    check(code == 2 and len(lines) == 1 and "PUDDLE_MPI_HALO" in lines[0],
          f"DFSPH with PUDDLE_MPI_HALO=1: exit {code} (want 2), {len(lines)} message line(s): {lines[:1]}")

    shutil.rmtree(work, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
