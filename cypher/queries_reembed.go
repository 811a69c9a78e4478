package cypher

import _ "embed"

// Statements of `realm reembed` (reembed.go).

var (
	//go:embed queries/reembed_spaces.cypher
	reembedSpacesCypher string
	qReembedSpaces      = newQuery("reembed_spaces", reembedSpacesCypher)

	//go:embed queries/reembed_memory_ids.cypher
	reembedMemoryIDsCypher string
	qReembedMemoryIDs      = newQuery("reembed_memory_ids", reembedMemoryIDsCypher)

	//go:embed queries/reembed_memory_texts.cypher
	reembedMemoryTextsCypher string
	qReembedMemoryTexts      = newQuery("reembed_memory_texts", reembedMemoryTextsCypher)

	//go:embed queries/reembed_set_embeddings.cypher
	reembedSetEmbeddingsCypher string
	qReembedSetEmbeddings      = newQuery("reembed_set_embeddings", reembedSetEmbeddingsCypher)

	//go:embed queries/reembed_space_begin.cypher
	reembedSpaceBeginCypher string
	qReembedSpaceBegin      = newQuery("reembed_space_begin", reembedSpaceBeginCypher)

	//go:embed queries/reembed_space_misfits.cypher
	reembedSpaceMisfitsCypher string
	qReembedSpaceMisfits      = newQuery("reembed_space_misfits", reembedSpaceMisfitsCypher)

	//go:embed queries/reembed_space_finish.cypher
	reembedSpaceFinishCypher string
	qReembedSpaceFinish      = newQuery("reembed_space_finish", reembedSpaceFinishCypher)

	//go:embed queries/reembed_other_dims.cypher
	reembedOtherDimsCypher string
	qReembedOtherDims      = newQuery("reembed_other_dims", reembedOtherDimsCypher)
)
