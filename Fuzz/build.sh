#!/usr/bin/env bash
# Builds the libFuzzer target: the IntervalEngine library compiled with coverage and
# AddressSanitizer (SwiftPM, its own scratch path, no linking), then RoutineFuzzer.swift
# linked against its objects with libFuzzer's main. Prints the fuzzer's path.
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-fuzz
swift build --scratch-path "$scratch" --target IntervalEngine \
  -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"
objects=("$bin"/IntervalEngine.build/*.o)
swiftc -sanitize=fuzzer,address -parse-as-library -g \
  -I "$bin/Modules" -I "$bin" -Xcc -fmodule-map-file=Sources/CLua/module.modulemap \
  -Xcc -fmodule-map-file=Sources/CSystem/module.modulemap \
  $(pkg-config --cflags-only-I lua5.4 | sed 's/-I/-Xcc -I/g') \
  Fuzz/RoutineFuzzer.swift "${objects[@]}" $(pkg-config --libs lua5.4) \
  -o "$scratch/workout-fuzz" 2>&1 | { grep -v "Cannot export local symbol" || true; } >&2
echo "$scratch/workout-fuzz"
