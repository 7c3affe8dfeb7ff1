#!/usr/bin/env python3
"""The optional parts of this build and the optional tools on PATH (ctest -R cli.optional_tools).

Each is named with what it serves and how to install it. Where some are missing the test reports
itself skipped with the list (exit 77, ctest's SKIP_RETURN_CODE), so a plain `ctest` passes on a
machine without them; with PUDDLE_TEST_ALL=1, which `make test` sets after installing
everything, a missing one is a failure, so CI catches a missing install step even where the
tests of that part would simply not be registered.

Usage: optional_tools.py NAME=0|1 ...   (the parts CMake built: mpi, vdb, chipmunk, viewer)"""
import os
import shutil
import sys

PARTS = {
    "mpi": "the MPI layer and its tests mpi.* (scripts/install-deps.sh mpi: Open MPI)",
    "vdb": "puddle run --vdb (scripts/install-deps.sh vdb: OpenVDB)",
    "chipmunk": "examples/chipmunk_float, example.chipmunk_float (scripts/install-deps.sh examples: Chipmunk2D)",
    "viewer": "puddle-view and its tests viewer_* (scripts/install-deps.sh viewer: SDL2, Dear ImGui)",
}
TOOLS = {
    "blender": "cli.blender (scripts/install-deps.sh blender)",
    "ffmpeg": "--video and its checks in cli.end_to_end, cli.faults (scripts/install-deps.sh io)",
    "xvfb-run": "the viewer's display tests viewer_* (scripts/install-deps.sh viewer)",
    "mpirun": "the MPI tests mpi.* (scripts/install-deps.sh mpi)",
}


def main():
    built = dict(a.split("=", 1) for a in sys.argv[1:])
    missing = [f"not built: {name}: {why}" for name, why in PARTS.items() if built.get(name, "0") not in ("1", "ON")]
    missing += [f"not on PATH: {tool}: {why}" for tool, why in TOOLS.items() if shutil.which(tool) is None]
    if not missing:
        print("every optional part is built and every optional tool is on PATH")
        return 0
    everything = os.environ.get("PUDDLE_TEST_ALL") == "1"
    print(("FAILED (PUDDLE_TEST_ALL=1 asks for everything)" if everything else "SKIPPED") + ": " +
          f"{len(missing)} optional thing{'s' if len(missing) > 1 else ''} missing:")
    for line in missing:
        print("  " + line)
    return 1 if everything else 77


if __name__ == "__main__":
    sys.exit(main())
