# Two entry points (README): `make run` runs the bundled demo, `make test` runs every
# test. Both install the Debian packages that are missing first (as root; a user who is
# not root is told which to install). `make install` and `make deb` install workout itself.
SWIFT ?= swift
# pkg-config itself may be missing on a fresh machine; libsystemd-dev gives the sd-bus
# header of the DBus module: Bluetooth, the music players, keeping the computer awake during a
# run (libsystemd is opened at run time, not linked: docs/design.md). The rest are for the tests:
# lua-check lints the bundled routines and the examples of docs/routines.md; tmux drives
# the live display; dbus-run-session, notify-send and Debian's python3 with dbus and gi run
# a notification server; python3-venv, hyperfine and jq serve the benchmark script's smoke
# test (termdown goes into a venv, hyperfine times the start-up, jq is what `history stats`
# is compared with; the C compiler that builds benchmarks/rusage.c comes with the Swift
# toolchain); man-db, bash-completion, fish and zsh check what `make install` installs and the completion scripts, lintian
# and dpkg-dev the .deb; chromium, chromium-driver and python3-selenium open the page of
# `run --serve` in a real browser, and zbar-tools reads back the QR code the display
# draws; pulseaudio and pulseaudio-utils run a private sound server whose output the sound
# tests record, and espeak-ng renders the words that --voice plays through it. libqrencode-dev makes that code; libcurl4-openssl-dev lets the release build
# link workout-serve statically (its HTTP library links FoundationNetworking, which links
# libcurl), and is the header of the intervals.icu calendar's client (Sources/CCurl; libcurl
# is opened at run time); libpulse-dev is the sound player's header (Sources/CPulse; libpulse is opened at run time).
# libsndfile1-dev is the header of the sound files' decoder (Sources/CSndfile; opened at run time
# too). bluez gives bluetoothctl, which the sensor tests hold the fake BlueZ to; libxml2-utils
# gives xmllint, which checks exported TCX files against their schema; sox makes sound files;
# mpv, mpv-mpris and playerctl are the music player the tests lower under the cues; ffmpeg
# makes the Opus and MP3 files sox cannot; pipewire, wireplumber and pipewire-pulse are the
# sound server most desktops run, started by the sound tests beside pulseaudio.
# libmosquitto-dev is the header of `run --mqtt`'s MQTT client (Sources/CMosquitto; libmosquitto
# is opened at run time); mosquitto and mosquitto-clients are the broker the MQTT tests start
# on a private port, and the mosquitto_sub and mosquitto_pub they read and command it with;
# openssl makes the private CA and certificate of its TLS listener.
PACKAGES := pkgconf liblua5.4-dev libqrencode-dev libcurl4-openssl-dev libsystemd-dev libpulse-dev libsndfile1-dev \
  libmosquitto-dev
TEST_PACKAGES := lua-check tmux dbus dbus-daemon libnotify-bin python3 python3-dbus python3-gi \
  python3-venv hyperfine jq man-db bash-completion fish zsh lintian dpkg-dev chromium chromium-driver \
  python3-selenium zbar-tools pulseaudio pulseaudio-utils espeak-ng bluez libxml2-utils sox \
  mpv mpv-mpris playerctl ffmpeg pipewire wireplumber pipewire-pulse mosquitto mosquitto-clients openssl
# What `make bench` needs besides the build: the pane, the timer, the peer's venv, jq,
# which `history stats` is measured against, the browser that shows the served page, and
# the private sound servers (PulseAudio and PipeWire) whose output the sound rows record.
BENCH_PACKAGES := tmux hyperfine python3 python3-venv jq chromium chromium-driver python3-selenium \
  pulseaudio pulseaudio-utils pipewire wireplumber pipewire-pulse dbus-daemon
# What `make deb` needs: dpkg-shlibdeps computes Depends (dpkg-deb comes with dpkg).
DEB_PACKAGES := dpkg-dev

# Where `make install` puts workout; DESTDIR is prefixed to every path (for packaging).
PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(DESTDIR)$(PREFIX)/bin
SHAREDIR = $(DESTDIR)$(PREFIX)/share
# zsh's completion folder under share: site-functions is in zsh's fpath for /usr/local;
# Debian's zsh reads packages' from vendor-completions (make deb).
ZSH_COMPLETIONS = zsh/site-functions

