"""What the MPI test scripts share: checks that count failures, and puddle run under mpirun or alone.

    import mpi_common as t
    a = t.arguments()
    code, out, err = t.mpirun(a, 3, [scene, "--steps", "20", "--hash"])
    t.check(code == 0, "exit 0")
    sys.exit(t.summary())
"""
import argparse
import json
import os
import re
import subprocess

failures = 0

# How Open MPI runs the tests' jobs on one machine, where a user's own setting is kept: in shared
# memory (the ob1 layer over self and vader, without probing UCX, libfabric and InfiniBand at
# every start), each process free to run on any core (by default mpirun binds one or two
# processes to a core each, so `-np 1 --threads 2` runs both threads on one core), and waiting
# processes yielding their core rather than spinning (ctest runs another test beside, and -np 3
# or 4 share two cores): docs/mpi.md, "What it costs". The hashes and files are the same bits.
for _name, _value in (("OMPI_MCA_pml", "ob1"), ("OMPI_MCA_btl", "self,vader"),
                      ("OMPI_MCA_hwloc_base_binding_policy", "none"), ("OMPI_MCA_mpi_yield_when_idle", "1")):
    os.environ.setdefault(_name, _value)


def check(ok, message):
    global failures
    print(("ok: " if ok else "FAIL: ") + message, flush=True)
    if not ok:
        failures += 1


def summary():
    print("PASS" if failures == 0 else f"{failures} FAILED")
    return 1 if failures else 0


def arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--puddle", required=True)
    parser.add_argument("--scenes", required=True)
    parser.add_argument("--mpirun", default="mpirun")
    parser.add_argument("--shim", help="io_fault.so (apps/cli/tests/io_fault.c), for the fault-injection tests")
    parser.add_argument("--long", action="store_true", help="the fault-injection sweep at many write calls, not a few")
    return parser.parse_args()


def mpirun_command(a, n, args):
    return [a.mpirun, "--allow-run-as-root", "--oversubscribe", "-np", str(n), a.puddle, "run"] + args


def mpirun(a, n, args, timeout=600):
    done = subprocess.run(mpirun_command(a, n, args), stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=timeout)
    return done.returncode, done.stdout, done.stderr


def plain(a, args):
    """puddle run in one process, without mpirun."""
    done = subprocess.run([a.puddle, "run"] + args, stdin=subprocess.DEVNULL, capture_output=True, text=True,
                          timeout=600)
    return done.returncode, done.stdout, done.stderr


def state_hash(out):
    """The hash the split run prints (once), or None."""
    found = re.findall(r"state hash \(ids\)\s+([0-9a-f]{16})", out)
    return found[0] if len(found) == 1 else None


# The shipped water scenes (dam-break, drop, float, obstacles, boats-3d, ...) run DFSPH, which
# mpi.dfsph splits. The tests of the layer's other paths (the halo, springs and bodies across
# cuts, Clavet's passes over ghosts) take the same scenes with Clavet's water instead, made here.
CLAVET_WATER = {"stiffness": 60, "near_stiffness": 30, "viscosity_sigma": 0.3, "viscosity_beta": 0.1}


def clavet_scene(a, name, work):
    """The path of scenes/NAME.json, or for a DFSPH scene of a copy in `work` with Clavet's water
    (two substeps a frame, the solver's DFSPH settings dropped)."""
    path = f"{a.scenes}/{name}.json"
    with open(path) as f:
        scene = json.load(f)
    if scene.get("solver", {}).get("kind") != "dfsph":
        return path
    keep = ("interaction_radius", "threads", "max_particles", "backend")
    scene["solver"] = {k: v for k, v in scene["solver"].items() if k in keep}
    scene["world"]["substeps"] = 2
    for material in scene["materials"]:
        for key, value in CLAVET_WATER.items():
            material.setdefault(key, value)
    out = os.path.join(work, f"{name}.json")  # (the same file name: the output folder's name)
    with open(out, "w") as f:
        json.dump(scene, f)
    return out
