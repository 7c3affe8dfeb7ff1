"""Rigid bodies (kinematic driving, the fluid's force), exports and pictures."""
import csv

import numpy as np
import pytest

import puddle
from conftest import scene


def pool(dimensions=2):
    w = puddle.World(dimensions=dimensions, substeps=2, threads=1)
    w.add_material()
    if dimensions == 3:
        w.add_boundary(kind="box_container", half_extents=(8, 8, 4))
        w.fill(shape="box", position=(0, -5, 0), half_extents=(8, 3, 4))
    else:
        w.add_boundary(kind="box_container", half_extents=(15, 10))
        w.fill(shape="box", position=(0, -6), half_extents=(15, 4))
    return w


def test_kinematic_body_is_driven_and_feels_the_fluid():
    w = pool()
    b = w.add_body(type="kinematic", shape="box", position=(0, -6), half_extents=(2, 1))
    assert w.bodies() == [b]
    for k in range(10):
        x = -2 + 0.2 * k
        w.set_body(b, position=(x, -6), linear_velocity=(12, 0))
        w.step()
    got = w.get_body(b)
    assert got["type"] == "kinematic" and got["shape"] == "box"
    assert got["position"][0] == pytest.approx(-0.2 + 0.2, abs=0.25)  # where it was put, moved one frame on
    force, torque = w.body_force(b)
    assert len(force) == 2 and isinstance(torque, float)
    assert force[0] < 0  # the water it pushes through pushes back


def test_dynamic_body_floats_on_the_water():
    w = pool()
    b = w.add_body(shape="box", half_extents=(1.5, 1.5), position=(0, 1), density=0.5)
    m = w.body_mass(b)
    assert m["mass"] > 0 and m["particles"] > 0 and isinstance(m["inertia"], float)
    w.step(240)
    # dropped in, it bobs, and settles half under: its centre at the surface (y about -2.2)
    y = w.get_body(b)["position"][1]
    assert -2.7 < y < -1.7
    w.remove_body(b)
    assert w.bodies() == []


def test_bodies_in_3d_have_vector_torques():
    w = pool(3)
    b = w.add_body(shape="sphere", radius=1.2, position=(0, 0, 0), angular_velocity=(0, 1, 0))
    w.step(2)
    force, torque = w.body_force(b)
    assert len(force) == 3 and len(torque) == 3
    assert len(w.get_body(b)["orientation"]) == 4


def test_exports(tmp_path):
    w = puddle.load_scene(scene("float"))
    w.step(3)
    w.export_csv(tmp_path / "p.csv")
    rows = list(csv.reader(open(tmp_path / "p.csv")))
    assert rows[0] == ["id", "material", "x", "y", "vx", "vy", "density", "pressure"]
    assert len(rows) == w.particle_count + 1
    # rows are in id order: row k is particle id k's
    order = np.argsort(w.ids)
    assert float(rows[1][2]) == pytest.approx(float(w.x[order[0]]), rel=1e-6)
    w.export_vtk(tmp_path / "p.vtp")
    assert b"<VTKFile" in (tmp_path / "p.vtp").read_bytes()[:200]
    w.export_ply(tmp_path / "p.ply")
    assert (tmp_path / "p.ply").read_bytes().startswith(b"ply")
    w.export_bodies_csv(tmp_path / "b.csv")
    assert len(list(csv.reader(open(tmp_path / "b.csv")))) == len(w.bodies()) + 1
    w.export_bodies_vtk(tmp_path / "b.vtp")
    with pytest.raises(OSError):
        w.export_csv(tmp_path / "missing" / "dir" / "p.csv")
    # the error names the file and says which rule failed, as every puddle error does
    missing = tmp_path / "missing" / "p.ply"
    for call in (lambda: w.export_ply(missing), lambda: w.export_bodies_csv(missing),
                 lambda: puddle.write_png(missing, w.render(width=16))):
        with pytest.raises(puddle.ExportError) as e:
            call()
        assert e.value.id == "PDL_ERR_FILE_OPEN" and e.value.file == str(missing)
        assert e.value.rule and str(missing) in str(e.value)
        assert isinstance(e.value, OSError) and isinstance(e.value, puddle.PuddleError)


def test_render_is_an_image(tmp_path):
    w = puddle.load_scene(scene("dam-break"))
    img = w.render()
    assert img.dtype == np.uint8 and img.ndim == 3 and img.shape[2] == 3
    assert img.shape[1] == 960
    small = w.render(width=320, color="speed")
    assert small.shape == (img.shape[0] // 3, 320, 3)
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 10  # water, tank, edges
    puddle.write_png(tmp_path / "a.png", img)
    assert (tmp_path / "a.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with pytest.raises(ValueError):
        w.render(color="rainbow")


def test_render_of_a_world_built_in_code():
    w = pool()
    img = w.render(width=300)
    lo, hi = w.bounds
    assert lo[0] < -15 and hi[0] > 15
    assert img.shape[1] == 300
    # the water (material colour, blue) fills the bottom, not the top
    blue = (img[:, :, 2].astype(int) - img[:, :, 0]) > 60
    assert blue[-img.shape[0] // 4:].mean() > 0.5 and blue[: img.shape[0] // 4].mean() < 0.05


def test_render_frames_what_a_world_built_in_code_holds_now():
    w = puddle.World(threads=1)
    w.add_material()
    w.add_boundary(kind="box_container", half_extents=(10, 10))
    assert w.render(width=200).shape == (200, 200, 3)  # a square tank
    w.remove_boundary(0)
    w.add_boundary(kind="box_container", half_extents=(20, 5))
    assert w.render(width=200).shape == (50, 200, 3)   # now four times as wide as tall


def test_render_3d_world_built_in_code():
    w = pool(3)
    img = w.render(width=320)
    assert img.shape == (180, 320, 3)
    assert len(np.unique(img.reshape(-1, 3), axis=0)) > 50  # shaded water, floor and edges
