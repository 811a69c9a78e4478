// A trace's edits found by its id: a feedback is refused while the trace's earlier one
// stands (edit_batch.cypher), checked under the space's lock on every feedback.
CREATE RANGE INDEX edit_trace IF NOT EXISTS FOR (e:Edit) ON (e.trace_id)
