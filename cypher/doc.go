// Package cypher is REALM's Neo4j adapter and the only package that imports the Neo4j
// driver. Every statement lives in its own file under queries/, bound to a Go variable
// with //go:embed and opened by a comment saying what it does, its $params and what it
// returns. Store checks at each call that the caller passes exactly the statement's
// $params, so a renamed parameter fails the first test that runs it.
//
// Tenancy: every statement that touches memories, observations, traces or edits filters
// by $space.
//
// It imports the root package realm, schema, internal/ctxtime, golang.org/x/text
// (Unicode normalization) and the Neo4j driver.
package cypher
