// Package reconsolidation evolves the graph on use (REALM.md §4): after a query is
// answered, or when a client sends feedback on a trace, the agent labels the recalled
// nodes and proposes edits of the edges among them; the proposals are validated, weighed
// by the confidence-guided update rule (rule.go) and applied in one Neo4j transaction,
// each edit logged so that the whole reconsolidation can be inspected and reverted.
//
// The audit itself is the agent's decision (agent.Agent.Audit); the offline agent's
// rules are in agent/offline/OFFLINE.md.
//
// Every auditor's proposals go through agent.ValidateEdits: both ends recalled, predicate
// in the whitelist, confidence in [0, 1], strengthen and weaken only on an existing edge,
// add only between nodes no edge joins.
//
// Learned links (consolidate.go, REALM.md §4 "ours"): the labels that do not come from word
// overlap — the client's useful and misleading ids, the answer's citations, the LLM
// auditor's judgement — become edges that carry the query and their end's label:
// correlates between co-useful nodes not yet linked, contextualizes from an anchor (the
// best-ranked other recalled node) to a key node left alone and to each misleading node.
// They replace the paper's adds; retrieval applies them only to later queries close to the
// one they carry, never as a global prior. Logged, revertible, exported like every edge.
//
// It imports realm, agent, cypher and zerolog.
package reconsolidation
