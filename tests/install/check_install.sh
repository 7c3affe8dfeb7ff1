#!/usr/bin/env bash
# Installs the built library into a scratch prefix, then builds the README example against it
# twice: with CMake's find_package(puddle) and with pkg-config. Usage: check_install.sh BUILD_DIR
set -euo pipefail
build=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
cmake --install "$build" --prefix "$scratch/prefix" >/dev/null
cmake -S "$here" -B "$scratch/consumer" -DCMAKE_PREFIX_PATH="$scratch/prefix" >/dev/null
cmake --build "$scratch/consumer" >/dev/null
"$scratch/consumer/consumer"
libdir=$(ls -d "$scratch"/prefix/lib*/pkgconfig | head -n 1)
flags=$(PKG_CONFIG_PATH="$libdir" pkg-config --cflags --libs --static puddle)
cc -std=c11 "$here/../../examples/hello_puddle.c" $flags -o "$scratch/pc_consumer"
"$scratch/pc_consumer"
echo "install: find_package and pkg-config consumers built and ran"
