// Bulk-writes memories of one space for tests and benchmarks, bypassing construction:
// each gets :Memory and its type's label. The write path is construction/, not this.
// Params: $space, $nodes (maps: label, props).
// Returns: nothing.
UNWIND $nodes AS n
CREATE (m:Memory)
SET m = n.props, m.space = $space
SET m:$(n.label)
