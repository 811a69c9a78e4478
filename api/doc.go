// Package api is REALM's HTTP API (v1): chi routes, one encode/decode pair, errors as
// application/problem+json with a stable code (one table from code to status), API keys
// scoped to space patterns (auth.go), request ids, JSON access logs, panic recovery and
// body limits. routes.go lists every endpoint and the scope it needs; openapi.yaml
// describes them, and apitest checks real traffic against it.
//
// Before any route, guard (guard.go) keeps web pages out: without keys only a loopback
// Host, bodies only of their route's media type, browsers' cross-origin writes only from
// Config.CORSOrigins. decode reads JSON bodies in two checked passes (body.go), so that bad
// text, nulls, wrong types and unknown fields are refused field by field in the API's words.
//
// /answer needs an Answerer (the LLM agent's Answer; nil without an LLM: 501), then
// reconsolidates the answer's trace with its citations as the system's own signal
// (reconsolidate: true needs the write scope; answer.go says why the automatic one does not).
//
// /metrics (metrics.go) serves HTTP latencies and the pipelines' collectors (Metrics),
// which the pipelines feed through their hooks (llm.Config.Observe,
// Retriever.ObserveTimings, Reconsolidator.ObserveEdits, construction Options.OnJob), so
// that Prometheus stays out of them; it is public unless Config.MetricsKeyRequired. A
// known path asked with another method is a 405 with Allow, the space root included, and
// under /v1/spaces/{space} only after the key's access to the space (methods.go).
//
// /mcp is an MCP server (mcp.go, modelcontextprotocol/go-sdk, stateless streamable HTTP)
// whose tools call the same services as the routes, each checking its space and scope
// with Key.authorize, the checks of the /v1/spaces/{space} routes; each publishes an
// outputSchema and answers structuredContent, the JSON its route answers, or a tool error
// {code, detail, fields?, retry_after?} that the outputSchema admits too; faults of the protocol are
// JSON-RPC errors (rpcEnvelope).
//
// A key without the read scope learns of its ingestions their outcome and the memories its
// messages added, nothing the space held before (Key.ingestView). Async ingestions and
// imports, which hold the process long after their request began, are bounded in number
// (slots.go, Config.MaxAsyncJobs, MaxImports): one more is 429 before anything is stored.
//
// /v1/spaces/{space}/forget forgets one person (forgetabout.go): the messages naming them,
// each through the forget path of DELETE …/observations/{id}, then the traces of
// questions naming them, as the retention's sweep deletes a trace.
//
// /v1/spaces/{space}/export streams a whole space as JSON Lines and /import loads such a
// file into an empty space (export.go, over package transfer); the import's body has its
// own cap (Config.MaxImportBytes) and upload time (cut off sooner when it stalls), and its
// first line is checked as it arrives.
//
// It imports the root package realm, the pipelines (cypher store, construction,
// retrieval, reconsolidation), answering (recall → answer → reconsolidate) and transfer
// (the export format); nothing imports api but cmd.
package api
