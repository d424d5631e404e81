#!/usr/bin/env bash
# Links a libFuzzer target against the AddressSanitizer build of `make test` (.build-asan,
# `make asan-build`), whose objects are compiled with libFuzzer's coverage (inline 8-bit
# counters, the PC table, comparisons): the fuzzers cost a link, not a fourth compile.
# Prints the fuzzer's path.
#   Fuzz/build.sh [routine|files|sensors|mqtt]   RoutineFuzzer.swift (default), WorkoutFileFuzzer.swift,
#                                                SensorFuzzer.swift or MQTTFuzzer.swift
set -euo pipefail
cd "$(dirname "$0")/.."
scratch=.build-fuzz
bin=.build-asan/debug
case "${1:-routine}" in
  routine) source=Fuzz/RoutineFuzzer.swift; fuzzer="$scratch/workout-fuzz" ;;
  files) source=Fuzz/WorkoutFileFuzzer.swift; fuzzer="$scratch/workout-fuzz-files" ;;
  sensors) source=Fuzz/SensorFuzzer.swift; fuzzer="$scratch/workout-fuzz-sensors" ;;
  mqtt) source=Fuzz/MQTTFuzzer.swift; fuzzer="$scratch/workout-fuzz-mqtt" ;;
  *) echo "usage: Fuzz/build.sh [routine|files|sensors|mqtt]" >&2; exit 64 ;;
esac
# The libraries the fuzzers reach: Platform's system calls, the engine, the past sessions, the
# routine's sound files, the Lua bridge, the history, the GATT decoders, FIT files, the activity
# files and the workout files of Interchange; the class's payload readers (a remote's command,
# the participants, the coach's state, clock and timeline) and the broker they import.
targets=(WorkoutValues Platform FIT IntervalEngine PastSessions SoundFiles LuaBridge History GATT Activity Interchange
         Broker RemoteControl ClassPublishing ClassFollowing)
probe="$bin/IntervalEngine.build/Session.swift.o"
# (grep reads all of nm's output: -q would end the pipe early, and pipefail would see nm fail)
if ! nm "$probe" 2>/dev/null | grep sancov.module_ctor_8bit_counters >/dev/null; then
  echo "Fuzz/build.sh: $probe is missing or has no libFuzzer coverage: run make asan-build first" >&2
  exit 1
fi
mkdir -p "$scratch"
# The objects of the files each target has now: a file moved to another target leaves its
# old object behind in the build folder.
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
  -Xcc -fmodule-map-file=Sources/CMosquitto/module.modulemap \
  $(pkg-config --cflags-only-I lua5.4 | sed 's/-I/-Xcc -I/g') \
  "$source" "${objects[@]}" $(pkg-config --libs lua5.4) \
  -o "$fuzzer" 2>&1 | { grep -v "Cannot export local symbol" || true; } >&2
echo "$fuzzer"
