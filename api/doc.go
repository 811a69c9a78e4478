// Package api is REALM's HTTP API (v1): chi routes, one encode/decode pair, errors as
// application/problem+json with a stable code (one table from code to status), request
// ids, JSON access logs, panic recovery and body limits. routes.go lists every endpoint.
//
// It imports the root package realm and the pipelines (cypher store, construction,
// retrieval); nothing imports api but cmd.
package api
