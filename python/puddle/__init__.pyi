from os import PathLike
from typing import Any, Dict, Optional, Union

from ._puddle import (
    MAX_MATERIALS as MAX_MATERIALS,
    MAX_POINTERS as MAX_POINTERS,
    PuddleError as PuddleError,
    SceneError as SceneError,
    SnapshotError as SnapshotError,
    World as World,
    core_version as core_version,
    error_names as error_names,
    parse_scene as parse_scene,
    rest_spacing as rest_spacing,
    vector_loops as vector_loops,
    write_png as write_png,
)

__version__: str

def load_scene(scene: Union[str, PathLike, Dict[str, Any]], threads: Optional[int] = None,
               particles: float = 0) -> World:
    """Builds a World from a scene file or a dict with its keys (docs/scenes.md)."""
