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
// It imports realm, agent, cypher and zerolog.
package reconsolidation
