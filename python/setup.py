"""Builds puddle's Python module: the extension puddle._puddle, compiled together with the core
(../src) and the io library (../io/src) from this checkout, so no CMake build is needed first.

    pip install --no-build-isolation --no-index ./python      (or: make python)

Needs Debian's python3-dev, python3-numpy, python3-setuptools, libcjson-dev and libpng-dev
(scripts/install-deps.sh python). The core is built as CMake builds it: C11, no contraction into
FMA, never fast-math, warnings as errors; without the CUDA backend (a "cuda" world is refused
with PDL_ERR_WORLD_BACKEND) and without OpenVDB.
"""
import glob
import os
import sys

import numpy
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

if not os.path.isfile(os.path.join(ROOT, "include", "puddle", "puddle.h")):
    sys.exit("puddle's Python module is built from a puddle checkout: python/ beside include/, src/ and io/")


def sources():
    # every core source but the CUDA step (cuda_none.c stands in), every io source but OpenVDB's
    core = glob.glob(os.path.join(ROOT, "src", "*.c"))
    io = glob.glob(os.path.join(ROOT, "io", "src", "*.c"))
    return [os.path.join("puddle", "_puddle.c")] + sorted(core) + sorted(io)


# The flags of CMakeLists.txt (PUDDLE_C_FLAGS, PUDDLE_WARNINGS, Release's -O3): the same bits as
# the command line's build, and any warning an error.
FLAGS = ["-std=c11", "-O3", "-ffp-contract=off", "-fno-fast-math", "-fno-trapping-math",
         "-Wall", "-Wextra", "-Wpedantic", "-Wshadow", "-Wstrict-prototypes", "-Wmissing-prototypes",
         "-Wno-missing-field-initializers", "-Werror"]


class BuildExt(build_ext):
    """Compiles the sources on every core (setuptools compiles one at a time by default)."""

    def finalize_options(self):
        super().finalize_options()
        if self.parallel is None:
            self.parallel = os.cpu_count() or 1


extension = Extension(
    "puddle._puddle",
    sources=sources(),
    include_dirs=[os.path.join(ROOT, "include"), os.path.join(ROOT, "io", "include")],
    define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
    # numpy's headers as system headers: their macros cast object to function pointers, which
    # -Wpedantic refuses in code of our own
    extra_compile_args=["-isystem", numpy.get_include()] + FLAGS,
    libraries=["cjson", "png", "m", "pthread"],
)

setup(
    name="puddle",
    version="0.1.0",
    description="Particle fluids (Clavet 2005, SPH, DFSPH; 2D and 3D) with numpy arrays",
    packages=["puddle"],
    package_data={"puddle": ["*.pyi", "py.typed"]},
    ext_modules=[extension],
    cmdclass={"build_ext": BuildExt},
    install_requires=["numpy"],
    python_requires=">=3.8",
)
