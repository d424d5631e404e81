#!/usr/bin/env bash
# `make test`'s phases, timed: Tests/phase.sh NAME COMMAND... runs COMMAND and adds its wall
# time to .build/test-phases.txt; Tests/phase.sh --start empties that file; Tests/phase.sh
# --print prints it. A phase that fails prints the table so far and fails make test.
set -uo pipefail
cd "$(dirname "$0")/.."
table=.build/test-phases.txt
mkdir -p .build
print() {
  echo "make test's phases (wall time):"
  awk '{ total += $2; printf "  %-14s %7.1f s  %s\n", $1, $2, $3 } END { printf "  %-14s %7.1f s\n", "all", total }' "$table"
  # What failed, last: CI shows only the end of the output.
  if [ -s .build/lanes/failed.txt ]; then cat .build/lanes/failed.txt; fi
}
case "$1" in
  --start) : > "$table"; rm -f .build/lanes/failed.txt; exit 0 ;;
  --print) print; exit 0 ;;
esac
name="$1"; shift
started=$(date +%s.%N)
"$@"
status=$?
ended=$(date +%s.%N)
echo "$name $(awk "BEGIN { print $ended - $started }") $([ $status = 0 ] && echo ok || echo "FAILED (exit $status)")" >> "$table"
if [ $status != 0 ]; then print; fi
exit $status
