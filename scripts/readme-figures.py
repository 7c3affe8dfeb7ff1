#!/usr/bin/env python3
"""The README's figures that a build can measure, measured again: the particle counts of the
scenes it quotes, and the size of the WebAssembly engine. A figure written by hand goes stale the
day the code changes (the README said puddle.wasm was 140 KiB when it built to 212.7), so CI
re-runs this and fails on a stale one.

    scripts/readme-figures.py --puddle build/apps/cli/puddle            # check (ctest -R cli.readme_figures)
    scripts/readme-figures.py --puddle build/apps/cli/puddle --write    # rewrite the README's figures
    scripts/readme-figures.py --puddle build/apps/cli/puddle --wasm web/dist --require-wasm
                                                                          # also the wasm sizes (make test-web)
    scripts/readme-figures.py --puddle build/apps/cli/puddle --pictures   # re-render docs/3d-drop.png etc.

Particle counts must match exactly (they are the fills' own counts, the same on every machine);
sizes within 5 %, so that each change to the core does not ask for a README edit, and a figure
off by more than that is stale. Without web/dist/puddle.wasm (no `make -C web` yet) the sizes
are skipped, saying so, unless --require-wasm. Exit status: 0 all current (or written), 1 stale,
2 bad usage or a failed measurement."""
import argparse
import gzip
import os
import re
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SIZE_TOLERANCE = 0.05

# (pattern with one group per figure, the scene whose particles it counts); the group is the count
SCENE_COUNTS = [
    (r"\(scenes/stratify\.json, ([\d,]+) particles\)", "stratify"),
    (r"`scenes/dam-break-3d\.json` \(([\d,]+) particles", "dam-break-3d"),
    (r"`scenes/drop-3d\.json` \(([\d,]+),", "drop-3d"),
    (r"`scenes/stratify-3d\.json` \(([\d,]+),", "stratify-3d"),
]
WASM = (r"`puddle\.wasm`, with the scene layer the command line uses, is ([\d.]+) KiB \(([\d.]+) KiB gzipped\) "
        r"and its\s+JS glue ([\d.]+) KiB")

# The pictures the README shows, as the README's own commands make them (--pictures).
PICTURES = [
    ("docs/3d-drop.png", ["scenes/drop-3d.json", "--seconds", "0.9"]),
    ("docs/3d-dam-break.png", ["scenes/dam-break-3d.json", "--seconds", "2.5"]),
    ("docs/3d-stratify.png", ["scenes/stratify-3d.json", "--seconds", "10"]),
]


def particles(puddle, scene):
    """The particles the scene starts with: one frame's run summary."""
    with tempfile.TemporaryDirectory() as out:
        done = subprocess.run([puddle, "run", os.path.join(ROOT, "scenes", scene + ".json"), "--steps", "1",
                               "--out", out], capture_output=True, text=True, timeout=600)
    found = re.search(r"^  particles\s+(\d+)$", done.stdout, re.M)
    if done.returncode != 0 or not found:
        raise RuntimeError(f"puddle run {scene}: exit {done.returncode}: {done.stderr.strip()[-300:]}")
    return int(found.group(1))


def kib(n):
    return f"{n / 1024:.1f}".rstrip("0").rstrip(".") if n < 100 * 1024 else f"{n / 1024:.0f}"


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--puddle", required=True, help="the built puddle command")
    p.add_argument("--readme", default=os.path.join(ROOT, "README.md"))
    p.add_argument("--wasm", default=os.path.join(ROOT, "web", "dist"), help="the web build's folder")
    p.add_argument("--require-wasm", action="store_true", help="fail if the web build is missing")
    p.add_argument("--write", action="store_true", help="rewrite the README's figures with the measured ones")
    p.add_argument("--pictures", action="store_true", help="re-render the README's 3D pictures into docs/")
    a = p.parse_args()
    text = open(a.readme, encoding="utf-8").read()
    stale, replaced = [], text

    for pattern, scene in SCENE_COUNTS:
        found = re.search(pattern, text)
        if not found:
            print(f"README: no figure matches {pattern!r}")
            return 2
        said, measured = int(found.group(1).replace(",", "")), particles(a.puddle, scene)
        ok = said == measured
        print(f"{'ok   ' if ok else 'STALE'} {scene} particles: README {said}, measured {measured}")
        if not ok:
            stale.append(scene)
            spelled = f"{measured:,}" if "," in found.group(1) or measured >= 10000 else str(measured)
            replaced = replaced.replace(found.group(0), found.group(0).replace(found.group(1), spelled))

    wasm_path, glue_path = os.path.join(a.wasm, "puddle.wasm"), os.path.join(a.wasm, "puddle.mjs")
    found = re.search(WASM, text)
    if not found:
        print(f"README: no figure matches {WASM!r}")
        return 2
    if os.path.exists(wasm_path) and os.path.exists(glue_path):
        wasm = open(wasm_path, "rb").read()
        measured = [len(wasm), len(gzip.compress(wasm, 9)), os.path.getsize(glue_path)]
        names = ["puddle.wasm KiB", "puddle.wasm gzipped KiB", "JS glue KiB"]
        for k, name in enumerate(names):
            said = float(found.group(k + 1))
            ok = abs(said * 1024 - measured[k]) <= SIZE_TOLERANCE * measured[k]
            print(f"{'ok   ' if ok else 'STALE'} {name}: README {said:g}, measured {measured[k] / 1024:.1f} "
                  f"(within {SIZE_TOLERANCE:.0%})")
            stale += [] if ok else [name]
        if any(n in stale for n in names):
            new = found.group(0)
            for k in range(3):  # each number in place, the text round it as it is
                new = new.replace(f"{found.group(k + 1)} KiB", f"{kib(measured[k])} KiB", 1)
            replaced = replaced.replace(found.group(0), new)
    elif a.require_wasm:
        print(f"FAILED: no web build at {a.wasm} (make -C web) to measure puddle.wasm")
        return 1
    else:
        print(f"skip  puddle.wasm sizes: no web build at {a.wasm} (make -C web; make test-web checks them)")

    if a.pictures:
        for png, args in PICTURES:
            with tempfile.TemporaryDirectory() as out:
                done = subprocess.run([a.puddle, "run", *[os.path.join(ROOT, x) if x.endswith(".json") else x
                                                          for x in args], "--png", os.path.join(ROOT, png),
                                       "--out", out, "--quiet"], capture_output=True, text=True, timeout=3600)
            print(f"{'wrote' if done.returncode == 0 else 'FAILED'} {png}: puddle run {' '.join(args)}")
            if done.returncode != 0:
                return 2

    if stale and a.write:
        with open(a.readme, "w", encoding="utf-8") as f:
            f.write(replaced)
        print(f"wrote {len(stale)} figure(s) into {a.readme}")
        return 0
    if stale:
        print(f"{len(stale)} stale figure(s): scripts/readme-figures.py --puddle PUDDLE --write updates them")
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except (RuntimeError, subprocess.TimeoutExpired) as e:
        print(f"FAILED: {e}")
        sys.exit(2)
