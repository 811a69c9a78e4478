#!/usr/bin/env bash
# Prints one closing line for a `go test -v` log: "tests: N passed, N failed, N skipped",
# and fails when any test or package failed, or when the contract run (deploy/contract/run.sh)
# whose exit status the optional second file holds did not pass; it counts as one test.
set -euo pipefail
log=${1:?usage: test-summary.sh go-test-v.log [contract.status]}
contract=${2:-}
passed=$(grep -cE '^\s*--- PASS' "$log" || true)
failed=$(grep -cE '^\s*--- FAIL' "$log" || true)
skipped=$(grep -cE '^\s*--- SKIP' "$log" || true)
pkgfail=$(grep -cE '^(FAIL|panic:)' "$log" || true)
if [[ -n $contract ]]; then
	if [[ "$(cat "$contract")" == 0 ]]; then
		passed=$((passed + 1))
	else
		echo "contract: failed, see .realm/contract.log"
		failed=$((failed + 1))
	fi
fi
echo "tests: $passed passed, $failed failed, $skipped skipped"
[[ $failed -eq 0 && $pkgfail -eq 0 ]]
