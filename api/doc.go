// Package api is REALM's HTTP API (v1): chi routes, one encode/decode pair, errors as
// application/problem+json with a stable code (one table from code to status), API keys
// scoped to space patterns (auth.go), request ids, JSON access logs, panic recovery and
// body limits. routes.go lists every endpoint and the scope it needs; openapi.yaml
// describes them, and apitest checks real traffic against it.
//
// It imports the root package realm and the pipelines (cypher store, construction,
// retrieval, reconsolidation); nothing imports api but cmd.
package api
