# puddle: the two commands.
#   make demo   builds what is missing and renders the default scene to out/demo.mp4 + out/demo.png
#   make test   installs what is missing and runs every test (release, ASan+UBSan, TSan, viewer, web, Python)
# Everything else here is what those two are made of.

JOBS ?= $(shell nproc 2>/dev/null || echo 2)
CMAKE_FLAGS ?=
CTEST = ctest --output-on-failure -j$(JOBS)

.PHONY: all build demo test test-release test-asan test-tsan test-web test-fuzz test-python test-web-python test-checked python deps deps-all web bench validate clean

all: build

deps:
	@scripts/install-deps.sh core io viewer

deps-all:
	@scripts/install-deps.sh all

build: deps
	cmake -S . -B build -DCMAKE_BUILD_TYPE=Release $(CMAKE_FLAGS)
	cmake --build build -j$(JOBS)

demo: build
	scripts/demo.sh

# The parts one after the other, but for the web page's tests: they wait on the browser most of
# the time (the page steps at most once a frame; their run took 165 s of CPU in 41 minutes beside
# other work, `time make -C web test`), so they and then the Python tests run beside the sanitizer
# suites, in a second lane (make -j2; the outputs interleave line by line). The fuzzers want both
# cores: last.
# Each part's time is printed as it ends (CI's log keeps the tail: where make test's time goes).
TIMED = t=$$(date +%s); $(MAKE) --no-print-directory
TOOK = echo "make test: $$part took $$(( $$(date +%s) - t )) s, $$(( $$(date +%s) - $$start )) s so far"
test: deps-all
	@start=$$(date +%s); \
	part=test-release; $(TIMED) test-release || exit 1; $(TOOK); \
	part="test-web-python + test-checked"; $(TIMED) -j2 test-web-python test-checked || exit 1; $(TOOK); \
	part=test-fuzz; $(TIMED) test-fuzz || exit 1; $(TOOK)

# make test's two lanes: the web and Python tests; the ASan+UBSan and TSan suites.
TIMED_PART = @t=$$(date +%s); $(MAKE) --no-print-directory $(1) && echo "make test: $(1) took $$(( $$(date +%s) - t )) s"
test-web-python:
	$(call TIMED_PART,test-web)
	$(call TIMED_PART,test-python)
test-checked:
	$(call TIMED_PART,test-asan)
	$(call TIMED_PART,test-tsan)

# `make test` installs everything first, so there a test of an optional tool (cli.blender) or an
# optional part left out of the build (cli.optional_tools) fails instead of reporting itself
# skipped: CI catches a missing install step. A plain `ctest` skips them, saying why.
test: export PUDDLE_TEST_ALL := 1

test-release: build
	cd build && $(CTEST)

# The whole suite again with AddressSanitizer + UndefinedBehaviorSanitizer, the engine's and io's
# long loops in quick mode (a sixth of their steps, as under TSan): every stage and path still runs,
# and the physics figures are asserted by the release run. In full, core.bodies took 526 s and
# core.sph 458 s under the sanitizers (12x their release time), a third of `make test`.
test-asan: deps
	cmake -S . -B build-asan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPUDDLE_SANITIZE=ON $(CMAKE_FLAGS)
	cmake --build build-asan -j$(JOBS)
	cd build-asan && PUDDLE_TEST_QUICK=1 ASAN_OPTIONS=detect_leaks=1 UBSAN_OPTIONS=print_stacktrace=1 $(CTEST) -LE no-sanitizer

# The engine's tests under ThreadSanitizer (the thread pool and every parallel stage), in quick
# mode: long loops run a sixth of their steps (races show up at once; TSan makes the step 50 to
# 150 times slower than the release build). Not the tests labelled threads-elsewhere, whose lines
# of src/ the others run on two threads too (tests/CMakeLists.txt), nor, with PUDDLE_TEST_TSAN,
# the cases of that kind (RUN_TEST_THREADS_ELSEWHERE, tests/test.h).
test-tsan: deps
	cmake -S . -B build-tsan -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPUDDLE_TSAN=ON -DPUDDLE_APPS=OFF $(CMAKE_FLAGS)
	cmake --build build-tsan -j$(JOBS)
	cd build-tsan && PUDDLE_TEST_QUICK=1 PUDDLE_TEST_TSAN=1 TSAN_OPTIONS="halt_on_error=1 second_deadlock_stack=1" $(CTEST) -L core -LE 'no-sanitizer|threads-elsewhere'

