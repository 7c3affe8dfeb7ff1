"""The same bits as the C library, snapshots, scenes from dicts, worlds built in code."""
import json

import numpy as np
import pytest

import puddle
from conftest import cli_hash, scene


@pytest.mark.parametrize("name,steps", [("dam-break", 120), ("sph-dam-break", 20), ("dfsph-dam-break", 10),
                                         ("float", 30), ("lava", 40), ("blobs", 60), ("drop-3d", 3)])
def test_hash_equals_puddle_run(name, steps, tmp_path):
    w = puddle.load_scene(scene(name))
    w.step(steps)
    h = w.state_hash()
    assert len(h) == 16 and int(h, 16) >= 0
    assert h == cli_hash(name, steps, tmp_path)
    assert w.frame == steps


def test_step_in_pieces_is_step_at_once():
    a = puddle.load_scene(scene("dam-break"))
    a.step(50)
    b = puddle.load_scene(scene("dam-break"))
    for _ in range(50):
        b.step()
    assert a.state_hash() == b.state_hash()
    assert a.time == pytest.approx(50 / 60, rel=1e-6)


def test_threads_do_not_change_the_bits():
    one = puddle.load_scene(scene("dam-break"), threads=1)
    two = puddle.load_scene(scene("dam-break"), threads=2)
    one.step(30)
    two.step(30)
    assert one.thread_count == 1 and two.thread_count == 2
    assert one.state_hash() == two.state_hash()


@pytest.mark.parametrize("name,frames", [("lava", 40), ("dfsph-dam-break", 8), ("float", 20)])
def test_snapshot_resumes_bitwise(name, frames, tmp_path):
    # lava has emitters: the resumed run must add the same rows at the same frames; DFSPH's
    # solves resume from their pressures; float's bodies from their state
    w = puddle.load_scene(scene(name))
    w.step(frames)
    snap = tmp_path / "s.pdls"
    w.save_snapshot(snap)
    w.step(frames)
    r = puddle.load_scene(scene(name))
    assert r.load_snapshot(snap) == frames
    assert r.frame == frames
    r.step(frames)
    assert r.state_hash() == w.state_hash()
    assert r.particle_count == w.particle_count


def test_snapshot_of_another_scene_is_refused(tmp_path):
    w = puddle.load_scene(scene("dam-break"))
    w.step(2)
    w.save_snapshot(tmp_path / "s.pdls")
    other = puddle.load_scene(scene("drop"))
    before = other.state_hash()
    with pytest.raises(puddle.SnapshotError, match="other settings"):
        other.load_snapshot(tmp_path / "s.pdls")
    assert other.state_hash() == before
    (tmp_path / "bad.pdls").write_bytes(b"PDLSNAP\0" + bytes(60))
    with pytest.raises(puddle.SnapshotError):
        w.load_snapshot(tmp_path / "bad.pdls")


def test_scene_from_dict_is_the_file():
    with open(scene("dam-break")) as f:
        d = json.load(f)
    a = puddle.load_scene(d)
    b = puddle.load_scene(scene("dam-break"))
    a.step(20)
    b.step(20)
    assert a.state_hash() == b.state_hash()
    assert json.loads(b.scene_json())["world"]["dt"] == pytest.approx(1 / 60)


def test_particles_option_rescales():
    w = puddle.load_scene(scene("dam-break"), particles=10000)
    assert 9000 < w.particle_count < 11000


def build_box(solver="clavet", dimensions=2):
    w = puddle.World(dimensions=dimensions, solver=solver, substeps=2, threads=1)
    assert w.add_material(rest_density=4, color=0x2A7FD4) == 0
    half = (10, 6, 4) if dimensions == 3 else (10, 6)
    w.add_boundary(kind="box_container", half_extents=half)
    pos = (-6, -3, 0) if dimensions == 3 else (-6, -3)
    n = w.fill(shape="box", position=pos, half_extents=(3, 3, 3) if dimensions == 3 else (3, 3))
    assert n > 0 and w.particle_count == n
    return w


@pytest.mark.parametrize("solver", ["clavet", "sph", "dfsph"])
@pytest.mark.parametrize("dimensions", [2, 3])
def test_every_solver_in_code(solver, dimensions):
    w = build_box(solver, dimensions)
    assert w.solver == solver and w.dimensions == dimensions
    assert w.get_def()["solver"] == solver
    w.step(5 if dimensions == 3 else 10)
    p = w.positions
    assert p.shape == (w.particle_count, dimensions) and p.dtype == np.float32
    assert np.all(np.isfinite(p))
    assert np.all(np.abs(p[:, 0]) <= 10) and np.all(np.abs(p[:, 1]) <= 6)
    assert w.stats()["non_finite"] == 0
    # gravity pulled the column down and out: it is moving
    assert np.abs(w.velocities).max() > 0


