"""The graph of calls between source files, read from their object files with nm.

Used by scripts/check_circles.py (no circle among the libraries' files) and
apps/viewer/tests/check_layers.py (the viewer's layers). Only the Python standard library and nm.

A file "calls" another when its object file uses (nm: U) a symbol that the other defines (nm: T, D,
B, R, V or W): a function call, or a read of a global table. Static inline functions of headers
are compiled into each file that uses them and make no edge.
"""
import os
import subprocess


def source_of(object_path, build_root=None):
    """CMake's object path -> the source file it was compiled from.

    Without build_root: the file's name (…/foo.c.o -> foo.c). With build_root (the CMake build
    folder): the path from the project's root, read from CMake's layout
    BUILD/<dir>/CMakeFiles/<target>.dir/<path in dir>.o, e.g. BUILD/io/CMakeFiles/puddle_io.dir/
    src/render.c.o -> io/src/render.c."""
    name = object_path[:-2] if object_path.endswith(".o") else object_path
    if build_root is None or "/CMakeFiles/" not in name:
        return os.path.basename(name)
    folder, inside = name.split("/CMakeFiles/", 1)
    inside = inside.split("/", 1)[1]  # drop "<target>.dir"
    prefix = os.path.relpath(os.path.abspath(folder), os.path.abspath(build_root))
    return os.path.normpath(os.path.join(prefix, inside))


def call_graph(objects, name_of=source_of, keep=lambda source: True):
    """{caller file: {callee file: [symbols]}} between the files of the object files.

    name_of maps an object path to its file's name; keep says which files take part."""
    defined, used = {}, {}
    for path in objects:
        source = name_of(path)
        if not keep(source):
            continue
        out = subprocess.run(["nm", path], capture_output=True, text=True, check=True).stdout
        for line in out.splitlines():
            parts = line.split()
            if len(parts) == 3 and parts[1] in "TDBRVW":
                defined[parts[2]] = source
            elif len(parts) == 2 and parts[0] == "U":
                used.setdefault(source, set()).add(parts[1])
    graph = {}
    for caller, symbols in used.items():
        for symbol in sorted(symbols):
            callee = defined.get(symbol)
            if callee is not None and callee != caller:
                graph.setdefault(caller, {}).setdefault(callee, []).append(symbol)
    return graph


def circles(graph):
    """The strongly connected components of more than one file (Tarjan), each a sorted list of
    files, sorted: every file of a component reaches every other and is reached back."""
    index, low, on_stack, stack, found = {}, {}, set(), [], []
    nodes = sorted(set(graph) | {c for callees in graph.values() for c in callees})

    def visit(node):  # recursive: the graphs are tens of files
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, {})):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                top = stack.pop()
                on_stack.discard(top)
                component.append(top)
                if top == node:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for node in nodes:
        if node not in index:
            visit(node)
    return sorted(found)


def shortest_circle(graph, start, within):
    """The shortest path start -> ... -> start through files of `within` (breadth first)."""
    previous, frontier = {start: None}, [start]
    while frontier:
        reached = []
        for node in frontier:
            for nxt in sorted(graph.get(node, {})):
                if nxt not in within:
                    continue
                if nxt == start:
                    path, back = [], node
                    while back is not None:
                        path.append(back)
                        back = previous[back]
                    return path[::-1] + [start]
                if nxt not in previous:
                    previous[nxt] = node
                    reached.append(nxt)
        frontier = reached
    return None


def describe_circles(graph):
    """One text per circle: its files, one shortest circle through its first file, and every call
    between its files with one symbol (the alphabetically first) per edge."""
    texts = []
    for component in circles(graph):
        within = set(component)
        ring = shortest_circle(graph, component[0], within)
        edges = [f"    {caller} -> {callee}: {graph[caller][callee][0]}"
                 + (f" (and {len(graph[caller][callee]) - 1} more)"
                    if len(graph[caller][callee]) > 1 else "")
                 for caller in component for callee in sorted(graph.get(caller, {}))
                 if callee in within]
        texts.append(f"{len(component)} files calling each other in a circle: "
                     + " ".join(component) + "\n  for example " + " -> ".join(ring)
                     + "\n  calls between them (one symbol each):\n" + "\n".join(edges))
    return texts
