// Package retrieval is REALM's read path (REALM.md §3): seed plans on Neo4j's vector and
// full-text indexes, an adaptive expansion loop (sufficiency controller + expansion
// policy, path_search and subgraph_beam), aggregation into the top K nodes and the edges
// among them, and a stored trace of every step.
//
// Decisions the paper gives to an LLM (plan seeds, sufficiency, expansion policy) are
// asked of an agent.Agent; the retriever does not decide.
//
// Depth. A seed has depth 0; a node reached from u by h hops has depth(u) + h. max_depth
// bounds both the loop's iterations and any node's depth; one expansion step from u
// searches min(path_max_depth, max_depth − depth(u)) hops, with either strategy. Edges are
// walked in both directions (a causal question walks causes backwards).
//
// Scoring (score.go, REALM.md §3.3 "Ours"). By default a node's score is its relevance
// (its own similarity to the query; for a seed, blended with its seed score, which holds
// the full-text match: SeedShare) times bounded factors: the path strength (the product
// of the edge weights from its seed) to PathExponent, its temporal fit, its validity
// (validity.go), and what reconsolidation learned for queries like this one
// (consolidate.go: learned links, which act only when the query is close to the one they
// were learned for). The paper's additive form and similarity alone are settings
// (Options.Scorer, REALM_SCORE). Read from the question's words: a number it names
// (identifiers.go), whose fact it asks about (subjects.go) and its rarest word, kept in
// the top K (rarest.go).
//
// sim(a, b) in every formula is the cosine of the two L2-normalised embeddings, clipped
// to [0, 1].
//
// It imports the root package realm, agent, internal/text, cypher, zerolog and uuid.
package retrieval
