#!/usr/bin/env bash
# Runs libFuzzer targets for a bounded time: Fuzz/run.sh SECONDS [routine|files|sensors|mqtt]
# (each; all four without a name). The routine fuzzer starts from the bundled routines and
# Fuzz/seeds (history lines and option values, which it reads the same bytes as too), the
# workout-file fuzzer (.zwo, intervals.icu text, FIT workouts, .erg and .mrc, through import
# and export; JSON as a planned event's workout_doc) from the interchange and intervals.icu
# fixtures, the sensor fuzzer (GATT values, history lines
# read and written back, the athlete and sensors files, FIT activity files) from Fuzz/seeds,
# the MQTT fuzzer (a participant's message, the coach's state, clock answer and timeline, a
# command) from Fuzz/mqtt-seeds; inputs that
# reach new code are kept in .build-fuzz/corpus*, a crashing input is written to
# .build-fuzz/ and the run fails. The fuzzers are linked against `make asan-build`
# (Fuzz/build.sh).
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"

# fuzz NAME DICT CORPUS SEEDS...
fuzz() {
  local fuzzer log
  fuzzer="$(Fuzz/build.sh "$1")"
  mkdir -p "$3"
  log=".build-fuzz/fuzz-$1.log"
  # Swift's runtime keeps caches for the life of the process; they are not leaks.
  # The Swift runtime's backtracer is off: libFuzzer prints the stack, and the backtracer
  # could wait on the dead process.
  if SWIFT_BACKTRACE=enable=no ASAN_OPTIONS=detect_leaks=0 "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
       -max_len=8192 -dict="$2" -detect_leaks=0 -print_final_stats=1 \
       -artifact_prefix=.build-fuzz/ "$3" "${@:4}" >"$log" 2>&1; then
    runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
    echo "fuzz $1: $runs inputs in ${seconds} s, no crash, no hang, no escaped error (log: $log)"
  else
    tail -40 "$log"
    echo "fuzz $1: FAILED — the input is in .build-fuzz/ (crash-*, timeout-* or oom-*)" >&2
    exit 1
  fi
}

case "${2:-all}" in
  routine|all) fuzz routine Fuzz/lua.dict .build-fuzz/corpus programs/ Fuzz/seeds/ ;;&
  files|all) fuzz files Fuzz/files.dict .build-fuzz/corpus-files Tests/SystemTests/Fixtures/interchange/ \
    Tests/SystemTests/Fixtures/intervals/ ;;&
  sensors|all) fuzz sensors Fuzz/sensors.dict .build-fuzz/corpus-sensors Fuzz/seeds/ ;;&
  mqtt|all) fuzz mqtt Fuzz/mqtt.dict .build-fuzz/corpus-mqtt Fuzz/mqtt-seeds/ ;;
  routine|files|sensors) ;;
  *) echo "usage: Fuzz/run.sh SECONDS [routine|files|sensors|mqtt]" >&2; exit 64 ;;
esac
