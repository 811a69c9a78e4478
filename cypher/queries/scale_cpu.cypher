// The CPU time the Neo4j server's process has used so far, read over JMX, for the scale
// benchmark's ingestion costs (CPU per observation, which load changes less than time).
// Params: none.
// Returns: cpu (nanoseconds).
CALL dbms.queryJmx('java.lang:type=OperatingSystem') YIELD attributes
RETURN attributes.ProcessCpuTime.value AS cpu
