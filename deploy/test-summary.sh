#!/usr/bin/env bash
# Prints one closing line for a `go test -v` log: "tests: N passed, N failed, N skipped",
# and fails when any test or package failed.
set -euo pipefail
log=${1:?usage: test-summary.sh go-test-v.log}
passed=$(grep -cE '^\s*--- PASS' "$log" || true)
failed=$(grep -cE '^\s*--- FAIL' "$log" || true)
skipped=$(grep -cE '^\s*--- SKIP' "$log" || true)
pkgfail=$(grep -cE '^(FAIL|panic:)' "$log" || true)
echo "tests: $passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 && $pkgfail -eq 0 ]]
