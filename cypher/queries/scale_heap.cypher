// The Neo4j server's JVM heap, read over JMX (works on Community 5.26), for the scale
// benchmark's report.
// Params: none.
// Returns: used, committed, max (bytes).
CALL dbms.queryJmx('java.lang:type=Memory') YIELD attributes
WITH attributes.HeapMemoryUsage.value.properties AS heap
RETURN heap.used AS used, heap.committed AS committed, heap.max AS max
