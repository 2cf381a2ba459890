#!/usr/bin/env bash
# scripts/test-summary.sh: the last line of `make test`.
#   scripts/test-summary.sh RESULTS
#
# Adds up the lines scripts/test-step.sh wrote to RESULTS and prints one
# line: tests passed, failed and skipped over every check, then each
# check's outcome.  Fails when a check failed or none ran.
set -u
results=$1
if [ ! -s "$results" ]; then
    echo "make test: no check ran"
    exit 1
fi
awk '
    { passed += $3; failed += $4; skipped += $5; n++
      detail = detail (n > 1 ? ", " : "") $1 " " $2
      if ($2 == "failed") bad = 1 }
    END {
        printf "make test: %d passed, %d failed, %d skipped (%s)\n", passed, failed, skipped, detail
        exit bad
    }' "$results"
