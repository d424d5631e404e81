# Two entry points (README): `make run` runs the bundled demo, `make test` runs every
# test. Both install what is missing first, with sudo when not root.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# pkg-config itself may be missing on a fresh machine. The rest are for the
# tests: lua-check lints the bundled routines and the examples of docs/routines.md;
# tmux drives the live display; dbus-run-session, notify-send and Debian's python3 with
# dbus and gi run a notification server; python3-venv, hyperfine and jq serve the benchmark
# script's smoke test (termdown goes into a venv, hyperfine times the start-up, jq is what
# `history stats` is compared with; the C
# compiler that builds benchmarks/rusage.c comes with the Swift toolchain).
PACKAGES := pkgconf liblua5.4-dev
TEST_PACKAGES := lua-check tmux dbus dbus-daemon libnotify-bin python3 python3-dbus python3-gi \
  python3-venv hyperfine jq
# What `make bench` needs besides the build: the pane, the timer, the peer's venv, and jq,
# which `history stats` is measured against.
BENCH_PACKAGES := tmux hyperfine python3 python3-venv jq

.PHONY: run test deps test-deps install build release clean definitions test-asan fuzz-smoke fuzz \
  bench bench-smoke

# Seconds of fuzzing in `make test`, and in `make fuzz`.
FUZZ_SECONDS ?= 20
FUZZ_LONG_SECONDS ?= 600

deps:
	@$(MAKE) --no-print-directory install PACKAGES="$(PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory install PACKAGES="$(PACKAGES) $(TEST_PACKAGES)"

install:
	@missing=""; \
	for package in $(PACKAGES); do \
	  dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  echo "Installing:$$missing"; \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  $(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

# Statically linked Swift runtime and Foundation: a third less start-up time and about
# 6 MB less memory than loading the shared libraries (BENCHMARKS.md).
release: deps
	$(SWIFT) build -c release --static-swift-stdlib

run: release
	.build/release/workout run programs/demo.lua

# Every test, then the same tests once more under AddressSanitizer (own scratch path,
# so the normal build stays incremental), then a bounded fuzz run, then a tiny run of the
# benchmark script.
test: test-deps
	$(SWIFT) build
	WORKOUT_BIN=$(CURDIR)/.build/debug/workout $(SWIFT) test --disable-swift-testing
	$(MAKE) test-asan
	$(MAKE) fuzz-smoke
	$(MAKE) bench-smoke

# Leak checking stays off: Swift's runtime caches live until exit and would be reported.
test-asan: test-deps
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	ASAN_OPTIONS=detect_leaks=0 WORKOUT_BIN=$(CURDIR)/.build-asan/debug/workout \
	  $(SWIFT) test --skip-build --sanitize=address --scratch-path .build-asan --disable-swift-testing

fuzz-smoke: deps
	Fuzz/run.sh $(FUZZ_SECONDS)

fuzz: deps
	Fuzz/run.sh $(FUZZ_LONG_SECONDS)

# The release build against the targets of docs/design.md and termdown (a few minutes): prints the figures and
# rewrites the part of BENCHMARKS.md between its markers. Debian's python3, not PATH's.
bench: release
	@$(MAKE) --no-print-directory install PACKAGES="$(BENCH_PACKAGES)"
	BENCH_VIA="make bench" /usr/bin/python3 benchmarks/bench.py --workout .build/release/workout \
	  --markdown BENCHMARKS.md --json .build-bench/figures.json

# The benchmark script's own tests: its helpers, and a --tiny run (a few seconds, on the
# debug build) that must produce every figure, so the script cannot rot.
bench-smoke: test-deps
	$(SWIFT) build
	WORKOUT_BIN=$(CURDIR)/.build/debug/workout /usr/bin/python3 -m unittest -v benchmarks/test_bench.py

# Regenerates the files made from the engine's API table; a test fails when they are stale.
definitions: build
	.build/debug/workout definitions luals > programs/types/workout.lua
	.build/debug/workout definitions luarc > programs/.luarc.json
	.build/debug/workout definitions luacheck > .luacheckrc
	.build/debug/workout definitions reference > docs/api.md

clean:
	rm -rf .build .build-asan .build-fuzz .build-bench
