package cypher

import _ "embed"

// Every statement the package runs, one file each (see doc.go).

var (
	//go:embed queries/ping.cypher
	pingCypher string
	qPing      = newQuery("ping", pingCypher)

	//go:embed queries/server_info.cypher
	serverInfoCypher string
	qServerInfo      = newQuery("server_info", serverInfoCypher)
)

var (
	//go:embed queries/migration_applied.cypher
	migrationAppliedCypher string
	qMigrationApplied      = newQuery("migration_applied", migrationAppliedCypher)

	//go:embed queries/migration_record.cypher
	migrationRecordCypher string
	qMigrationRecord      = newQuery("migration_record", migrationRecordCypher)

	//go:embed queries/await_indexes.cypher
	awaitIndexesCypher string
	qAwaitIndexes      = newQuery("await_indexes", awaitIndexesCypher)

	//go:embed queries/vector_index_dims.cypher
	vectorIndexDimsCypher string
	qVectorIndexDims      = newQuery("vector_index_dims", vectorIndexDimsCypher)

	//go:embed queries/vector_index_drop.cypher
	vectorIndexDropCypher string
	qVectorIndexDrop      = newQuery("vector_index_drop", vectorIndexDropCypher)

	//go:embed queries/embedded_memory_count.cypher
	embeddedMemoryCountCypher string
	qEmbeddedMemoryCount      = newQuery("embedded_memory_count", embeddedMemoryCountCypher)

	//go:embed queries/spaces_other_embedder.cypher
	spacesOtherEmbedderCypher string
	qSpacesOtherEmbedder      = newQuery("spaces_other_embedder", spacesOtherEmbedderCypher)
)

var (
	//go:embed queries/indexes.cypher
	indexesCypher string
	qIndexes      = newQuery("indexes", indexesCypher)
)

var (
	//go:embed queries/space_delete_batch.cypher
	spaceDeleteBatchCypher string
	qSpaceDeleteBatch      = newQuery("space_delete_batch", spaceDeleteBatchCypher)

	//go:embed queries/space_delete_node.cypher
	spaceDeleteNodeCypher string
	qSpaceDeleteNode      = newQuery("space_delete_node", spaceDeleteNodeCypher)

	//go:embed queries/space_list.cypher
	spaceListCypher string
	qSpaceList      = newQuery("space_list", spaceListCypher)

	//go:embed queries/space_exists.cypher
	spaceExistsCypher string
	qSpaceExists      = newQuery("space_exists", spaceExistsCypher)
)
