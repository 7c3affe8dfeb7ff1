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
import subprocess
import sys

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


def source_of(object_path):
    """foo.c.o (CMake's name for foo.c's object) -> foo.c"""
    name = os.path.basename(object_path)
    return name[:-2] if name.endswith(".o") else name


def call_graph(objects):
    """{caller file: {callee file: [symbols]}} between the viewer's files."""
    defined, used = {}, {}
    for path in objects:
        source = source_of(path)
        if source not in LAYERS:
            continue  # not one of the viewer's files
        out = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBRVW":
                defined[parts[2]] = source
            elif len(parts) == 2 and parts[0] == "U":
                used.setdefault(source, set()).add(parts[1])
    graph = {}
    for caller, symbols in used.items():
        for symbol in symbols:
            callee = defined.get(symbol)
            if callee is not None and callee != caller:
                graph.setdefault(caller, {}).setdefault(callee, []).append(symbol)
    return graph


def find_cycle(graph):
    """A list of files that call each other round, or None."""
    state, stack = {}, []

    def visit(node):
        state[node] = "open"
        stack.append(node)
        for nxt in sorted(graph.get(node, {})):
            if state.get(nxt) == "open":
                return stack[stack.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = "done"
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def problems_in(graph, layers):
    problems = []
    for caller in sorted(graph):
        for callee in sorted(graph[caller]):
            if layers[callee] > layers[caller]:
                symbols = " ".join(sorted(graph[caller][callee]))
                problems.append(f"{caller} (layer {layers[caller]}) calls up into {callee} "
                                f"(layer {layers[callee]}): {symbols}")
    cycle = find_cycle(graph)
    if cycle:
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
    graph = call_graph(a.objects)
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
