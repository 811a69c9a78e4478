package cypher

import _ "embed"

// Statements of the read path (retrieval, traces) and of the test fixture writer.

var (
	//go:embed queries/seed_space_size.cypher
	seedSpaceSizeCypher string
	qSeedSpaceSize      = newQuery("seed_space_size", seedSpaceSizeCypher)

	//go:embed queries/memory_learned_after.cypher
	memoryLearnedAfterCypher string
	qMemoryLearnedAfter      = newQuery("memory_learned_after", memoryLearnedAfterCypher)

	//go:embed queries/space_common_names.cypher
	spaceCommonNamesCypher string
	qSpaceCommonNames      = newQuery("space_common_names", spaceCommonNamesCypher)

	//go:embed queries/seed_vector_index.cypher
	seedVectorIndexCypher string
	qSeedVectorIndex      = newQuery("seed_vector_index", seedVectorIndexCypher)

	//go:embed queries/seed_vector_filtered.cypher
	seedVectorFilteredCypher string
	qSeedVectorFiltered      = newQuery("seed_vector_filtered", seedVectorFilteredCypher)

	//go:embed queries/seed_vector_exact.cypher
	seedVectorExactCypher string
	qSeedVectorExact      = newQuery("seed_vector_exact", seedVectorExactCypher)

	//go:embed queries/seed_said_in.cypher
	seedSaidInCypher string
	qSeedSaidIn      = newQuery("seed_said_in", seedSaidInCypher)

	//go:embed queries/said_by.cypher
	saidByCypher string
	qSaidBy      = newQuery("said_by", saidByCypher)

	//go:embed queries/said_among.cypher
	saidAmongCypher string
	qSaidAmong      = newQuery("said_among", saidAmongCypher)

	//go:embed queries/seed_among.cypher
	seedAmongCypher string
	qSeedAmong      = newQuery("seed_among", seedAmongCypher)

	//go:embed queries/seed_fulltext.cypher
	seedFulltextCypher string
	qSeedFulltext      = newQuery("seed_fulltext", seedFulltextCypher)

	//go:embed queries/expand_neighbours.cypher
	expandNeighboursCypher string
	qExpandNeighbours      = newQuery("expand_neighbours", expandNeighboursCypher)

	//go:embed queries/expand_paths.cypher
	expandPathsCypher string
	qExpandPaths      = newQuery("expand_paths", expandPathsCypher)

	//go:embed queries/memory_texts.cypher
	memoryTextsCypher string
	qMemoryTexts      = newQuery("memory_texts", memoryTextsCypher)

	//go:embed queries/memories_by_ids.cypher
	memoriesByIDsCypher string
	qMemoriesByIDs      = newQuery("memories_by_ids", memoriesByIDsCypher)

	//go:embed queries/memory_sources.cypher
	memorySourcesCypher string
	qMemorySources      = newQuery("memory_sources", memorySourcesCypher)

	//go:embed queries/induced_edges.cypher
	inducedEdgesCypher string
	qInducedEdges      = newQuery("induced_edges", inducedEdgesCypher)

	//go:embed queries/recall_record.cypher
	recallRecordCypher string
	qRecallRecord      = newQuery("recall_record", recallRecordCypher)
)

var (
	//go:embed queries/trace_create.cypher
	traceCreateCypher string
	qTraceCreate      = newQuery("trace_create", traceCreateCypher)

	//go:embed queries/trace_get.cypher
	traceGetCypher string
	qTraceGet      = newQuery("trace_get", traceGetCypher)

	//go:embed queries/trace_expire_batch.cypher
	traceExpireBatchCypher string
	qTraceExpireBatch      = newQuery("trace_expire_batch", traceExpireBatchCypher)

	//go:embed queries/edit_erase_orphaned.cypher
	editEraseOrphanedCypher string
	qEditEraseOrphaned      = newQuery("edit_erase_orphaned", editEraseOrphanedCypher)
)

var (
	//go:embed queries/fixture_memories.cypher
	fixtureMemoriesCypher string
	qFixtureMemories      = newQuery("fixture_memories", fixtureMemoriesCypher)

	//go:embed queries/fixture_edges.cypher
	fixtureEdgesCypher string
	qFixtureEdges      = newQuery("fixture_edges", fixtureEdgesCypher)

	//go:embed queries/fixture_remove.cypher
	fixtureRemoveCypher string
	qFixtureRemove      = newQuery("fixture_remove", fixtureRemoveCypher)
)
