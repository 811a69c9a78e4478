// Package construction is REALM's write path (REALM.md §2): a batch of observations is
// stored first, then each new one is extracted into typed candidates, embedded, given its
// neighbourhood N_sim ∪ N_recent (and the current holders of the slot it states a value
// of, agent.Candidate's Subject and Attribute), integrated (add / merge / skip) and related (edges) by
// the agent, and written in one transaction that holds the space's lock in Neo4j. The
// agent is asked with no transaction open, and no transaction waits for the embedder:
// the neighbourhood is read first, the decision taken, and the apply transaction checks
// that the neighbourhood is still the one decided on, deciding again when it is not (a
// bounded number of times). The observations of a batch go through as runs (run.go, up to
// 25 observations that end at 8,000 bytes of content): their extractions and one embedder
// call for their candidates, made in the background a run ahead (beside the reads and the
// write of the run before), one read of all their neighbourhoods, the decisions in order
// (each seeing, in memory, what the earlier ones wrote) and one write transaction.
//
// Nothing accepted is lost: an observation stays pending until the transaction that
// writes its memories marks it integrated; ResumePending takes pending work back (Resume
// runs it at start and then periodically: what a failed attempt left, a killed process's
// of this host at once, another host's after its lease expired, see owner.go); a failed
// attempt keeps its lease, so its process retries it, on the extraction it made (kept.go);
// a batch worked on for longer than half a lease has its leases renewed (renewing);
// asynchronous ingestion records a Job whose progress is counted from its observations.
// The workers of one process share its lease owner, so they also hold what they
// integrate in memory (held.go): one process never integrates an observation twice at once.
//
// A message of a chat role that Options.ExtractRoles leaves out (a system prompt, by
// default) is stored and integrated with nothing asked of the agent, and no agent's
// candidate makes the tool or the system prompt a person, nor the name a tool's output or
// a system prompt was sent under (roles.go). A message's role, when it was sent with one,
// decides this whatever its speaker's name (realm.Observation.Role).
//
// A client's correction of a memory (correct.go) is written as a state change is: a new
// memory and a supersedes edge to the old one, whose validity ends; never an overwrite.
// Forgetting a message (forget.go) integrates again, from their own words, the messages
// that stay and were sources of a memory deleted with it, left pending by the deletion
// should this process stop first.
//
// It imports the root package realm, agent (the interface only), cypher, internal/text,
// uuid, zerolog and golang.org/x/text (names composed, run.go).
package construction
