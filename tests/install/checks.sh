# SPDX-License-Identifier: MIT
# Sourced by tests/install/run.sh and relocate.sh: one check per `run`,
# a summary line at the end. The caller sets SUITE (the line prefix) and OUT.

passed=0
failed=0

# run NAME COMMAND...: one check; its output goes to OUT/NAME.log and is
# shown only on failure. A subshell: a check may cd or set variables
# without touching the next.
run() {
    local name=$1
    shift
    if ("$@") >"$OUT/$name.log" 2>&1; then
        echo "$SUITE: $name ok"
        passed=$((passed + 1))
    else
        echo "$SUITE: $name FAILED"
        sed 's/^/    /' "$OUT/$name.log"
        failed=$((failed + 1))
    fi
}

# summary: "SUITE: N passed, M failed" (scripts/run-tests.sh counts it); the status.
summary() {
    echo "$SUITE: $passed passed, $failed failed"
    [ "$failed" -eq 0 ]
}
