#!/usr/bin/env bash
# make contract: Schemathesis (from PyPI, pinned, in a venv under .realm/) against a REALM
# server started here on a free loopback port, with every check on positive and negative
# data. The server gets one API key, confined to one throwaway space that is erased at the
# end; its log is .realm/contract-server.log, the report .realm/contract/. CONTRACT_MAX_EXAMPLES
# (default 20) bounds the cases of each operation in each phase; arguments go to
# `schemathesis run` (e.g. --seed 7, --include-operation-id recall).
set -euo pipefail
SCHEMATHESIS_VERSION=4.32.5

repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
venv=.realm/contract-venv
if [[ "$("$venv/bin/schemathesis" --version 2>/dev/null)" != *"$SCHEMATHESIS_VERSION" ]]; then
	python3 -m venv "$venv"
	"$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

space=test_contract_$$
secret=contract-$(od -An -N16 -tx1 /dev/urandom | tr -d ' \n')
log=.realm/contract-server.log
REALM_ADDR=127.0.0.1:0 REALM_API_KEYS="contract $secret admin $space" REALM_RATE_LIMIT=0 \
	REALM_UNCHECKED_SPACE_PREFIX=test_ REALM_LLM=offline \
	bin/realm serve >"$log" 2>&1 &
pid=$!
url=
cleanup() {
	[[ -n $url ]] && curl -s -o /dev/null -X DELETE -H "Authorization: Bearer $secret" "$url/v1/spaces/$space" || true
	kill "$pid" 2>/dev/null || true
	wait "$pid" 2>/dev/null || true
}
trap cleanup EXIT
for _ in $(seq 600); do
	url=$(sed -n 's/^REALM serving on \(http:[^ ]*\) .*/\1/p' "$log")
	[[ -n $url ]] && break
	kill -0 "$pid" 2>/dev/null || { cat "$log"; echo "contract: the server stopped" >&2; exit 1; }
	sleep 0.5
done
[[ -n $url ]] || { echo "contract: the server did not listen within 5 minutes; see $log" >&2; exit 1; }
curl -sf --retry 60 --retry-delay 1 --retry-all-errors -o /dev/null "$url/readyz"

echo "contract: schemathesis $SCHEMATHESIS_VERSION against $url (space $space, log $log)"
CONTRACT_SPACE=$space SCHEMATHESIS_HOOKS=deploy/contract/hooks.py \
	"$venv/bin/schemathesis" --config-file deploy/contract/schemathesis.toml run "$url/openapi.yaml" \
	--header "Authorization: Bearer $secret" --max-examples "${CONTRACT_MAX_EXAMPLES:-20}" --report junit --report-dir .realm/contract "$@"
