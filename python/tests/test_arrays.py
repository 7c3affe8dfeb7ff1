"""The particle arrays: zero-copy views, their leases, copies, adding and removing."""
import gc

import numpy as np
import pytest

import puddle
from conftest import scene


def test_views_are_the_worlds_memory():
    w = puddle.load_scene(scene("dam-break"))
    w.step(10)
    n = w.particle_count
    for name, dtype in [("x", np.float32), ("y", np.float32), ("vx", np.float32), ("vy", np.float32),
                        ("density", np.float32), ("pressure", np.float32), ("material", np.uint8),
                        ("ids", np.uint32)]:
        v = getattr(w, name)
        assert v.dtype == dtype and v.shape == (n,), name
        assert not v.flags.writeable and not v.flags.owndata, name
        with pytest.raises(ValueError):
            v[0] = 0
    assert w.z is None and w.vz is None
    # two views of one array share its memory
    a, b = w.x, w.x
    assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
    # ids are unique and material 0 is water
    assert len(np.unique(w.ids)) == n and set(np.unique(w.material)) == {0}
    assert np.all(w.density > 0)


def test_positions_are_copies_of_the_views():
    w = puddle.load_scene(scene("drop-3d"))
    p, v = w.positions, w.velocities
    assert p.shape == (w.particle_count, 3) and p.dtype == np.float32 and p.flags.owndata
    np.testing.assert_array_equal(p, np.stack([w.x, w.y, w.z], axis=1))
    np.testing.assert_array_equal(v, np.stack([w.vx, w.vy, w.vz], axis=1))


def test_view_keeps_world_alive():
    w = puddle.load_scene(scene("dam-break"))
    x = w.x
    expected = x.copy()
    assert w.views == 1
    del w
    gc.collect()
    np.testing.assert_array_equal(x, expected)  # the world lives on for the view


def test_views_block_calls_that_move_the_arrays():
    w = puddle.load_scene(scene("dam-break"))
    x = w.x
    with pytest.raises(BufferError, match="1 numpy view"):
        w.fill(shape="disc", position=(0, 5), radius=2)
    with pytest.raises(BufferError):
        w.add_particles([[0, 5]])
    w.step()  # a step of a scene without emitters moves nothing: allowed
    del x
    assert w.views == 0
    assert w.fill(shape="disc", position=(0, 5), radius=2) > 0


def test_views_block_emitting_steps():
    w = puddle.load_scene(scene("lava"))
    ids = w.ids
    with pytest.raises(BufferError):
        w.step(5)
    assert w.frame == 0
    del ids
    w.step(5)
    assert w.frame == 5


def test_add_and_remove_particles():
    w = puddle.World(threads=1)
    w.add_material()
    w.add_material(mass=2, color=0xFF0000)
    w.add_boundary(kind="box_container", half_extents=(10, 10))
    ids = w.add_particles([[0, 0], [1, 0], [2, 0]], velocities=[[0, 1], [0, 2], [0, 3]], material=[0, 1, 1])
    assert ids.dtype == np.uint32 and list(ids) == [0, 1, 2]
    assert w.particle_count == 3 and w.next_id == 3
    np.testing.assert_array_equal(w.positions, [[0, 0], [1, 0], [2, 0]])
    np.testing.assert_array_equal(w.vy, [1, 2, 3])
    np.testing.assert_array_equal(w.material, [0, 1, 1])
    more = w.add_particles(np.array([[5, 5]], dtype=np.float64))
    assert list(more) == [3]
    assert w.remove_particles([1, 3, 99]) == 2
    assert sorted(w.ids) == [0, 2] and w.next_id == 4
    w.step()
    assert w.particle_count == 2
    assert w.remove_in_circle((0, 0), 100) == 2 and w.particle_count == 0


def test_add_particles_checks_shapes_and_materials():
    w = puddle.World()
    w.add_material()
    with pytest.raises(ValueError, match=r"shape \(n, 2\)"):
        w.add_particles([[0, 0, 0]])
    with pytest.raises(ValueError, match=r"shape \(1, 2\), one row per particle"):
        w.add_particles([[0, 0]], velocities=[[0, 0], [1, 1]])
    with pytest.raises(puddle.PuddleError) as e:
        w.add_particles([[0, 0]], material=3)
    assert e.value.id == "PDL_ERR_MATERIAL_ID"
    with pytest.raises(puddle.PuddleError) as e:
        w.add_particles([[np.nan, 0]])
    assert e.value.id == "PDL_ERR_PARTICLE_STATE"
    assert w.particle_count == 0


def test_removing_keeps_springs_between_the_rest():
    w = puddle.load_scene(scene("slime"), threads=1)
    w.step(20)
    assert w.stats()["springs"] > 0
    before = w.stats()["springs"]
    w.remove_particles(w.ids[:10].copy())
    assert 0 < w.stats()["springs"] <= before
    w.step(5)
    assert w.stats()["non_finite"] == 0


def test_remove_particles_leaves_the_callers_array_alone():
    w = puddle.load_scene(scene("dam-break"))
    ids = np.array([5, 1, 3], dtype=np.int64)
    assert w.remove_particles(ids) == 3
    assert list(ids) == [5, 1, 3]
    assert not np.isin([1, 3, 5], w.ids).any()


def test_set_particles_replaces_state_in_storage_order():
    w = puddle.load_scene(scene("dam-break"))
    ids = w.ids.copy()
    p = w.positions
    p[:, 1] += 1.0
    v = np.zeros_like(p)
    v[:, 0] = 3
    w.set_particles(positions=p, velocities=v)
    np.testing.assert_array_equal(w.positions, p)
    np.testing.assert_array_equal(w.vx, 3)
    np.testing.assert_array_equal(w.ids, ids)
    w.set_particles(velocities=np.zeros_like(p))
    np.testing.assert_array_equal(w.positions, p)
    with pytest.raises(ValueError, match="one row per particle"):
        w.set_particles(positions=p[:-1])
    with pytest.raises(puddle.PuddleError) as e:
        p[0, 0] = np.inf
        w.set_particles(positions=p)
    assert e.value.id == "PDL_ERR_PARTICLE_STATE" and e.value.value == 0


@pytest.mark.parametrize("name", ["dfsph-dam-break", "dam-break"])
def test_set_particles_to_themselves_changes_nothing(name):
    # DFSPH's solves start from the last pressures: they go along, so the steps after are the same
    a = puddle.load_scene(scene(name), threads=1)
    b = puddle.load_scene(scene(name), threads=1)
    a.step(5)
    b.step(5)
    b.set_particles(positions=b.positions, velocities=b.velocities)
    a.step(3)
    b.step(3)
    assert a.state_hash() == b.state_hash()
