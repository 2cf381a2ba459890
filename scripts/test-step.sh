#!/usr/bin/env bash
# scripts/test-step.sh: runs one check of `make test` and records its outcome.
#   scripts/test-step.sh RESULTS NAME COMMAND [ARGS...]
#
# The command's output passes through unchanged; one line is appended to
# RESULTS: "NAME passed|failed|skipped P F S", P, F and S being the tests
# it passed, failed and skipped.  A Criterion runner reports its own counts
# (its "Synthesis" line); a script check counts as one test, skipped when
# it says so ("skipped") and succeeds.  Exits with the command's status, so
# make stops where it would have.  scripts/test-summary.sh reads RESULTS.
set -u
results=$1 name=$2
shift 2
log=$(mktemp)
trap 'rm -f "$log"' EXIT
"$@" 2>&1 | tee "$log"
rc=${PIPESTATUS[0]}
synthesis=$(grep -a 'Synthesis: Tested:' "$log" | tail -1)
if [ -n "$synthesis" ]; then
    # "Synthesis: Tested: 10 | Passing: 9 | Failing: 1 | Crashing: 0"
    passed=$(echo "$synthesis" | sed -n 's/.*Passing: \([0-9]*\).*/\1/p')
    failing=$(echo "$synthesis" | sed -n 's/.*Failing: \([0-9]*\).*/\1/p')
    crashing=$(echo "$synthesis" | sed -n 's/.*Crashing: \([0-9]*\).*/\1/p')
    failed=$((failing + crashing))
    skipped=$(grep -ac '^\[SKIP\]' "$log")
    [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1 # the runner itself failed
    outcome=$([ "$rc" -eq 0 ] && echo passed || echo failed)
    echo "$name $outcome ${passed:-0} $failed $skipped" >>"$results"
elif pytest=$(grep -aE '^=+ .*(passed|failed|error).* in [0-9.]+s' "$log" | tail -1) && [ -n "$pytest" ]; then
    # pytest's last line: "==== 20 passed, 2 skipped in 3.1s ===="
    count() { echo "$pytest" | grep -oE "[0-9]+ $1" | grep -oE '[0-9]+' || echo 0; }
    passed=$(count passed) failed=$(($(count failed) + $(count error))) skipped=$(count skipped)
    [ "$rc" -ne 0 ] && [ "$failed" -eq 0 ] && failed=1
    outcome=$([ "$rc" -eq 0 ] && echo passed || echo failed)
    echo "$name $outcome $passed $failed $skipped" >>"$results"
elif [ "$rc" -ne 0 ]; then
    echo "$name failed 0 1 0" >>"$results"
elif grep -aqi 'skipped' "$log"; then
    echo "$name skipped 0 0 1" >>"$results"
else
    echo "$name passed 1 0 0" >>"$results"
fi
exit "$rc"
