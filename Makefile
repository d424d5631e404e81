# Two entry points (README): `make run` runs the bundled demo, `make test` runs every
# test. Both install what is missing first, with sudo when not root.
SWIFT ?= swift
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)
# pkg-config itself may be missing on a fresh machine (SPEC §9); lua-check lints the
# bundled routines and the examples of docs/routines.md.
PACKAGES := pkgconf liblua5.4-dev lua-check

.PHONY: run test deps build release clean definitions

deps:
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

release: deps
	$(SWIFT) build -c release

run: release
	.build/release/workout run programs/demo.lua

test: build
	WORKOUT_BIN=$(CURDIR)/.build/debug/workout $(SWIFT) test --disable-swift-testing

# Regenerates the files made from the engine's API table; a test fails when they are stale.
definitions: build
	.build/debug/workout definitions luals > programs/types/workout.lua
	.build/debug/workout definitions luarc > programs/.luarc.json
	.build/debug/workout definitions luacheck > .luacheckrc
	.build/debug/workout definitions reference > docs/api.md

clean:
	rm -rf .build
