// Creates imported observations, traces, edits or jobs of one space: one node per row,
// with the row as its properties (space included). $label is whitelisted by the caller.
// Params: $label, $rows (list of property maps). Returns: created.
UNWIND $rows AS x
CREATE (n:$($label))
SET n = x
RETURN count(n) AS created
