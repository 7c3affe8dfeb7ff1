#!/usr/bin/env python3
"""puddle over MPI (docs/mpi.md): `mpirun -np N puddle run SCENE --hash` gives the same state hash
for N = 1, 2, 3, 4 processes and 1 or 2 threads each, in 2D and 3D; a bad scene or a world the
layer cannot split is reported once, and every process exits 2.

    mpi_test.py --puddle build/apps/cli/puddle --scenes scenes [--mpirun mpirun]
"""
import re
import sys

from mpi_common import arguments, check, mpirun, summary


def main():
    a = arguments()

    # (scene, frames): 2D and 3D Clavet, one material and three of different masses
    for scene, frames in (("dam-break", 60), ("dam-break-3d", 20), ("stratify", 40), ("drop", 40)):
        hashes = {}
        for n in (1, 2, 3, 4):
            threads = 2 if n % 2 else 1
            code, out, err = mpirun(a, n, [f"{a.scenes}/{scene}.json", "--steps", str(frames),
                                           "--threads", str(threads), "--hash"])
            found = re.search(r"state hash \(ids\)\s+([0-9a-f]{16})", out)
            halo = re.search(r"halo particles\s+(\d+)", out)
            check(code == 0 and found is not None,
                  f"{scene}, {n} processes x {threads} threads: exit {code}, hash printed once "
                  f"({out.count('state hash')} lines){' ' + err.strip() if code else ''}")
            if found:
                hashes[n] = found.group(1)
                print(f"    {scene} -np {n}: {found.group(1)}, halo {halo.group(1) if halo else '?'} "
                      "particles a process a frame", flush=True)
        check(len(set(hashes.values())) == 1 and len(hashes) == 4,
              f"{scene}: the same hash for 1, 2, 3 and 4 processes ({sorted(set(hashes.values()))})")

    # refusals: reported once (by process 0), exit 2 from mpirun (every process exits 2)
    for args, what in (([f"{a.scenes}/no-such-scene.json"], "a missing scene"),
                       ([f"{a.scenes}/sph-dam-break.json"], "an SPH world"),
                       ([f"{a.scenes}/float.json"], "a world with bodies"),
                       ([f"{a.scenes}/dam-break.json", "--video", "x.mp4"], "an option not split yet")):
        code, out, err = mpirun(a, 3, args + ["--steps", "2"])
        lines = [line for line in err.splitlines() if line.startswith("puddle") or "scene" in line]
        check(code == 2 and len(lines) == 1,
              f"{what}: exit {code} (want 2), {len(lines)} message line(s): {lines[:1]}")

    return summary()


if __name__ == "__main__":
    sys.exit(main())
