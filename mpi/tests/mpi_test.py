#!/usr/bin/env python3
"""puddle over MPI (docs/mpi.md): `mpirun -np N puddle run SCENE --hash` gives the same state hash
for N = 1, 2, 3, 4 processes and 1 or 2 threads each, in 2D and 3D, Clavet and SPH, with
strokes and emitters (which add as many particles as in one process), springs across the cuts, rigid bodies (2D, 3D,
Clavet and SPH; every process steps every body); a bad scene or an option the layer cannot split is reported once, and
every process exits 2.

    mpi_test.py --puddle build/apps/cli/puddle --scenes scenes [--mpirun mpirun]
"""
import json
import os
import re
import shutil
import sys
import tempfile

from mpi_common import arguments, check, clavet_scene, mpirun, plain, state_hash, summary


def main():
    a = arguments()
    work = tempfile.mkdtemp(prefix="puddle-mpi-")

    # (scene, frames): 2D and 3D Clavet, one material and three of different masses; scripted
    # strokes (blobs: the first stroke acts in frames 180-252) and emitters (obstacles, lava:
    # they start empty and every particle comes from the emitter, added on every process)
    # (each run's hash and output are kept in `runs` by scene, frames and process count: the
    # checks below that need the same run take it from there instead of running it again; the
    # thread count changes no bit, core.determinism)
    runs = {}
    for scene, frames in (("dam-break", 60), ("dam-break-3d", 20), ("stratify", 40), ("drop", 40),
                          ("blobs", 240), ("obstacles", 400), ("lava", 300), ("sph-dam-break", 60),
                          ("slime", 120), ("float", 120), ("dam-break-boxes", 60), ("boats-3d", 20)):
        hashes = {}
        # every split of the tank for the dam breaks, blobs' strokes and float's bodies; the
        # others one process against three (a slab with neighbours on both sides)
        counts = (1, 2, 3, 4) if scene in ("dam-break", "dam-break-3d", "blobs", "float") else (1, 3)
        for n in counts:
            threads = 2 if n % 2 else 1
            code, out, err = mpirun(a, n, [clavet_scene(a, scene, work), "--steps", str(frames),
                                           "--threads", str(threads), "--hash"])
            found = re.search(r"state hash \(ids\)\s+([0-9a-f]{16})", out)
            halo = re.search(r"halo particles\s+(\d+)", out)
            check(code == 0 and found is not None,
                  f"{scene}, {n} processes x {threads} threads: exit {code}, hash printed once "
                  f"({out.count('state hash')} lines){' ' + err.strip() if code else ''}")
            runs[scene, frames, n] = (code, out)
            if found:
                hashes[n] = found.group(1)
                print(f"    {scene} -np {n}: {found.group(1)}, halo {halo.group(1) if halo else '?'} "
                      "particles a process a frame", flush=True)
        check(len(set(hashes.values())) == 1 and len(hashes) == len(counts),
              f"{scene}: the same hash for {counts} processes ({sorted(set(hashes.values()))})")
        if scene in ("obstacles", "lava"):  # the emitters add what they add in one process
            code, out, err = plain(a, [clavet_scene(a, scene, work), "--steps", str(frames), "--out", work])
            alone = re.search(r"particles\s+(\d+)\n", out)
            code, out = runs[scene, frames, 3]  # the -np 3 run above
            split = re.search(r"particles\s+\d+ -> (\d+)", out)
            check(alone is not None and split is not None and alone.group(1) == split.group(1) and
                  int(alone.group(1)) > 100,
                  f"{scene}: {split.group(1) if split else '?'} particles emitted over 3 processes, "
                  f"{alone.group(1) if alone else '?'} in one")

    # a plain run's --hash is the same definition (pdl_world_hash_ids) of the same state: the scene
    # layer builds the world in the grid frame the split run uses (pdl_world_fixed_grid_frame), so
    # it prints mpirun's hash at any frame, in 2D and 3D, Clavet and (dam-break as shipped) DFSPH
    for scene, frames, water in (("dam-break", 60, "clavet"), ("dam-break-3d", 20, "clavet"), ("dam-break", 30, "dfsph")):
        path = clavet_scene(a, scene, work) if water == "clavet" else f"{a.scenes}/{scene}.json"
        code, out, err = plain(a, [path, "--steps", str(frames), "--hash", "--out", work])
        alone = state_hash(out)
        for n in (1, 3):
            # the Clavet runs are the first loop's (the same scene file, frames and process count)
            if (scene, frames, n) in runs and water == "clavet":
                code, out = runs[scene, frames, n]
            else:
                code, out, err = mpirun(a, n, [path, "--steps", str(frames), "--hash"])
            check(alone is not None and state_hash(out) == alone,
                  f"{scene} ({water}), {frames} frames: a plain run's --hash {alone} is mpirun -np {n}'s "
                  f"{state_hash(out)}")

    # SPH in 3D (no shipped scene: dam-break-3d with sph-dam-break's solver), 5,000 particles;
    # the CFL rule's substeps from the whole world's fastest particle, so the same in every process
    with open(clavet_scene(a, "dam-break-3d", work)) as f:
        sph3d = json.load(f)
    with open(f"{a.scenes}/sph-dam-break.json") as f:
        solver = json.load(f)["solver"]
    sph3d["solver"].update({k: v for k, v in solver.items() if k != "interaction_radius"})
    sph3d_path = os.path.join(work, "sph-dam-break-3d.json")
    with open(sph3d_path, "w") as f:
        json.dump(sph3d, f)
    hashes = []
    for n, threads in ((1, 2), (3, 1)):
        code, out, err = mpirun(a, n, [sph3d_path, "--particles", "5000", "--steps", "20", "--threads", str(threads),
                                       "--hash"])
        hashes.append(state_hash(out))
        print(f"    3D SPH -np {n}: {hashes[-1]}", flush=True)
    check(None not in hashes and len(set(hashes)) == 1, f"3D SPH: the same hash for 1 and 3 processes ({hashes})")

    # springs across the cuts at 20,000 particles: the slime splashes at up to 65 h/s and
    # stretches its springs to 11.5 h by frame 180, past a fixed 14 h halo (which lost bits
    # there); the halo now grows with the fastest particle and the longest spring
    hashes = []
    for n, threads in ((1, 2), (3, 1)):
        code, out, err = mpirun(a, n, [f"{a.scenes}/slime.json", "--particles", "20000", "--steps", "200",
                                       "--threads", str(threads), "--hash"])
        hashes.append(state_hash(out))
        print(f"    slime 20k -np {n}: {hashes[-1]}", flush=True)
    check(None not in hashes and len(set(hashes)) == 1, f"slime, 20k, 200 frames: the same hash for 1 and 3 processes ({hashes})")

    # bodies under SPH (float with sph-dam-break's solver): every process steps every body from
    # the same particles near it
    with open(clavet_scene(a, "float", work)) as f:
        float_sph = json.load(f)
    float_sph["solver"] = solver
    float_sph_path = os.path.join(work, "float-sph.json")
    with open(float_sph_path, "w") as f:
        json.dump(float_sph, f)
    hashes = []
    for n, threads in ((1, 2), (2, 1), (4, 1)):
        code, out, err = mpirun(a, n, [float_sph_path, "--steps", "60", "--threads", str(threads), "--hash"])
        hashes.append(state_hash(out))
        print(f"    float, SPH -np {n}: {hashes[-1]}", flush=True)
    check(None not in hashes and len(set(hashes)) == 1, f"float under SPH: the same hash for 1, 2 and 4 processes ({hashes})")

    # the halo's check: with PUDDLE_MPI_TIGHT_HALO=1 the layer predicts no motion, so frames that
    # move are stepped again with a wider halo (and the bodies' zones, each body put back where
    # the frame started: float in 2D, boats-3d's turned boats in 3D); the hash is still -np 1's
    for scene, frames in (("float", 40), ("boats-3d", 10)):
        os.environ["PUDDLE_MPI_TIGHT_HALO"] = "1"
        code, out, err = mpirun(a, 3, [clavet_scene(a, scene, work), "--steps", str(frames), "--hash"])
        del os.environ["PUDDLE_MPI_TIGHT_HALO"]
        tight, widened = state_hash(out), re.search(r"halo widened\s+(\d+) of", out)
        code1, out1, err1 = mpirun(a, 1, [clavet_scene(a, scene, work), "--steps", str(frames), "--hash"])
        check(tight is not None and tight == state_hash(out1) and widened is not None and int(widened.group(1)) == frames,
              f"{scene}, halo and bodies' zones predicted without motion: -np 3 {tight} "
              f"({widened.group(1) if widened else 'no'} frames widened), -np 1 {state_hash(out1)}")
    os.environ["PUDDLE_MPI_TIGHT_HALO"] = "1"
    os.environ["PUDDLE_MPI_HALO"] = "1"  # dam-break steps with ghosts otherwise (below)
    code, out, err = mpirun(a, 3, [clavet_scene(a, "dam-break", work), "--particles", "6000", "--steps", "60", "--hash"])
    del os.environ["PUDDLE_MPI_TIGHT_HALO"]
    del os.environ["PUDDLE_MPI_HALO"]
    tight = state_hash(out)
    widened = re.search(r"halo widened\s+(\d+) of", out)
    code1, out1, err1 = mpirun(a, 1, [clavet_scene(a, "dam-break", work), "--particles", "6000", "--steps", "60", "--hash"])
    check(tight is not None and tight == state_hash(out1) and widened is not None and int(widened.group(1)) > 10,
          f"dam-break, 6,000, 60 frames, halo predicted without motion: -np 3 {tight} "
          f"({widened.group(1) if widened else 'no'} frames widened), -np 1 {state_hash(out1)}")

    # ghosts and the halo, two ways to split the same world, give the same bits: a Clavet world
    # without springs or bodies steps with ghosts exchanged each substep, and with
    # PUDDLE_MPI_HALO=1 with a halo once a frame (each against -np 1, which has no ghosts)
    for scene, frames in (("dam-break", 60), ("dam-break-3d", 20), ("obstacles", 200)):
        if (scene, frames, 3) in runs:  # the first loop's -np 3 run (dam-break, dam-break-3d)
            code, out = runs[scene, frames, 3]
        else:
            code, out, err = mpirun(a, 3, [clavet_scene(a, scene, work), "--steps", str(frames), "--hash"])
        ghosts = state_hash(out)
        says_ghosts = "ghosts exchanged each substep" in out and "ghost particles" in out
        os.environ["PUDDLE_MPI_HALO"] = "1"
        code, out, err = mpirun(a, 2, [clavet_scene(a, scene, work), "--steps", str(frames), "--hash"])
        del os.environ["PUDDLE_MPI_HALO"]
        halo = state_hash(out)
        check(ghosts is not None and ghosts == halo and says_ghosts and "halo particles" in out,
              f"{scene}: ghosts (-np 3) {ghosts}, halo (-np 2, PUDDLE_MPI_HALO=1) {halo}")

    # the strokes act: blobs without them ends elsewhere (the split run does not drop the pointers)
    with open(f"{a.scenes}/blobs.json") as f:
        still = json.load(f)
    still.pop("strokes")
    still_path = os.path.join(work, "blobs-still.json")
    with open(still_path, "w") as f:
        json.dump(still, f)
    code, out, err = mpirun(a, 2, [still_path, "--steps", "240", "--hash"])
    without = state_hash(out)
    code, out = runs["blobs", 240, 2]  # the first loop's -np 2 run of blobs.json as shipped
    check(without is not None and state_hash(out) not in (None, without),
          f"blobs: strokes change the state ({state_hash(out)} with, {without} without)")

    # refusals: reported once (by process 0), exit 2 from mpirun (every process exits 2)
    for args, what in (([f"{a.scenes}/no-such-scene.json"], "a missing scene"),
                       ([clavet_scene(a, "dam-break", work), "--video", "x.mp4"], "an option not split yet")):
        code, out, err = mpirun(a, 3, args + ["--steps", "2"])
        lines = [line for line in err.splitlines() if line.startswith("puddle") or "scene" in line]
        check(code == 2 and len(lines) == 1,
              f"{what}: exit {code} (want 2), {len(lines)} message line(s): {lines[:1]}")

    shutil.rmtree(work, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
