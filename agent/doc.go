// Package agent holds REALM's decision points (REALM.md §5) behind one interface, Agent,
// with two implementations: Offline (deterministic rules and embeddings, no network) and
// LLM (an OpenAI-compatible chat API with JSON-schema outputs, validated, one repair
// retry, then a logged fallback to Offline for that step). Answering (LLM.Answer) is the
// one decision outside Agent: the offline agent cannot write answers, so it has no fallback.
//
// It imports the root package realm, internal/ctxtime and go-openai; never cypher, embed, api or the
// pipelines (embeddings reach it as vectors in its inputs).
package agent
