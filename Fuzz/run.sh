#!/usr/bin/env bash
# Runs the libFuzzer target for a bounded time: Fuzz/run.sh SECONDS. The bundled
# routines and Fuzz/seeds (history lines, option values) are the seeds; inputs that reach new code are kept in .build-fuzz/corpus,
# a crashing input is written to .build-fuzz/ and the run fails.
set -euo pipefail
cd "$(dirname "$0")/.."
seconds="${1:-20}"
fuzzer="$(Fuzz/build.sh)"
mkdir -p .build-fuzz/corpus
log=.build-fuzz/fuzz.log
# Swift's runtime keeps caches for the life of the process; they are not leaks.
if ASAN_OPTIONS=detect_leaks=0 "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 \
     -max_len=8192 -dict=Fuzz/lua.dict -detect_leaks=0 -print_final_stats=1 \
     -artifact_prefix=.build-fuzz/ .build-fuzz/corpus programs/ Fuzz/seeds/ >"$log" 2>&1; then
  runs=$(grep -o 'stat::number_of_executed_units: *[0-9]*' "$log" | grep -o '[0-9]*$' || echo "?")
  echo "fuzz: $runs inputs in ${seconds} s, no crash, no hang, no escaped error (log: $log)"
else
  tail -40 "$log"
  echo "fuzz: FAILED — the input is in .build-fuzz/ (crash-*, timeout-* or oom-*)" >&2
  exit 1
fi
