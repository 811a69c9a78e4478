package cypher

import _ "embed"

// The statements of reconsolidation: applying, logging, listing and reverting edits (edits.go).

var (
	//go:embed queries/edit_batch.cypher
	editBatchCypher string
	qEditBatch      = newQuery("edit_batch", editBatchCypher)

	//go:embed queries/edit_revert.cypher
	editRevertCypher string
	qEditRevert      = newQuery("edit_revert", editRevertCypher)

	//go:embed queries/edit_of_reconsolidation.cypher
	editOfReconsolidationCypher string
	qEditOfReconsolidation      = newQuery("edit_of_reconsolidation", editOfReconsolidationCypher)

	//go:embed queries/edit_list.cypher
	editListCypher string
	qEditList      = newQuery("edit_list", editListCypher)

	//go:embed queries/edit_stats.cypher
	editStatsCypher string
	qEditStats      = newQuery("edit_stats", editStatsCypher)

	//go:embed queries/edit_reconsolidation_count.cypher
	editReconsolidationCountCypher string
	qEditReconsolidationCount      = newQuery("edit_reconsolidation_count", editReconsolidationCountCypher)

	//go:embed queries/edit_delete_space.cypher
	editDeleteSpaceCypher string
	qEditDeleteSpace      = newQuery("edit_delete_space", editDeleteSpaceCypher)

	//go:embed queries/edge_weights.cypher
	edgeWeightsCypher string
	qEdgeWeights      = newQuery("edge_weights", edgeWeightsCypher)

	//go:embed queries/edge_weight_histogram.cypher
	edgeWeightHistogramCypher string
	qEdgeWeightHistogram      = newQuery("edge_weight_histogram", edgeWeightHistogramCypher)
)
