import os
import shutil
import subprocess

import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def scene(name):
    """The path of a shipped scene, scenes/NAME.json."""
    return os.path.join(ROOT, "scenes", name + ".json")


def cli():
    """The puddle command: $PUDDLE_CLI, or the release build's."""
    path = os.environ.get("PUDDLE_CLI") or os.path.join(ROOT, "build", "apps", "cli", "puddle")
    if not os.path.isabs(path):
        path = os.path.join(ROOT, path)
    return path if os.access(path, os.X_OK) else None


def cli_hash(scene_name, steps, tmp_path):
    """The state hash `puddle run SCENE --steps N` prints."""
    exe = cli()
    if exe is None:
        pytest.skip("no puddle command (build it: make build, or set PUDDLE_CLI)")
    out = tmp_path / ("cli-" + scene_name)
    res = subprocess.run([exe, "run", scene(scene_name), "--steps", str(steps), "--out", str(out)],
                         capture_output=True, text=True, check=True)
    shutil.rmtree(out, ignore_errors=True)
    for line in res.stdout.splitlines():
        if line.strip().startswith("state hash"):
            return line.split()[-1]
    raise AssertionError("no state hash in puddle run's output:\n" + res.stdout)
