// Package api is REALM's HTTP API (v1): chi routes, one encode/decode pair, errors as
// application/problem+json with a stable code (one table from code to status), API keys
// scoped to space patterns (auth.go), request ids, JSON access logs, panic recovery and
// body limits. routes.go lists every endpoint and the scope it needs; openapi.yaml
// describes them, and apitest checks real traffic against it.
//
// /answer needs an Answerer (the LLM agent's Answer; nil without an LLM: 501), then
// reconsolidates the answer's trace with its citations as the system's own signal.
//
// /mcp is an MCP server (mcp.go, modelcontextprotocol/go-sdk, stateless streamable HTTP)
// whose tools call the same services as the routes, each checking its space and scope
// with Key.authorize, the checks of the /v1/spaces/{space} routes.
//
// It imports the root package realm, the pipelines (cypher store, construction,
// retrieval, reconsolidation) and agent (the answer's types); nothing imports api but cmd.
package api
