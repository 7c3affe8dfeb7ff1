#!/usr/bin/env python3
"""Checks that puddle-view's files call each other in one direction (docs/viewer.md, "Code map").

    check_layers.py --sources apps/viewer OBJECT...      (the viewer's object files)
    check_layers.py --self-test

Every source file of the viewer has a layer, 0 at the bottom. From the object files (`nm`: which
file defines each symbol, which files use it) it builds the graph of calls between files and
fails when a file calls into a higher layer, when the graph has a cycle (also within a layer),
when a file of the lower layers includes frontend.h, or when a source file has no layer (a new
file must be given one here and in docs/viewer.md). Only the Python standard library and nm.
"""
import argparse
import os
import re
import sys

# the graph of calls between files, shared with the libraries' check (scripts/check_circles.py)
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..",
                                "scripts"))
from file_graph import call_graph, circles, shortest_circle, source_of  # noqa: E402

# 0: shared state and maths; 1: the world and the views of it; 2: input, drawing, capture;
# 3: the program
LAYERS = {
    "view.c": 0, "gl.c": 0, "gpu_timer.c": 0,
    "bodies.c": 1, "view3d.c": 1, "scenes.c": 1, "presets.c": 1, "particles_gl.c": 1,
    "liquid_gl.c": 1,
    "input.c": 2, "renderer.c": 2, "renderer3d.c": 2, "capture.c": 2, "script.c": 2,
    "panel.cpp": 2,
    "main.c": 3,
}
FRONTEND_HEADER = "frontend.h"
FRONTEND_LAYER = 2


def problems_in(graph, layers):
    problems = []
    for caller in sorted(graph):
        for callee in sorted(graph[caller]):
            if layers[callee] > layers[caller]:
                symbols = " ".join(sorted(graph[caller][callee]))
                problems.append(f"{caller} (layer {layers[caller]}) calls up into {callee} "
                                f"(layer {layers[callee]}): {symbols}")
    for component in circles(graph):
        cycle = shortest_circle(graph, component[0], set(component))
        problems.append("files calling each other in a circle: " + " -> ".join(cycle))
    return problems


def include_problems(sources_dir):
    problems = []
    for name in sorted(os.listdir(sources_dir)):
        if not name.endswith((".c", ".cpp", ".h")):
            continue
        if name.endswith((".c", ".cpp")) and name not in LAYERS:
            problems.append(f"{name} has no layer: give it one in check_layers.py and in "
                            "docs/viewer.md's Code map")
            continue
        with open(os.path.join(sources_dir, name)) as f:
            text = f.read()
        layer = LAYERS.get(name)
        if name.endswith(".h"):
            layer = FRONTEND_LAYER if name == FRONTEND_HEADER else 0
        if layer < FRONTEND_LAYER and re.search(r'#include\s+"' + re.escape(FRONTEND_HEADER), text):
            problems.append(f"{name} (layer {layer}) includes {FRONTEND_HEADER}, the layer above")
    return problems


def self_test():
    layers = {"a.c": 0, "b.c": 1, "c.c": 1}
    good = {"b.c": {"a.c": ["f"]}, "c.c": {"b.c": ["g"], "a.c": ["f"]}}
    up = {"a.c": {"b.c": ["g"]}}
    circle = {"b.c": {"c.c": ["h"]}, "c.c": {"b.c": ["g"]}}
    assert problems_in(good, layers) == [], problems_in(good, layers)
    assert any("calls up into b.c" in p for p in problems_in(up, layers))
    assert any("b.c -> c.c -> b.c" in p for p in problems_in(circle, layers))
    print("ok: self-test (a call up and a circle within a layer are caught)")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--sources", help="the viewer's source folder")
    p.add_argument("--self-test", action="store_true")
    p.add_argument("objects", nargs="*")
    a = p.parse_args()
    if a.self_test:
        return self_test()
    if not a.sources or not a.objects:
        p.error("--sources and the object files are needed")
    graph = call_graph(a.objects, keep=lambda source: source in LAYERS)
    missing = [s for s in LAYERS if s not in {source_of(o) for o in a.objects}]
    problems = problems_in(graph, LAYERS) + include_problems(a.sources)
    for caller in sorted(graph):
        print(f"{caller} (layer {LAYERS[caller]}) -> " +
              ", ".join(f"{c} ({LAYERS[c]})" for c in sorted(graph[caller])))
    if missing:
        print("note: not built here:", " ".join(missing))
    for problem in problems:
        print("FAIL:", problem)
    if problems:
        return 1
    print(f"ok: {len(graph)} files call only into their own layer or below, with no cycle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