# libFuzzer (clang): the scene parser and the snapshot reader, FUZZ_SECONDS each from their seed
# corpora (scenes/*.json; snapshots the release build's puddle writes), both at once (each is one
# process on one core); each one's log is printed when both are done. New inputs go to
# build-fuzz/corpus/; a finding stops the target with the crash file's name. docs/fuzzing.md
# says how to run them for hours.
FUZZ_SECONDS ?= 45
test-fuzz: build
	@scripts/install-deps.sh fuzz
	CC=clang cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DPUDDLE_FUZZ=ON -DPUDDLE_APPS=OFF -DPUDDLE_TESTS=OFF $(CMAKE_FLAGS)
	cmake --build build-fuzz -j$(JOBS) --target fuzz_scene fuzz_snapshot
	fuzz/make-seeds.sh build/apps/cli/puddle build-fuzz/seeds/snapshot
	mkdir -p build-fuzz/corpus/scene build-fuzz/corpus/snapshot build-fuzz/findings
	build-fuzz/fuzz/fuzz_scene -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=build-fuzz/findings/ build-fuzz/corpus/scene scenes fuzz/seeds/scene > build-fuzz/scene.log 2>&1 & scene=$$!; \
	build-fuzz/fuzz/fuzz_snapshot -max_total_time=$(FUZZ_SECONDS) -print_final_stats=1 -artifact_prefix=build-fuzz/findings/ build-fuzz/corpus/snapshot build-fuzz/seeds/snapshot > build-fuzz/snapshot.log 2>&1; snapshot=$$?; \
	wait $$scene; scene=$$?; \
	echo "== fuzz_scene (exit $$scene)"; cat build-fuzz/scene.log; echo "== fuzz_snapshot (exit $$snapshot)"; cat build-fuzz/snapshot.log; \
	[ $$scene -eq 0 ] && [ $$snapshot -eq 0 ]

# The physics validation suite (validate/, docs/validation.md): every case for every solver,
# measured from geometry and against experiment, one table row per check. Writes the markdown
# table to out/validate.md and prints it; fails on an unexpected failure. Well under an hour on
# 2 cores; VALIDATE_FLAGS="--quick" for minutes, "--solver dfsph --case pool2d" for one.
VALIDATE_FLAGS ?=
validate: build
	mkdir -p out
	build/validate/puddle-validate --out out/validate.md --label "commit $$(git rev-parse --short HEAD 2>/dev/null)" $(VALIDATE_FLAGS)

# The Python module (python/, python/README.md): setup.py compiles the core and io sources itself,
# so this needs no CMake build. It installs into PYTHON: Debian's /usr/bin/python3 by default
# (under /usr/local, which virtual environments made with --system-site-packages see too; Debian
# marks its Python externally managed, hence --break-system-packages, which leaves Debian's own
# packages alone), or the virtual environment's python given as PYTHON=.venv/bin/python.
PYTHON ?= /usr/bin/python3
PIP_INSTALL = $(PYTHON) -m pip install --no-build-isolation --no-index
# (PEP 668: a Python is externally managed where its stdlib holds the marker, outside a venv)
PY_MANAGED = import os, sys, sysconfig; sys.exit(sys.prefix != sys.base_prefix or \
	not os.path.exists(os.path.join(sysconfig.get_path("stdlib"), "EXTERNALLY-MANAGED")))
python:
	@scripts/install-deps.sh python
	@if $(PYTHON) -c '$(PY_MANAGED)'; then \
		user=$$([ "$$(id -u)" -ne 0 ] && echo --user); \
		echo "$(PIP_INSTALL) --break-system-packages $$user ./python"; \
		$(PIP_INSTALL) --break-system-packages $$user ./python; \
	else \
		echo "$(PIP_INSTALL) ./python"; $(PIP_INSTALL) ./python; \
	fi

# The Python module's tests (pytest, under a minute): installed into a fresh virtual environment
# made from Debian's Python with --system-site-packages (numpy, pytest and matplotlib are
# Debian's), as a user would; the release build's puddle command gives the hashes to match.
PY_VENV = build-python/venv
test-python: build
	@scripts/install-deps.sh python
	rm -rf $(PY_VENV)
	/usr/bin/python3 -m venv --system-site-packages $(PY_VENV)
	$(PY_VENV)/bin/python -m pip install -q --no-build-isolation --no-index ./python
	PUDDLE_CLI=build/apps/cli/puddle $(PY_VENV)/bin/python -m pytest -q -p no:cacheprovider python/tests

# The web page and package's tests (web/test; its two builds side by side, -j), then the README's figures against what was built, the wasm sizes included
# (scripts/readme-figures.py; --write updates them)
test-web:
	@if [ -f web/Makefile ]; then $(MAKE) -C web -j$(JOBS) test; else echo "test-web: no web/ yet"; fi
	@if [ -x build/apps/cli/puddle ] && [ -f web/Makefile ]; then \
		scripts/readme-figures.py --puddle build/apps/cli/puddle --wasm web/dist --require-wasm; fi

web:
	$(MAKE) -C web

bench: build
	@if [ -x bench/run.sh ]; then bench/run.sh; else build/apps/cli/puddle bench; fi

clean:
	rm -rf build build-asan build-tsan build-fuzz build-python out python/build