# The release binary: optimised, the Swift runtime and Foundation linked in statically,
# stripped, and without an $ORIGIN run path. Every target that builds it (run, install,
# deb, bench, test) uses these flags, so .build/release/workout is the same binary
# whichever ran last. `-Xswiftc -static-stdlib` is what `--static-swift-stdlib` passes
# to the linking swiftc, spelt so that `swift package` takes it too: the manual's plugin
# then finds this build up to date instead of relinking it another way.
RELEASE_FLAGS := -c release -Xswiftc -static-stdlib -Xlinker --strip-all --disable-local-rpath
BINARY := .build/release/workout
# swift-argument-parser's generate-manual plugin writes the man page here.
MANUAL := .build/plugins/GenerateManual/outputs/workout/workout.1
# The version has one home, Sources/WorkoutCLI/Version.swift.
VERSION := $(shell sed -n 's/^ *static let number = "\(.*\)"$$/\1/p' Sources/WorkoutCLI/Version.swift)
DEB = dist/workout_$(VERSION)_$(shell dpkg --print-architecture).deb
# The man page's date: the last commit's, so the same commit gives the same page.
MANUAL_DATE := $(shell git log -1 --format=%cs 2>/dev/null || date -u +%F)

.PHONY: run test test-unit warnings deps test-deps fit-decoders packages build release manual install install-built uninstall deb \
  deb-built clean definitions asan-build fuzz-smoke fuzz bench bench-smoke

# Seconds of fuzzing in `make test`, and in `make fuzz`.
FUZZ_SECONDS ?= 20
FUZZ_LONG_SECONDS ?= 600

deps:
	@$(MAKE) --no-print-directory packages PACKAGES="$(PACKAGES)"

test-deps:
	@$(MAKE) --no-print-directory packages PACKAGES="$(PACKAGES) $(TEST_PACKAGES)"
	@$(MAKE) --no-print-directory fit-decoders

# The decoders that check exported FIT files: Garmin's own FIT SDK for Python and
# fitdecode, pinned, in a venv of Debian's python3 (as bench.py makes termdown's), made
# once and remade when a pin changes. The tests find it here (or at FIT_PYTHON) and fail
# without it.
FIT_VENV := .build-fit/venv
FIT_DECODERS := garmin-fit-sdk==21.218.0 fitdecode==0.11.0
fit-decoders:
	@if ! $(FIT_VENV)/bin/python -c 'import importlib.metadata as m, sys; sys.exit(0 if all(m.version(p.split("==")[0]) == p.split("==")[1] for p in sys.argv[1:]) else 1)' $(FIT_DECODERS) 2>/dev/null; then \
	  echo "FIT decoders: installing $(FIT_DECODERS) into $(FIT_VENV)"; \
	  /usr/bin/python3 -m venv $(FIT_VENV) && \
	  $(FIT_VENV)/bin/pip install --quiet --disable-pip-version-check $(FIT_DECODERS); \
	fi

# Installs the Debian packages of PACKAGES that are missing. No sudo: root installs them,
# anyone else is told what to install.
packages:
	@missing=""; \
	for package in $(PACKAGES); do \
	  dpkg -s $$package >/dev/null 2>&1 || missing="$$missing $$package"; \
	done; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" != 0 ]; then \
	    echo "Missing Debian packages:$$missing. As root: apt-get install$$missing" >&2; exit 1; \
	  fi; \
	  echo "Installing:$$missing"; \
	  env DEBIAN_FRONTEND=noninteractive apt-get update -qq && \
	  env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing; \
	fi

build: deps
	$(SWIFT) build

release: deps
	$(SWIFT) build $(RELEASE_FLAGS)

# The man page, from the commands' own help (a no-op build of the release, then the tool).
manual: release
	$(SWIFT) package $(RELEASE_FLAGS) plugin generate-manual --date $(MANUAL_DATE)

run: release
	$(BINARY) run programs/demo.lua

# `make install [PREFIX=/usr/local] [DESTDIR=…]`: builds, then installs what install-built
# lists. A user without root passes PREFIX=$HOME/.local.
install: release manual
	@$(MAKE) --no-print-directory install-built

