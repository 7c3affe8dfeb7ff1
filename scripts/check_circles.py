#!/usr/bin/env python3
"""Fails when files of the libraries call each other in a circle (docs/physics.md, "Code map").

    check_circles.py --build-root BUILD OBJECT...   (object files of puddle, puddle_io, puddle_mpi)
    check_circles.py --self-test

From the object files (nm: which file defines each symbol, which files use it) it builds the
graph of calls between the files of src/, io/src/ and mpi/src/ and names every circle in it: the
files of each strongly connected component, a shortest circle through them, and every call
between them with one symbol per edge. A file that calls a file that calls it back is a sign that
a piece of shared state wants its own home below both. Only the Python standard
library and nm.
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import file_graph  # noqa: E402  (scripts/file_graph.py, shared with the viewer's check_layers.py)

CHECKED_FOLDERS = ("src/", "io/src/", "mpi/src/")


def self_test():
    # a -> b -> c -> a is one circle of three, d <-> e a second; f calls into both and is in none
    graph = {"a.c": {"b.c": ["b_fn"]}, "b.c": {"c.c": ["c_fn"]}, "c.c": {"a.c": ["a_fn"]},
             "d.c": {"e.c": ["e_fn", "e_table"]}, "e.c": {"d.c": ["d_fn"]},
             "f.c": {"a.c": ["a_fn"], "d.c": ["d_fn"]}}
    assert file_graph.circles(graph) == [["a.c", "b.c", "c.c"], ["d.c", "e.c"]]
    texts = file_graph.describe_circles(graph)
    assert len(texts) == 2, texts
    assert "a.c -> b.c -> c.c -> a.c" in texts[0], texts[0]
    assert "c.c -> a.c: a_fn" in texts[0] and "f.c" not in texts[0], texts[0]
    assert "d.c -> e.c: e_fn (and 1 more)" in texts[1], texts[1]
    line = {"a.c": {"b.c": ["g"]}, "b.c": {"c.c": ["h"]}}
    assert file_graph.circles(line) == [] and file_graph.describe_circles(line) == []
    # object paths in CMake's layout name the source from the project's root
    assert file_graph.source_of("/b/io/CMakeFiles/puddle_io.dir/src/render.c.o", "/b") == \
        "io/src/render.c"
    assert file_graph.source_of("/b/CMakeFiles/puddle.dir/src/step.c.o", "/b") == "src/step.c"
    print("ok: self-test (two circles are named with their files and symbols, a line is not)")
    return 0


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--build-root", help="the CMake build folder the object files are under")
    p.add_argument("--self-test", action="store_true")
    p.add_argument("objects", nargs="*")
    a = p.parse_args()
    if a.self_test:
        return self_test()
    if not a.build_root or not a.objects:
        p.error("--build-root and the object files are needed")
    graph = file_graph.call_graph(
        a.objects, name_of=lambda path: file_graph.source_of(path, a.build_root),
        keep=lambda source: source.startswith(CHECKED_FOLDERS))
    if not graph:  # nm read no calls: not object files it understands (LTO bytecode, say)
        print("FAIL: no calls between the files were read from the object files")
        return 1
    texts = file_graph.describe_circles(graph)
    for text in texts:
        print("FAIL:", text)
    if texts:
        print(f"{len(texts)} circle(s): move what both sides use into a file below them")
        return 1
    files = {file_graph.source_of(o, a.build_root) for o in a.objects}
    print(f"ok: {len(files)} files, {sum(len(c) for c in graph.values())} calls between them, "
          "no circle")
    return 0


if __name__ == "__main__":
    sys.exit(main())
