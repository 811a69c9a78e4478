// Package reconsolidation evolves the graph on use (REALM.md §4): after a query is
// answered, or when a client sends feedback on a trace, an Auditor labels the recalled
// nodes and proposes edits of the edges among them; the proposals are validated, weighed
// by the confidence-guided update rule (rule.go) and applied in one Neo4j transaction,
// each edit logged so that the whole reconsolidation can be inspected and reverted.
//
// The offline auditor (audit.go) is deterministic and needs no network:
//
//   - Content words are the lower-cased letter/digit runs of three or more characters,
//     minus a short English stop list.
//   - Key evidence: the recalled nodes marked useful by the client, and the nodes the
//     answer cites (AuditInput.Cited, or whose id the answer mentions), unless the client
//     says the answer is wrong. When there are
//     none: the KeyTop best-scoring nodes that share at least one content word with the
//     query.
//   - Misleading: the nodes the client marks misleading; and, when there is key
//     evidence, the expanded nodes (depth > 0) that share no content word with the query
//     and less than MisleadingShare of their words with the key nodes.
//   - Supporting context: the other nodes that share a word with the query or the key
//     nodes, or touch a key node by an edge. Everything else is unrelated.
//   - Learned links (consolidate.go), when the labels come from the client or the
//     answer's citations: an edge that carries the query and the label of its end —
//     correlates between co-useful key nodes not yet linked, contextualizes from an anchor
//     (the best-ranked other recalled node) to a key node left alone and to each node the
//     client marked misleading. They replace the paper's adds; retrieval applies them only
//     to later queries close to the one they carry, never as a global prior. A self-audit
//     by word overlap writes none.
//   - Edits: strengthen every edge on a shortest path (edges among the recalled nodes,
//     either direction) from a seed to a key node, and every edge between two key nodes;
//     add an edge between two key nodes no edge joins — precedes from the earlier to the
//     later when both are events with times, else correlates; weaken every edge into a
//     misleading node (either end for a symmetric predicate). Confidence is high when
//     the labels come from the client or the answer's citations, lower when they come
//     from word overlap; an unconfirmed audit also uses η/2 (rule.go).
//
// Every auditor's proposals go through Validate: both ends recalled, predicate in the
// whitelist, confidence in [0, 1], strengthen and weaken only on an existing edge, add
// only between nodes no edge joins. An LLM auditor plugs in behind the Auditor interface.
//
// It imports realm, cypher and zerolog.
package reconsolidation
