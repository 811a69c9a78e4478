#!/bin/sh
# A stand-in for the official neo4j image where it cannot be pulled: the same Maven
# artifacts as deploy/neo4j, honouring NEO4J_AUTH, the listen addresses and the replan interval.
set -e
home=/var/lib/neo4j
mkdir -p $home/conf $home/data $home/logs $home/run $home/plugins $home/import
cat > $home/conf/neo4j.conf <<CONF
server.default_listen_address=0.0.0.0
server.bolt.listen_address=${NEO4J_server_bolt_listen__address:-0.0.0.0:7687}
server.http.listen_address=${NEO4J_server_http_listen__address:-0.0.0.0:7474}
server.https.enabled=false
dbms.security.auth_enabled=true
server.directories.data=$home/data
server.directories.logs=$home/logs
server.directories.run=$home/run
server.directories.plugins=$home/plugins
server.directories.import=$home/import
server.memory.heap.max_size=1g
server.memory.pagecache.size=256m
dbms.cypher.min_replan_interval=${NEO4J_dbms_cypher_min__replan__interval:-10s}
CONF
export NEO4J_HOME=$home NEO4J_CONF=$home/conf
java -cp '/opt/neo4j/lib/*' org.neo4j.cli.AdminTool dbms set-initial-password "${NEO4J_AUTH#neo4j/}"
touch $home/logs/neo4j.log
tail -F $home/logs/neo4j.log &
exec java -Xmx1g -cp '/opt/neo4j/lib/*' org.neo4j.server.CommunityEntryPoint --home-dir=$home --config-dir=$home/conf