# Installs what `make release manual` built, without building (the tests call it from
# inside `swift test`, whose lock on .build a nested build would wait for): the binary;
# the bundled routines with the editor files (LuaLS definitions, .luarc.json,
# .luacheckrc) in share/workout/programs, where the binary looks for them; the man page;
# completions for bash, zsh and fish, generated by the binary itself (bash's without the
# #! line: the file is sourced, never run).
install-built:
	@test -x $(BINARY) -a -x $(BINARY)-serve -a -f $(MANUAL) || { echo "Nothing built to install: make release manual" >&2; exit 1; }
	install -d $(BINDIR) $(SHAREDIR)/workout $(SHAREDIR)/man/man1 $(SHAREDIR)/bash-completion/completions \
	  $(SHAREDIR)/$(ZSH_COMPLETIONS) $(SHAREDIR)/fish/vendor_completions.d
	install -m 755 $(BINARY) $(BINDIR)/workout
	install -m 755 $(BINARY)-serve $(BINDIR)/workout-serve
	rm -rf $(SHAREDIR)/workout/programs
	cp -R Sources/workout/programs $(SHAREDIR)/workout/programs
	install -m 644 .luacheckrc $(SHAREDIR)/workout/programs/.luacheckrc
	chmod -R u=rwX,go=rX $(SHAREDIR)/workout
	gzip -9n -c $(MANUAL) > $(SHAREDIR)/man/man1/workout.1.gz
	$(BINARY) --generate-completion-script bash | sed '1{/^#!/d}' > $(SHAREDIR)/bash-completion/completions/workout
	$(BINARY) --generate-completion-script zsh > $(SHAREDIR)/$(ZSH_COMPLETIONS)/_workout
	$(BINARY) --generate-completion-script fish > $(SHAREDIR)/fish/vendor_completions.d/workout.fish
	chmod 644 $(SHAREDIR)/man/man1/workout.1.gz $(SHAREDIR)/bash-completion/completions/workout \
	  $(SHAREDIR)/$(ZSH_COMPLETIONS)/_workout $(SHAREDIR)/fish/vendor_completions.d/workout.fish

# Removes every file install-built wrote, and the completion folders it leaves empty
# (bin, share and man stay: they are everyone's). Also the resources folder that
# installations by hand copied into bin.
uninstall:
	rm -f $(BINDIR)/workout $(BINDIR)/workout-serve $(SHAREDIR)/man/man1/workout.1.gz $(SHAREDIR)/bash-completion/completions/workout \
	  $(SHAREDIR)/$(ZSH_COMPLETIONS)/_workout $(SHAREDIR)/fish/vendor_completions.d/workout.fish
	rm -rf $(SHAREDIR)/workout $(BINDIR)/workout_workout.resources
	@for directory in bash-completion/completions bash-completion $(ZSH_COMPLETIONS) zsh \
	  fish/vendor_completions.d fish; do \
	  rmdir $(SHAREDIR)/$$directory 2>/dev/null || true; \
	done

# dist/workout_VERSION_ARCH.deb: what install-built installs under /usr, with README and
# copyright; Depends computed from the binary's libraries (packaging/deb.sh). Building it
# reaches no network (only installing a missing dpkg-dev would).
deb: release manual
	@$(MAKE) --no-print-directory deb-built

deb-built:
	@$(MAKE) --no-print-directory packages PACKAGES="$(DEB_PACKAGES)"
	rm -rf .build/deb
	@$(MAKE) --no-print-directory install-built DESTDIR=$(CURDIR)/.build/deb/debian/workout PREFIX=/usr \
	  ZSH_COMPLETIONS=zsh/vendor-completions
	packaging/deb.sh .build/deb $(VERSION) $(DEB)

# The inner loop: the unit tests alone (Tests/UnitTests: the engine and the display's pure
# parts on the virtual clock, no processes), in seconds. `make test` runs them too.
test-unit: deps
	$(SWIFT) build --build-tests
	$(SWIFT) test --skip-build --disable-swift-testing --filter 'UnitTests\.'

