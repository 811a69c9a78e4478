package cypher

import _ "embed"

// Statements of knowledge that changes: validity of superseded memories.

var (
	//go:embed queries/memory_successors.cypher
	memorySuccessorsCypher string
	qMemorySuccessors      = newQuery("memory_successors", memorySuccessorsCypher)

	//go:embed queries/memory_ended_clauses.cypher
	memoryEndedClausesCypher string
	qMemoryEndedClauses      = newQuery("memory_ended_clauses", memoryEndedClausesCypher)

	//go:embed queries/memory_predecessors.cypher
	memoryPredecessorsCypher string
	qMemoryPredecessors      = newQuery("memory_predecessors", memoryPredecessorsCypher)
)
