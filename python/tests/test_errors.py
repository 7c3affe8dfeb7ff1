"""Errors are exceptions with the core's error id, struct, field, rule and value."""
import pytest

import puddle


def test_world_def_error():
    with pytest.raises(puddle.PuddleError) as e:
        puddle.World(dt=-1)
    err = e.value
    assert isinstance(err, ValueError)
    assert err.id == "PDL_ERR_WORLD_DT" and err.code == puddle.error_names().index("PDL_ERR_WORLD_DT")
    assert (err.struct, err.field, err.rule) == ("world", "dt", "must be finite, > 0 and <= 1")
    assert err.value == -1
    assert "dt" in str(err)


def test_material_and_body_errors():
    w = puddle.World()
    with pytest.raises(puddle.PuddleError) as e:
        w.add_body(shape="box")
    assert e.value.id == "PDL_ERR_BODY_NO_MATERIAL"
    with pytest.raises(puddle.PuddleError) as e:
        w.add_material(rest_density=-3)
    assert (e.value.id, e.value.field, e.value.value) == ("PDL_ERR_MATERIAL_REST_DENSITY", "rest_density", -3)
    w.add_material()
    with pytest.raises(puddle.PuddleError) as e:
        w.set_material(0, wall_friction=2)
    assert e.value.id == "PDL_ERR_MATERIAL_WALL_FRICTION"
    with pytest.raises(puddle.PuddleError) as e:
        w.get_material(5)
    assert e.value.id == "PDL_ERR_MATERIAL_ID"
    with pytest.raises(puddle.PuddleError) as e:
        w.get_body(12345)
    assert e.value.id == "PDL_ERR_BODY_ID" and e.value.field == "id"
    with pytest.raises(puddle.PuddleError) as e:
        w.set_pointer(9, radius=1)
    assert e.value.id == "PDL_ERR_POINTER_INDEX"
    with pytest.raises(puddle.PuddleError) as e:
        w.fill(shape="spiral", radius=-1)
    assert e.value.id == "PDL_ERR_FILL_RADIUS"


def test_removed_body_id_stays_refused():
    w = puddle.World()
    w.add_material()
    w.add_boundary(kind="box_container", half_extents=(20, 20))
    b = w.add_body(half_extents=(1, 1))
    w.remove_body(b)
    again = w.add_body(half_extents=(1, 1))
    assert again != b
    with pytest.raises(puddle.PuddleError) as e:
        w.set_body(b, position=(1, 1))
    assert e.value.id == "PDL_ERR_BODY_ID"


def test_unknown_fields_and_values():
    with pytest.raises(TypeError, match="did you mean 'rest_density'"):
        puddle.World().add_material(rest_densty=3)
    with pytest.raises(ValueError, match="'clavet', 'sph', 'dfsph'"):
        puddle.World(solver="flip")
    with pytest.raises(ValueError, match="2 to 3 numbers"):
        puddle.World(gravity=(1,))


def test_scene_errors_name_the_json_path():
    bad = {"world": {}, "materials": [{"name": "water", "rest_density": -3}],
           "container": {"shape": "box", "half_extents": [10, 10]}}
    with pytest.raises(puddle.SceneError) as e:
        puddle.load_scene(bad)
    err = e.value
    assert isinstance(err, puddle.PuddleError) and err.id == "PDL_ERR_SCENE_VALUE"
    assert err.path == err.field == "materials[0].rest_density"
    assert err.rule.startswith("must be")
    with pytest.raises(puddle.SceneError) as e:
        puddle.parse_scene('{"world": {', name="broken.json")
    assert e.value.file == "broken.json" and e.value.line == 1 and e.value.column > 0
    assert e.value.id == "PDL_ERR_SCENE_SYNTAX"
    with pytest.raises(puddle.SceneError) as e:
        puddle.load_scene("/nonexistent/scene.json")
    assert e.value.id == "PDL_ERR_FILE_OPEN" and e.value.file == "/nonexistent/scene.json"


def test_emitter_errors():
    w = puddle.World()
    w.add_material()
    with pytest.raises(puddle.PuddleError) as e:
        w.add_emitter(material=0, velocity=(0, 0))
    assert e.value.field == "velocity" and e.value.id is None
    with pytest.raises(puddle.PuddleError) as e:
        w.add_emitter(material=4, velocity=(0, 1))
    assert e.value.field == "material"


def test_error_names_are_the_cores():
    names = puddle.error_names()
    assert names[0] == "PDL_OK" and "PDL_ERR_WORLD_SOLVER" in names and len(set(names)) == len(names)


def test_cuda_backend_is_refused_by_this_build():
    # the module is built without the CUDA backend (setup.py): a CUDA world is refused, with the id
    with pytest.raises(puddle.PuddleError) as e:
        puddle.World(backend="cuda")
    assert e.value.id == "PDL_ERR_WORLD_BACKEND" and e.value.field == "backend"


def test_every_error_has_the_attributes():
    e = puddle.PuddleError("made by hand")
    assert (e.id, e.code, e.struct, e.field, e.rule, e.value) == (None,) * 6
    s = puddle.SceneError("by hand")
    assert (s.file, s.path, s.line, s.column) == (None, None, 0, 0)
    with pytest.raises(puddle.PuddleError) as got:
        puddle.World().remove_boundary(3)
    assert got.value.id == "PDL_ERR_BOUNDARY_ID" and got.value.value == 3


def test_a_removed_boundary_id_stays_refused_after_its_slot_is_reused():
    w = puddle.World()
    w.add_boundary(kind="box_container", half_extents=(10, 10))
    old = w.add_boundary(kind="circle", radius=1)
    w.remove_boundary(old)
    new = w.add_boundary(kind="circle", radius=2)
    assert new != old and w.boundaries() == [0, new]
    for call in (lambda: w.get_boundary(old), lambda: w.remove_boundary(old),
                 lambda: w.set_boundary(old, radius=3)):
        with pytest.raises(puddle.PuddleError) as got:
            call()
        assert got.value.id == "PDL_ERR_BOUNDARY_ID"
        assert str(got.value) == "boundary.id must name a live boundary of this world, got %d" % old
    assert w.get_boundary(new)["radius"] == 2
