// Package realm holds REALM's domain: the cognitive graph's nodes and edges, the
// observations they derive from, retrieval plans and traces, reconsolidation edits, and the
// one error type every layer returns. It imports only the standard library (and internal/vec,
// the dot products of embeddings, which realm.Cosine shares with the exact scans); the adapters
// (cypher, embed, agent, api) depend on it, never the other way round.
//
// The method is described in REALM.md (construction, retrieval, reconsolidation); the
// layout in ARCHITECTURE.md.
package realm