def test_defs_round_trip():
    w = puddle.World(dt=1 / 120, gravity=(0, -9.81), sph={"speed_of_sound": 50, "eos": "linear"})
    d = w.get_def()
    assert d["dt"] == pytest.approx(1 / 120) and d["gravity"] == pytest.approx((0, -9.81))
    assert d["sph"]["speed_of_sound"] == 50 and d["sph"]["eos"] == "linear"
    w.set_def(substeps=3)
    assert w.get_def()["substeps"] == 3
    m = w.add_material(stiffness=80, mass=2)
    assert w.get_material(m)["stiffness"] == 80 and w.get_material(m)["mass"] == 2
    w.set_material(m, viscosity_sigma=1.5)
    assert w.get_material(m)["viscosity_sigma"] == 1.5
    b = w.add_boundary(kind="polygon", vertices=[(0, 0), (2, 0), (1, 2)], position=(3, 1))
    got = w.get_boundary(b)
    assert got["kind"] == "polygon" and got["vertices"] == [(0, 0), (2, 0), (1, 2)] and got["position"] == (3, 1)
    w.set_boundary(b, position=(4, 1))
    assert w.get_boundary(b)["position"] == (4, 1)
    w.remove_boundary(b)
    assert w.boundaries() == []


def test_pointer_pulls_the_fluid():
    w = build_box()
    w.set_def(gravity=(0, 0))
    x0 = w.x.mean()
    w.set_pointer(0, position=(0, -3), radius=8, strength=200)
    w.step(20)
    assert w.x.mean() > x0 + 0.5
    w.clear_pointer(0)


def test_emitter_in_code_adds_rows():
    w = build_box()
    n0 = w.particle_count
    assert w.add_emitter(material=0, position=(5, 3), velocity=(0, -5), width=2, start=0, stop=0.5) == 0
    w.step(20)
    assert w.particle_count > n0
    w.step(10)
    n1 = w.particle_count
    w.step(10)  # it stopped at 0.5 s, frame 30
    assert w.particle_count == n1


def test_pictures_and_bounds_leave_the_scene_as_it_was(tmp_path):
    w = puddle.load_scene(scene("dam-break"))
    w.step(5)
    w.render(width=64)
    assert w.bounds[0][0] < w.bounds[1][0]
    w.save_snapshot(tmp_path / "s.pdls")
    r = puddle.load_scene(scene("dam-break"))
    assert r.load_snapshot(tmp_path / "s.pdls") == 5
    assert r.state_hash() == w.state_hash()


def test_world_built_in_code_snapshots(tmp_path):
    w = build_box()
    w.step(5)
    w.save_snapshot(tmp_path / "c.pdls")
    w.step(5)
    r = build_box()
    assert r.load_snapshot(tmp_path / "c.pdls") == 5
    r.step(5)
    assert r.state_hash() == w.state_hash()
    with pytest.raises(puddle.SnapshotError, match="other settings"):
        puddle.load_scene(scene("dam-break")).load_snapshot(tmp_path / "c.pdls")


def test_repr_and_notebook_picture():
    w = puddle.load_scene(scene("dam-break"))
    w.step(3)
    assert repr(w) == "<puddle.World dam-break: 2D dfsph, 1595 particles, 0 bodies, frame 3, t = 0.050 s>"
    png = w._repr_png_()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 1000
    assert "built in code" in repr(build_box())


def test_ctrl_c_stops_a_long_step_between_frames():
    import signal

    w = puddle.load_scene(scene("dam-break"), threads=1)

    def interrupt(signum, frame):
        raise KeyboardInterrupt

    old = signal.signal(signal.SIGALRM, interrupt)
    signal.setitimer(signal.ITIMER_REAL, 0.2)
    try:
        with pytest.raises(KeyboardInterrupt):
            w.step(1_000_000)
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)
    assert 0 < w.frame < 1_000_000
    # the frames it did are counted: the world goes on from there
    f, h = w.frame, w.state_hash()
    w.step()
    assert w.frame == f + 1 and w.state_hash() != h


def test_a_world_is_used_by_one_thread_at_a_time():
    import threading

    w = puddle.load_scene(scene("dam-break"), threads=1)
    t = threading.Thread(target=w.step, args=(400,))
    refused = 0
    t.start()
    while t.is_alive():
        try:
            w.particle_count
        except RuntimeError as e:
            assert "another thread" in str(e)
            refused += 1
    t.join()
    assert refused > 0 and w.frame == 400


def test_diffuse_particles_are_read_and_change_nothing():
    """A splash with "diffuse" on makes spray, foam or bubbles; the world's hash is the one the
    same scene gives without them."""
    splash = {"world": {"dimensions": 3}, "materials": [{"name": "w"}],
              "container": {"shape": "box", "half_extents": [6, 5, 3]},
              "fills": [{"shape": "ball", "position": [0, 1, 0], "radius": 2, "velocity": [0, -12, 0]},
                        {"shape": "box", "position": [0, -4, 0], "half_extents": [6, 1, 3]}]}
    plain = puddle.load_scene(splash, threads=1)
    on = puddle.load_scene(dict(splash, diffuse={"enabled": 1}), threads=1)
    assert plain.diffuse()["positions"].shape == (0, 3)
    plain.step(30)
    on.step(30)
    assert on.state_hash() == plain.state_hash()
    d = on.diffuse()
    n = len(d["kind"])
    assert n > 0 and n == d["spray"] + d["foam"] + d["bubbles"]
    assert d["positions"].shape == (n, 3) and d["velocities"].shape == (n, 3) and d["life"].shape == (n,)
    assert np.all(np.abs(d["positions"]) <= np.array([6, 5, 3]) + 1e-3)
