// Package agent holds REALM's decision points (REALM.md §5) behind one interface, Agent,
// and the types of their inputs and outputs. Two packages implement it: agent/offline
// (deterministic rules and embeddings, no network) and agent/llm (an OpenAI-compatible
// chat API with JSON-schema outputs, validated, one repair retry, then a logged fallback
// to the offline decision for that step). Answering has no offline fallback: the offline
// agent cannot write answers.
//
// It imports the root package realm only; never cypher, embed, api or the pipelines
// (embeddings reach the agent as vectors in its inputs).
package agent
