"""Type stubs of puddle's C binding. Units and ranges of every field: include/puddle/types.h
and docs/scenes.md."""
from os import PathLike
from typing import Any, Dict, List, Literal, Optional, Sequence, Tuple, Union

import numpy as np
import numpy.typing as npt

Path = Union[str, bytes, PathLike]
Vec = Sequence[float]
Solver = Literal["clavet", "sph", "dfsph"]

MAX_MATERIALS: int
MAX_POINTERS: int
core_version: str

class PuddleError(ValueError):
    """A call the core refused.

    id: the error id, e.g. "PDL_ERR_MATERIAL_REST_DENSITY", one list for the core, the scene files
    and snapshots ("PDL_ERR_SCENE_VALUE", "PDL_ERR_SNAPSHOT_CORRUPT", ...; None for errors of the
    Python layer); code: its number (error_names()[code] == id); struct, field and rule: what the
    rule is about ("material", "rest_density", "must be finite and > 0"); value: the value that
    broke it (None where the rule is not about one number)."""

    id: Optional[str]
    code: Optional[int]
    struct: Optional[str]
    field: Optional[str]
    rule: Optional[str]
    value: Optional[float]

class SceneError(PuddleError):
    """A scene file or text refused: id (PDL_ERR_SCENE_VALUE, PDL_ERR_SCENE_KEY,
    PDL_ERR_SCENE_SYNTAX, PDL_ERR_FILE_OPEN, ... or the engine's own), file, path (the JSON path,
    also in field), rule, and for a JSON syntax error its line and column (1-based; 0 otherwise)."""

    file: Optional[str]
    path: str
    line: int
    column: int

class SnapshotError(PuddleError):
    """A snapshot that could not be written or read (id PDL_ERR_FILE_OPEN, PDL_ERR_SNAPSHOT_CORRUPT,
    ...), or one made from another scene (PDL_ERR_SNAPSHOT_WORLD)."""

class ExportError(PuddleError, OSError):
    """A file that could not be written by export_csv, export_vtk, export_ply, export_bodies_csv,
    export_bodies_vtk or write_png: id (PDL_ERR_FILE_OPEN, PDL_ERR_FILE_WRITE, ...), file (the
    path), rule. An OSError too, so `except OSError` catches it."""

    file: Optional[str]