# Every test, in phases whose wall time it prints at the end (Tests/phase.sh): the debug
# build with the tests, no compiler warning, then the lanes (Tests/lanes.py): in parallel
# the release binary and its man page (which the installation and .deb tests wait for),
# the AddressSanitizer build (which the sanitizer's tests and the fuzzers wait for), the
# unit tests, each system test class in a process of its own (Tests/SystemTests: the
# binary, tmux, pulseaudio, PipeWire, Chromium, a broker, the .deb), the same under the
# sanitizer where it finds things, a bounded fuzz run and the benchmark script's smoke
# test; then, alone, the tests that time real sound servers and timers. Tests/lanes.py
# says which test runs where, and why.
LANE_WORKERS ?= 5
LANE_WORKERS_AFTER_BUILDS ?= 6
test: test-deps
	@Tests/phase.sh --start
	@Tests/phase.sh debug-build $(SWIFT) build --build-tests
	@Tests/phase.sh warnings $(MAKE) --no-print-directory warnings
	@Tests/phase.sh lanes /usr/bin/python3 Tests/lanes.py --workers $(LANE_WORKERS) --workers-after-builds $(LANE_WORKERS_AFTER_BUILDS) \
	  --plain .build/debug/workoutPackageTests.xctest --plain-bin $(CURDIR)/.build/debug/workout \
	  --release-build "$(MAKE) --no-print-directory manual" \
	  --asan-build "$(MAKE) --no-print-directory asan-build" \
	  --asan .build-asan/debug/workoutPackageTests.xctest --asan-bin $(CURDIR)/.build-asan/debug/workout \
	  --fuzz-seconds $(FUZZ_SECONDS) --bench-smoke
	@Tests/phase.sh --print

# No compiler warning in our own sources and tests: `make test` fails on one. Read from the
# diagnostics each compile serialises beside its object file (NAME.dia: empty, or the
# file, the line and the message), which stay until that file is compiled again, so a
# build that compiled nothing still shows a warning an earlier build gave. Only the .dia
# of a file that is in the tree counts (one moved away leaves its old .dia behind), plus
# each module's own (emit-module). The packages' warnings are SwiftPM's to silence.
warnings:
	@bin="$$($(SWIFT) build --show-bin-path)"; found=""; \
	for directory in Sources/* Tests/*; do \
	  target="$${directory#*/}"; \
	  [ -d "$$bin/$$target.build" ] || continue; \
	  for dia in "$$bin/$$target.build/$$target.emit-module.dia" \
	    $$(find "$$directory" -name '*.swift' -not -path '*/Fixtures/*' | sed "s|.*/\(.*\)\.swift$$|$$bin/$$target.build/\1.dia|"); do \
	    [ -f "$$dia" ] || continue; \
	    if LC_ALL=C grep -aq -e '/Sources/' -e '/Tests/' "$$dia"; then found="$$found $$dia"; fi; \
	  done; \
	done; \
	if [ -n "$$found" ]; then \
	  echo "Compiler warnings in our sources (make test allows none):" >&2; \
	  for dia in $$found; do LC_ALL=C tr -c '[:print:]' '\n' < "$$dia" | grep -E '.{12,}' | sed 's/^/  /' >&2; done; \
	  exit 1; \
	fi

# The AddressSanitizer build of everything, tests included, in its own scratch path (so the
# normal build stays incremental), compiled with libFuzzer's coverage too (inline 8-bit
# counters, the PC table, comparisons): Fuzz/build.sh links the fuzzers against its
# objects instead of compiling them a fourth time. The coverage costs the sanitizer's
# tests little. SwiftPM does not recompile when only -Xswiftc flags change, so the flags
# are written beside the build and a change starts it anew.
ASAN_FLAGS := --sanitize=address -Xswiftc -sanitize-coverage=edge,inline-8bit-counters,pc-table,trace-cmp
asan-build: test-deps
	@if [ "$$(cat .build-asan/flags 2>/dev/null)" != "$(ASAN_FLAGS)" ]; then rm -rf .build-asan; fi
	$(SWIFT) build --build-tests --scratch-path .build-asan $(ASAN_FLAGS)
	@echo "$(ASAN_FLAGS)" > .build-asan/flags

fuzz-smoke: asan-build
	Fuzz/run.sh $(FUZZ_SECONDS)

fuzz: asan-build
	Fuzz/run.sh $(FUZZ_LONG_SECONDS)

# The release build against the targets of docs/design.md and termdown (a few minutes): prints the figures and
# rewrites the part of BENCHMARKS.md between its markers. Debian's python3, not PATH's.
bench: release
	@$(MAKE) --no-print-directory packages PACKAGES="$(BENCH_PACKAGES)"
	BENCH_VIA="make bench" /usr/bin/python3 benchmarks/bench.py --workout $(BINARY) \
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
	rm -rf .build .build-asan .build-fuzz .build-bench .build-fit dist
