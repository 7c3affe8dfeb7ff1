#!/usr/bin/env bash
# Installs the Debian packages puddle needs, skipping the ones already there.
# Usage: scripts/install-deps.sh [core|io|viewer|web|examples|fuzz|vdb|blender|mpi|python|all]...   (default: all)
set -euo pipefail

core=(build-essential cmake pkg-config)
io=(libcjson-dev libpng-dev libstb-dev ffmpeg python3)
viewer=(libsdl2-dev libimgui-dev libgl-dev libstb-dev python3 xvfb xauth)
# dpkg-dev: dpkg-source unpacks the cjson source package the wasm build compiles
# (web/scripts/cjson-source.sh).
# node and npm may come from elsewhere (e.g. NodeSource, whose nodejs bundles npm and conflicts
# with Debian's npm package): a command already on PATH counts as installed.
web=(emscripten nodejs:node npm:npm chromium dpkg-dev)
# examples/chipmunk_float couples puddle with Chipmunk2D; `make test` builds and runs it.
examples=(libchipmunk-dev)
# make test-fuzz: clang with its libFuzzer and sanitizer runtimes (libclang_rt.fuzzer)
fuzz=(clang libclang-rt-dev)
# puddle run --vdb: OpenVDB, and the Boost headers its headers include (Debian's libopenvdb-dev
# does not pull them in)
vdb=(libopenvdb-dev libboost-dev)
# scripts/render-blender.py: Cycles renders of the 3D surfaces (`blender -b -P`), test cli.blender
blender=(blender)
# mpirun -np N puddle run: Open MPI (mpi/, docs/mpi.md); tests mpi.hash, mpi.files, mpi.failure;
# VTK's Python module (192 MB with its libraries), with which mpi.files reads the split run's
# .pvtp back through ParaView's reader
mpi=(libopenmpi-dev openmpi-bin python3-vtk9)
# make python / make test-python: the Python module (python/), built by setuptools from the C
# sources against Debian's Python and numpy; pytest for its tests, matplotlib for its examples,
# venv and pip to install it into a virtual environment that sees these
python=(build-essential libcjson-dev libpng-dev python3-dev python3-numpy python3-setuptools python3-pip python3-venv
	python3-pytest python3-matplotlib)

want=()
for group in "${@:-all}"; do
	case "$group" in
	core) want+=("${core[@]}") ;;
	io) want+=("${io[@]}") ;;
	viewer) want+=("${viewer[@]}") ;;
	web) want+=("${web[@]}") ;;
	examples) want+=("${examples[@]}") ;;
	fuzz) want+=("${fuzz[@]}") ;;
	vdb) want+=("${vdb[@]}") ;;
	blender) want+=("${blender[@]}") ;;
	mpi) want+=("${mpi[@]}") ;;
	python) want+=("${python[@]}") ;;
	all) want+=("${core[@]}" "${io[@]}" "${viewer[@]}" "${web[@]}" "${examples[@]}" "${fuzz[@]}" "${vdb[@]}" "${blender[@]}" "${mpi[@]}" "${python[@]}") ;;
	*) echo "install-deps: unknown group '$group' (core, io, viewer, web, examples, fuzz, vdb, blender, mpi, python, all)" >&2; exit 2 ;;
	esac
done

missing=()
for entry in "${want[@]}"; do
	pkg=${entry%%:*}
	cmd=${entry#*:}
	if [ "$cmd" != "$entry" ] && command -v "$cmd" >/dev/null 2>&1; then continue; fi
	if ! dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed'; then
		missing+=("$pkg")
	fi
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
echo "install-deps: installing ${missing[*]}"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}"
