// Package schema holds REALM's Neo4j migrations: ordered, idempotent (IF NOT EXISTS, a drop IF EXISTS)
// statements embedded from migrations/*.cypher, one statement per file, applied in file
// order by cypher.Store.ApplySchema and recorded as (:Migration) nodes.
//
// It imports only the standard library.
package schema
