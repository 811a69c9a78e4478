// Package ctxtime holds the one context-aware sleep that the retry loops of the adapters
// (cypher, embed) and the commands share, so that each does not keep its own copy.
//
// It imports only the standard library.
package ctxtime
