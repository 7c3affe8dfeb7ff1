#!/usr/bin/env python3
"""Keeps the README true: every ```json block must be a valid scene (`puddle info` accepts it),
and every code line of the ```c block must appear in examples/hello_puddle.c, which the test
suite builds and runs. Usage: check_readme.py PUDDLE_BINARY"""
import os
import re
import subprocess
import sys
import tempfile

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
readme = open(os.path.join(root, "README.md"), encoding="utf-8").read()
failures = 0

for n, block in enumerate(re.findall(r"```json\n(.*?)```", readme, re.S)):
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        f.write(block)
    result = subprocess.run([sys.argv[1], "info", f.name], capture_output=True, text=True)
    os.unlink(f.name)
    if result.returncode != 0:
        print(f"README json block {n}: puddle info failed: {result.stderr.strip()}")
        failures += 1

def code_lines(text):
    lines = []
    for line in text.splitlines():
        line = re.sub(r"/\*.*?\*/", "", line).strip()
        if line and not line.startswith("#include"):
            lines.append(re.sub(r"\s+", " ", line))
    return lines

example = code_lines(open(os.path.join(root, "examples", "hello_puddle.c"), encoding="utf-8").read())
for block in re.findall(r"```c\n(.*?)```", readme, re.S):
    for line in code_lines(block):
        if line not in example:
            print(f"README C line not in examples/hello_puddle.c: {line}")
            failures += 1

print("README checks: " + ("ok" if failures == 0 else f"{failures} failed"))
sys.exit(1 if failures else 0)