class World:
    """A puddle world. World(**fields) builds an empty one from the fields of pdl_world_def
    (dimensions, interaction_radius, dt, substeps, gravity, threads, max_particles, solver,
    sph={...}, backend); puddle.load_scene() builds one from a scene.

    Particle arrays (x, y, z, vx, vy, vz, density, pressure, material, ids) are read-only numpy
    views of the world's own memory, in its storage order, which changes every step (follow a
    particle by its id). A view shows the state when it was taken: after the next step or change
    what it shows is undefined (the new state or the engine's scratch buffer); take it again. A live view keeps its world
    alive, and calls that may add particles (and so move the arrays: fill, add_particles,
    load_snapshot, a step while an emitter runs) raise BufferError while one is alive: delete
    it, or keep a copy (w.x.copy()). positions and velocities are new (n, dimensions) arrays.

    One thread at a time: step() releases the GIL while it runs, and any call from another
    thread meanwhile raises RuntimeError."""

    def __init__(
        self,
        *,
        dimensions: int = ...,
        interaction_radius: float = ...,
        dt: float = ...,
        substeps: int = ...,
        gravity: Vec = ...,
        threads: int = ...,
        max_particles: int = ...,
        solver: Union[Solver, int] = ...,
        sph: Dict[str, Any] = ...,
        backend: Literal["cpu", "cuda"] = ...,
    ) -> None: ...

    # ---- stepping and the state hash
    def step(self, frames: int = 1) -> None:
        """Advances `frames` frames of world.dt seconds, each with the scene's scripted events
        first (emitters, pointer strokes), as `puddle run --steps` does."""
    def state_hash(self) -> str:
        """The FNV-1a hash of the state as 16 hex digits, as `puddle run` prints it: equal
        hashes mean bitwise-equal states."""
    def _c_step_seconds(self, frames: int) -> float:
        """Seconds that `frames` bare pdl_world_step() calls take, timed in C (no scene events):
        what python/bench_overhead.py measures step() against."""

    # ---- particles
    @property
    def x(self) -> npt.NDArray[np.float32]: ...
    @property
    def y(self) -> npt.NDArray[np.float32]: ...
    @property
    def z(self) -> Optional[npt.NDArray[np.float32]]:
        """3D worlds; None in 2D."""
    @property
    def vx(self) -> npt.NDArray[np.float32]: ...
    @property
    def vy(self) -> npt.NDArray[np.float32]: ...
    @property
    def vz(self) -> Optional[npt.NDArray[np.float32]]: ...
    @property
    def density(self) -> npt.NDArray[np.float32]:
        """Kernel density at the last step (Clavet: sum (1 - r/h)^2; SPH, DFSPH: mass density)."""
    @property
    def pressure(self) -> npt.NDArray[np.float32]: ...
    @property
    def material(self) -> npt.NDArray[np.uint8]: ...
    @property
    def ids(self) -> npt.NDArray[np.uint32]:
        """Stable ids, unique in the world."""
    @property
    def positions(self) -> npt.NDArray[np.float32]:
        """A new (n, dimensions) array."""
    @property
    def velocities(self) -> npt.NDArray[np.float32]:
        """A new (n, dimensions) array."""
    @property
    def views(self) -> int:
        """numpy views of the particle arrays alive now."""
    @property
    def particle_count(self) -> int: ...
    @property
    def next_id(self) -> int: ...
    def fill(self, *, shape: Literal["point", "line", "disc", "ball", "box", "spiral"] = ..., material: int = ...,
             position: Vec = ..., end: Vec = ..., radius: float = ..., half_extents: Vec = ...,
             spacing: float = ..., count: int = ..., velocity: Vec = ...) -> int:
        """Adds particles in a shape (spacing 0: at the material's rest density); returns how many."""
    def add_particles(self, positions: npt.ArrayLike, velocities: Optional[npt.ArrayLike] = None,
                      material: Union[int, npt.ArrayLike] = 0) -> npt.NDArray[np.uint32]:
        """Appends particles from (n, dimensions) arrays; returns their new ids."""
    def set_particles(self, positions: Optional[npt.ArrayLike] = None,
                      velocities: Optional[npt.ArrayLike] = None) -> None:
        """New positions and/or velocities for every particle, (n, dimensions) arrays in the
        current storage order (as w.positions gives them); ids, materials and springs stay."""
    def remove_particles(self, ids: npt.ArrayLike) -> int:
        """Removes the particles with these ids (springs between the others stay); returns how many."""
    def remove_in_circle(self, center: Vec, radius: float) -> int: ...
    def remove_in_box(self, center: Vec, half_extents: Vec) -> int: ...

    # ---- definitions
    def get_def(self) -> Dict[str, Any]: ...
    def set_def(self, **fields: Any) -> None:
        """Changes h, dt, substeps, gravity, threads or max_particles between steps."""
    def add_material(self, **fields: Any) -> int:
        """Fields of pdl_material_def by the names include/puddle/fields.h declares
        (PDL_MATERIAL_FIELDS; color as 0xRRGGBB). Returns the material's id."""
    def set_material(self, id: int, **fields: Any) -> None: ...
    def get_material(self, id: int) -> Dict[str, Any]: ...
    def rest_density(self, id: int) -> float: ...
    @property
    def material_count(self) -> int: ...
    def add_boundary(self, *, kind: Literal["circle_container", "box_container", "circle", "box", "polygon"] = ...,
                     position: Vec = ..., angle: float = ..., radius: float = ..., half_extents: Vec = ...,
                     vertices: Sequence[Vec] = ..., velocity: Vec = ..., friction: float = ...,
                     restitution: float = ..., stickiness: float = ...) -> int:
        """Adds a container (fluid inside) or obstacle (fluid outside); returns its id (0, 1, ... until
        one is removed: a removed boundary's slot is reused with a new id, and its old id stays refused
        with PuddleError PDL_ERR_BOUNDARY_ID)."""
    def set_boundary(self, id: int, **fields: Any) -> None:
        """Moves or retunes a boundary between steps (velocity: its surface's, for moving paddles)."""
    def get_boundary(self, id: int) -> Dict[str, Any]: ...
    def remove_boundary(self, id: int) -> None: ...
    def boundaries(self) -> List[int]:
        """Ids of the live boundaries, in slot order."""
    def set_pointer(self, index: int = 0, *, position: Vec = ..., direction: Vec = ..., velocity: Vec = ...,
                    radius: float = ..., strength: float = ..., drag: float = ...) -> None:
        """A mouse or touch pulling (strength > 0) or pushing the fluid until cleared."""
    def clear_pointer(self, index: int = 0) -> None: ...
    def add_emitter(self, *, material: int = ..., position: Vec = ..., velocity: Vec = ..., width: float = ...,
                    spacing: float = ..., start: float = ..., stop: float = ...) -> int:
        """A nozzle adding rows of particles from start to stop seconds of scene time (as a scene's
        "emitters"); step() plays it. Returns its index."""

    # ---- rigid bodies (ids are ints: index + generation * 4096)
    def add_body(self, *, type: Literal["dynamic", "kinematic"] = ...,
                 shape: Literal["box", "circle", "sphere", "polygon"] = ..., position: Vec = ...,
                 angle: float = ..., orientation: Vec = ..., linear_velocity: Vec = ...,
                 angular_velocity: Union[float, Vec] = ..., radius: float = ..., half_extents: Vec = ...,
                 vertices: Sequence[Vec] = ..., density: float = ..., friction: float = ...,
                 restitution: float = ..., gravity_scale: float = ..., color: int = ...) -> int: ...
    def get_body(self, id: int) -> Dict[str, Any]:
        """The body's def with its current pose and velocities (2D: angle, angular_velocity a
        number; 3D: orientation as a quaternion (x, y, z, w), angular_velocity a vector)."""
    def set_body(self, id: int, **fields: Any) -> None:
        """Changes a body between steps: a kinematic body driven from outside gets its position and
        velocity here every frame."""
    def remove_body(self, id: int) -> None: ...
    def body_force(self, id: int) -> Tuple[Tuple[float, ...], Union[float, Tuple[float, float, float]]]:
        """(force, torque) the fluid put on the body in the last step (2D: torque a number)."""
    def body_mass(self, id: int) -> Dict[str, Any]: ...
    def bodies(self) -> List[int]: ...

    # ---- snapshots, exports, pictures
    def save_snapshot(self, path: Path) -> None:
        """Everything later steps read, and the frame; a resume is bitwise exact."""
    def load_snapshot(self, path: Path) -> int:
        """Restores a snapshot of this scene (SnapshotError for another's); returns its frame."""
    def export_vtk(self, path: Path) -> None:
        """ParaView's VTK XML PolyData (.vtp), particles in id order."""
    def export_ply(self, path: Path) -> None: ...
    def export_csv(self, path: Path) -> None: ...
    def export_bodies_vtk(self, path: Path) -> None: ...
    def export_bodies_csv(self, path: Path) -> None: ...
    def render(self, width: int = 0, height: int = 0, color: Optional[Literal["material", "speed", "density", "pressure"]] = None,
               spheres: bool = False) -> npt.NDArray[np.uint8]:
        """The picture `puddle run` draws, as a new (height, width, 3) RGB array (size: the
        scene's output size; a width alone keeps its aspect)."""

    def _repr_png_(self) -> bytes:
        """The picture as PNG bytes, 480 pixels wide: what Jupyter shows for a World."""

    # ---- measurement
    def stats(self) -> Dict[str, Any]: ...
    def profile(self) -> Dict[str, Any]: ...
    def diffuse(self) -> Dict[str, Any]:
        """The scene's spray, foam and bubbles ("diffuse"), copied: positions and velocities (n x 3
        float32), life (seconds), kind (uint8: 0 spray, 1 foam, 2 bubble), and spray, foam and
        bubbles (their counts). Empty while the world has none."""
    def scene_json(self) -> Optional[str]:
        """The resolved scene (every default written out), or None for a world built in code."""
    @property
    def dimensions(self) -> int: ...
    @property
    def solver(self) -> Solver: ...
    @property
    def time(self) -> float: ...
    @property
    def frame(self) -> int: ...
    @property
    def step_count(self) -> int: ...
    @property
    def thread_count(self) -> int: ...
    @property
    def backend_note(self) -> str: ...
    @property
    def scene_name(self) -> Optional[str]: ...
    @property
    def bounds(self) -> Tuple[Tuple[float, ...], Tuple[float, ...]]: ...

def load_scene(path: Path, threads: Optional[int] = None, particles: float = 0) -> World: ...
def parse_scene(text: str, name: str = "scene", threads: Optional[int] = None, particles: float = 0) -> World: ...
def write_png(path: Path, image: npt.ArrayLike) -> None: ...
def error_names() -> List[str]: ...
def rest_spacing(interaction_radius: float, rest_density: float, dimensions: int = 2) -> float: ...
def vector_loops() -> str: ...
