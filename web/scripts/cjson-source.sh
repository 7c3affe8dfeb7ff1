#!/usr/bin/env bash
# cJSON's C source for the WebAssembly build, which compiles io's scene layer and so needs cJSON
# compiled to wasm too. The native build links Debian's libcjson-dev; this takes the same library
# from Debian's source package (apt-get source cjson: the upstream tarball with Debian's patches,
# security fixes included), checked by apt against the archive's signed index. Nothing is kept in
# the repository: the files land in OUT (web/build/cjson, ignored by git).
#
# The machine's apt configuration is left alone: the deb-src entries, the package lists and the
# cache live in a scratch folder.
#
# Usage: scripts/cjson-source.sh OUT
set -euo pipefail

out=${1:?usage: cjson-source.sh OUT}
if [ -f "$out/cJSON.c" ] && [ -f "$out/cJSON.h" ] && [ -f "$out/include/cjson/cJSON.h" ]; then exit 0; fi
for tool in apt-get dpkg-source; do
	if ! command -v "$tool" >/dev/null 2>&1; then
		echo "cjson-source: $tool is missing (Debian's apt and dpkg-dev: scripts/install-deps.sh web)" >&2
		exit 1
	fi
done

codename=$(. /etc/os-release && echo "${VERSION_CODENAME:-}")
if [ -z "$codename" ]; then
	echo "cjson-source: cannot tell the Debian release from /etc/os-release" >&2
	exit 1
fi

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
mkdir -p "$scratch/lists/partial" "$scratch/cache/archives/partial" "$scratch/src"
cat >"$scratch/debian-src.sources" <<SOURCES
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: $codename
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg

Types: deb-src
URIs: http://deb.debian.org/debian-security
Suites: $codename-security
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
SOURCES
apt=(apt-get -q -o "Dir::Etc::SourceList=$scratch/debian-src.sources" -o Dir::Etc::SourceParts=/dev/null
	-o "Dir::State::Lists=$scratch/lists" -o "Dir::Cache=$scratch/cache" -o APT::Sandbox::User=root)

echo "cjson-source: fetching Debian's cjson source package ($codename)"
if ! "${apt[@]}" update >"$scratch/log" 2>&1 ||
	! (cd "$scratch/src" && "${apt[@]}" source --download-only cjson >>"$scratch/log" 2>&1); then
	cat "$scratch/log" >&2
	echo "cjson-source: could not fetch Debian's cjson source package (the wasm build needs cJSON's C source)" >&2
	exit 1
fi
(cd "$scratch/src" && dpkg-source -x ./*.dsc cjson >>"$scratch/log" 2>&1) || {
	cat "$scratch/log" >&2
	exit 1
}
mkdir -p "$out/include/cjson"
# cJSON.c includes "cJSON.h" beside it; puddle includes <cjson/cJSON.h>, as from libcjson-dev
cp "$scratch/src/cjson/cJSON.c" "$scratch/src/cjson/cJSON.h" "$scratch/src/cjson/LICENSE" "$out/"
cp "$scratch/src/cjson/cJSON.h" "$out/include/cjson/"
basename "$scratch"/src/*.dsc .dsc >"$out/VERSION"
echo "cjson-source: $(cat "$out/VERSION") in $out"
