"""The type stubs list exactly what the module has."""
import ast
import os

import puddle
import puddle._puddle as core


def stub_names(tree, cls=None):
    body = tree.body
    if cls:
        body = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == cls).body
    names = set()
    for n in body:
        if isinstance(n, (ast.FunctionDef, ast.ClassDef)):
            names.add(n.name)
        elif isinstance(n, ast.AnnAssign):
            names.add(n.target.id)
    return names


def test_stubs_match_the_module():
    path = os.path.join(os.path.dirname(puddle.__file__), "_puddle.pyi")
    tree = ast.parse(open(path).read())
    world = {n for n in dir(core.World) if not n.startswith("__")}
    assert stub_names(tree, "World") - {"__init__"} == world
    public = {n for n in dir(core) if not n.startswith("__")}
    assert stub_names(tree) - {"Path", "Vec", "Solver"} == public
    assert os.path.exists(os.path.join(os.path.dirname(puddle.__file__), "py.typed"))


def test_methods_have_docstrings():
    for name in dir(core.World):
        if not name.startswith("_"):
            assert getattr(core.World, name).__doc__, name
    assert puddle.load_scene.__doc__ and puddle.World.__doc__
