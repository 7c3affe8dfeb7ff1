"""puddle: particle fluids in Python (Clavet 2005, SPH, DFSPH; 2D and 3D), with numpy arrays.

    import puddle
    w = puddle.load_scene("scenes/dam-break.json")
    w.step(120)                 # 120 frames, as `puddle run --steps 120`
    print(w.state_hash())       # the hash `puddle run` prints
    x, y = w.x, w.y             # zero-copy float32 views (read-only; take them again after a step)

A thin binding over the C library and its io library: see python/README.md.
"""
import json as _json
import os as _os

from ._puddle import (  # noqa: F401
    MAX_MATERIALS,
    MAX_POINTERS,
    ExportError,
    PuddleError,
    SceneError,
    SnapshotError,
    World,
    core_version,
    error_names,
    parse_scene,
    rest_spacing,
    vector_loops,
    write_png,
)
from ._puddle import load_scene as _load_scene_file

__version__ = core_version

__all__ = [
    "World", "load_scene", "parse_scene", "write_png", "error_names", "rest_spacing", "vector_loops",
    "PuddleError", "SceneError", "SnapshotError", "ExportError", "MAX_MATERIALS", "MAX_POINTERS", "__version__",
]


def load_scene(scene, threads=None, particles=0):
    """Builds a World from a scene: a path to a scene file (docs/scenes.md), or a dict with the
    file's keys (a scene built in code). `threads` overrides solver.threads (0: every core);
    `particles` rescales the scene to about that many particles, as `puddle run --particles`.
    Raises SceneError with the JSON path and rule of what was refused."""
    if isinstance(scene, dict):
        return parse_scene(_json.dumps(scene), name=str(scene.get("name", "scene")), threads=threads,
                           particles=particles)
    return _load_scene_file(_os.fspath(scene), threads=threads, particles=particles)
