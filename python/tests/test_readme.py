"""Every ```python block of README.md and python/README.md runs (from the repository's root)."""
import os
import re
import subprocess
import sys

import pytest

from conftest import ROOT

BLOCKS = [(name, k, block) for name in ("README.md", os.path.join("python", "README.md"))
          for k, block in enumerate(re.findall(r"```python\n(.*?)```", open(os.path.join(ROOT, name)).read(), re.S))]


@pytest.mark.parametrize("name,k,block", BLOCKS, ids=[f"{n}:{k}" for n, k, _ in BLOCKS])
def test_readme_block_runs(name, k, block):
    res = subprocess.run([sys.executable, "-c", block], cwd=ROOT, capture_output=True, text=True)
    assert res.returncode == 0, res.stderr
    # what a block says it prints in a comment is what it prints
    for expected in re.findall(r"# (PDL_ERR_\S+ .*)", block):
        assert expected.strip() in res.stdout
