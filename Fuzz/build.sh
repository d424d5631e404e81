#!/usr/bin/env bash
# Builds a libFuzzer target: the libraries it reaches (Platform's system calls, the engine, the
# past sessions, the routine's sound files, the Lua bridge, the history, the GATT decoders, FIT
# files, the activity files and the workout files of Interchange)
# compiled with coverage and AddressSanitizer (SwiftPM, its own scratch path, no linking),
# then the target linked against their objects with libFuzzer's main. Prints the fuzzer's path.
#   Fuzz/build.sh [routine|files|sensors]   RoutineFuzzer.swift (default), WorkoutFileFuzzer.swift
#                                           or SensorFuzzer.swift
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-fuzz
case "${1:-routine}" in
  routine) source=Fuzz/RoutineFuzzer.swift; fuzzer="$scratch/workout-fuzz" ;;
  files) source=Fuzz/WorkoutFileFuzzer.swift; fuzzer="$scratch/workout-fuzz-files" ;;
  sensors) source=Fuzz/SensorFuzzer.swift; fuzzer="$scratch/workout-fuzz-sensors" ;;
  *) echo "usage: Fuzz/build.sh [routine|files|sensors]" >&2; exit 64 ;;
esac
# Each of these and what it imports (the values and the engine, which the others import).
targets=(WorkoutValues Platform FIT IntervalEngine PastSessions SoundFiles LuaBridge History GATT Activity Interchange)
for target in "${targets[@]}"; do
  swift build --scratch-path "$scratch" --target "$target" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library >&2
done
bin="$(swift build --scratch-path "$scratch" --show-bin-path)"
# The objects of the files each target has now: a file moved to another target leaves its
# old object behind in this scratch path.
objects=()
for target in "${targets[@]}"; do
  while IFS= read -r file; do
    objects+=("$bin/$target.build/$(basename "$file" .swift).swift.o")
  done < <(find "Sources/$target" -name '*.swift')
done
swiftc -sanitize=fuzzer,address -parse-as-library -g \
  -I "$bin/Modules" -I "$bin" -Xcc -fmodule-map-file=Sources/CLua/module.modulemap \
  -Xcc -fmodule-map-file=Sources/CSystem/module.modulemap \
  -Xcc -fmodule-map-file=Sources/CSndfile/module.modulemap \
  $(pkg-config --cflags-only-I lua5.4 | sed 's/-I/-Xcc -I/g') \
  "$source" "${objects[@]}" $(pkg-config --libs lua5.4) \
  -o "$fuzzer" 2>&1 | { grep -v "Cannot export local symbol" || true; } >&2
echo "$fuzzer"
