package cypher

import _ "embed"

// Statements of the write path (construction) and of the memory reads the API needs.

var (
	//go:embed queries/integration_write.cypher
	integrationWriteCypher string
	qIntegrationWrite      = newQuery("integration_write", integrationWriteCypher)

	//go:embed queries/graph_around.cypher
	graphAroundCypher string
	qGraphAround      = newQuery("graph_around", graphAroundCypher)

	//go:embed queries/graph_space.cypher
	graphSpaceCypher string
	qGraphSpace      = newQuery("graph_space", graphSpaceCypher)

	//go:embed queries/graph_subgraph.cypher
	graphSubgraphCypher string
	qGraphSubgraph      = newQuery("graph_subgraph", graphSubgraphCypher)

	//go:embed queries/job_create.cypher
	jobCreateCypher string
	qJobCreate      = newQuery("job_create", jobCreateCypher)

	//go:embed queries/job_forgotten_usage.cypher
	jobForgottenUsageCypher string
	qJobForgottenUsage      = newQuery("job_forgotten_usage", jobForgottenUsageCypher)

	//go:embed queries/observation_usage.cypher
	observationUsageCypher string
	qObservationUsage      = newQuery("observation_usage", observationUsageCypher)

	//go:embed queries/job_finish.cypher
	jobFinishCypher string
	qJobFinish      = newQuery("job_finish", jobFinishCypher)

	//go:embed queries/job_settle.cypher
	jobSettleCypher string
	qJobSettle      = newQuery("job_settle", jobSettleCypher)

	//go:embed queries/job_get.cypher
	jobGetCypher string
	qJobGet      = newQuery("job_get", jobGetCypher)

	//go:embed queries/memory_correct_read.cypher
	memoryCorrectReadCypher string
	qMemoryCorrectRead      = newQuery("memory_correct_read", memoryCorrectReadCypher)

	//go:embed queries/memory_correct_write.cypher
	memoryCorrectWriteCypher string
	qMemoryCorrectWrite      = newQuery("memory_correct_write", memoryCorrectWriteCypher)

	//go:embed queries/memory_delete.cypher
	memoryDeleteCypher string
	qMemoryDelete      = newQuery("memory_delete", memoryDeleteCypher)

	//go:embed queries/observation_delete_lock.cypher
	observationDeleteLockCypher string
	qObservationDeleteLock      = newQuery("observation_delete_lock", observationDeleteLockCypher)

	//go:embed queries/observation_delete_memories.cypher
	observationDeleteMemoriesCypher string
	qObservationDeleteMemories      = newQuery("observation_delete_memories", observationDeleteMemoriesCypher)

	//go:embed queries/observation_delete_finish.cypher
	observationDeleteFinishCypher string
	qObservationDeleteFinish      = newQuery("observation_delete_finish", observationDeleteFinishCypher)

	//go:embed queries/observation_trimmed.cypher
	observationTrimmedCypher string
	qObservationTrimmed      = newQuery("observation_trimmed", observationTrimmedCypher)

	//go:embed queries/observation_reintegrate.cypher
	observationReintegrateCypher string
	qObservationReintegrate      = newQuery("observation_reintegrate", observationReintegrateCypher)

	//go:embed queries/space_lock_run.cypher
	spaceLockRunCypher string
	qSpaceLockRun      = newQuery("space_lock_run", spaceLockRunCypher)

	//go:embed queries/memory_run_context.cypher
	memoryRunContextCypher string
	qMemoryRunContext      = newQuery("memory_run_context", memoryRunContextCypher)

	//go:embed queries/memory_neighbours.cypher
	memoryNeighboursCypher string
	qMemoryNeighbours      = newQuery("memory_neighbours", memoryNeighboursCypher)

	//go:embed queries/memory_embeddings.cypher
	memoryEmbeddingsCypher string
	qMemoryEmbeddings      = newQuery("memory_embeddings", memoryEmbeddingsCypher)

	//go:embed queries/memory_get.cypher
	memoryGetCypher string
	qMemoryGet      = newQuery("memory_get", memoryGetCypher)

	//go:embed queries/episodes.cypher
	episodesCypher string
	qEpisodes      = newQuery("episodes", episodesCypher)

	//go:embed queries/memory_list.cypher
	memoryListCypher string
	qMemoryList      = newQuery("memory_list", memoryListCypher)

	//go:embed queries/memory_list_ids.cypher
	memoryListIDsCypher string
	qMemoryListIDs      = newQuery("memory_list_ids", memoryListIDsCypher)

	//go:embed queries/memory_recent.cypher
	memoryRecentCypher string
	qMemoryRecent      = newQuery("memory_recent", memoryRecentCypher)

	//go:embed queries/memory_slot_holders.cypher
	memorySlotHoldersCypher string
	qMemorySlotHolders      = newQuery("memory_slot_holders", memorySlotHoldersCypher)

	//go:embed queries/memory_similar_exact.cypher
	memorySimilarExactCypher string
	qMemorySimilarExact      = newQuery("memory_similar_exact", memorySimilarExactCypher)

	//go:embed queries/memory_similar_filtered.cypher
	memorySimilarFilteredCypher string
	qMemorySimilarFiltered      = newQuery("memory_similar_filtered", memorySimilarFilteredCypher)

	//go:embed queries/memory_similar_index.cypher
	memorySimilarIndexCypher string
	qMemorySimilarIndex      = newQuery("memory_similar_index", memorySimilarIndexCypher)

	//go:embed queries/observation_claim.cypher
	observationClaimCypher string
	qObservationClaim      = newQuery("observation_claim", observationClaimCypher)

	//go:embed queries/observation_claim_lease.cypher
	observationClaimLeaseCypher string
	qObservationClaimLease      = newQuery("observation_claim_lease", observationClaimLeaseCypher)

	//go:embed queries/observation_lock.cypher
	observationLockCypher string
	qObservationLock      = newQuery("observation_lock", observationLockCypher)

	//go:embed queries/observation_context.cypher
	observationContextCypher string
	qObservationContext      = newQuery("observation_context", observationContextCypher)

	//go:embed queries/observation_error.cypher
	observationErrorCypher string
	qObservationError      = newQuery("observation_error", observationErrorCypher)

	//go:embed queries/observation_get.cypher
	observationGetCypher string
	qObservationGet      = newQuery("observation_get", observationGetCypher)

	//go:embed queries/observation_list.cypher
	observationListCypher string
	qObservationList      = newQuery("observation_list", observationListCypher)

	//go:embed queries/observation_derived.cypher
	observationDerivedCypher string
	qObservationDerived      = newQuery("observation_derived", observationDerivedCypher)

	//go:embed queries/observation_replaced.cypher
	observationReplacedCypher string
	qObservationReplaced      = newQuery("observation_replaced", observationReplacedCypher)

	//go:embed queries/observation_lease_owners.cypher
	observationLeaseOwnersCypher string
	qObservationLeaseOwners      = newQuery("observation_lease_owners", observationLeaseOwnersCypher)

	//go:embed queries/observation_take_over.cypher
	observationTakeOverCypher string
	qObservationTakeOver      = newQuery("observation_take_over", observationTakeOverCypher)

	//go:embed queries/observation_release.cypher
	observationReleaseCypher string
	qObservationRelease      = newQuery("observation_release", observationReleaseCypher)

	//go:embed queries/observation_release_some.cypher
	observationReleaseSomeCypher string
	qObservationReleaseSome      = newQuery("observation_release_some", observationReleaseSomeCypher)

	//go:embed queries/observation_recent.cypher
	observationRecentCypher string
	qObservationRecent      = newQuery("observation_recent", observationRecentCypher)

	//go:embed queries/observation_session_users.cypher
	observationSessionUsersCypher string
	qObservationSessionUsers      = newQuery("observation_session_users", observationSessionUsersCypher)

	//go:embed queries/observation_save.cypher
	observationSaveCypher string
	qObservationSave      = newQuery("observation_save", observationSaveCypher)

	//go:embed queries/space_ensure_lock.cypher
	spaceEnsureLockCypher string
	qSpaceEnsureLock      = newQuery("space_ensure_lock", spaceEnsureLockCypher)

	//go:embed queries/space_lock_save.cypher
	spaceLockSaveCypher string
	qSpaceLockSave      = newQuery("space_lock_save", spaceLockSaveCypher)

	//go:embed queries/space_lock.cypher
	spaceLockCypher string
	qSpaceLock      = newQuery("space_lock", spaceLockCypher)

	//go:embed queries/space_lock_import.cypher
	spaceLockImportCypher string
	qSpaceLockImport      = newQuery("space_lock_import", spaceLockImportCypher)

	//go:embed queries/space_summary.cypher
	spaceSummaryCypher string
	qSpaceSummary      = newQuery("space_summary", spaceSummaryCypher)

	//go:embed queries/space_summary_set.cypher
	spaceSummarySetCypher string
	qSpaceSummarySet      = newQuery("space_summary_set", spaceSummarySetCypher)

	//go:embed queries/stats_observations.cypher
	statsObservationsCypher string
	qStatsObservations      = newQuery("stats_observations", statsObservationsCypher)

	//go:embed queries/stats_predicates.cypher
	statsPredicatesCypher string
	qStatsPredicates      = newQuery("stats_predicates", statsPredicatesCypher)

	//go:embed queries/stats_types.cypher
	statsTypesCypher string
	qStatsTypes      = newQuery("stats_types", statsTypesCypher)

	//go:embed queries/observation_window.cypher
	observationWindowCypher string
	qObservationWindow      = newQuery("observation_window", observationWindowCypher)
)
