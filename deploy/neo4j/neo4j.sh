#!/usr/bin/env bash
# Runs a real Neo4j community server (with Neo4j Browser) from Maven Central artifacts,
# without Docker: 2026.08.1 by default, on Java 21 or later; 5.26 on the default Java 17.
# See README.md beside this file.
#
#   neo4j.sh start    resolve the artifacts once, start bound to 127.0.0.1, wait for Bolt
#   neo4j.sh stop     stop it cleanly (SIGTERM, then SIGKILL after a bound)
#   neo4j.sh status   exit 0 when it runs and answers
#   neo4j.sh dump DIR     write the stopped database to DIR/neo4j.dump (neo4j-admin database dump)
#   neo4j.sh load DIR     replace the stopped database by DIR/neo4j.dump (neo4j-admin database load)
#
# Environment: NEO4J_VERSION (2026.08.1: runs from <REALM_HOME>/neo4j-<version> on the
# Java 21+ of NEO4J_JAVA_HOME, else the newest under /usr/lib/jvm; a 5.x such as 5.26.30
# runs from <REALM_HOME>/neo4j on the default java), NEO4J_PASSWORD (default realm-dev-password), NEO4J_BOLT_PORT (7687),
# NEO4J_HTTP_PORT (7474), NEO4J_HEAP (1g), NEO4J_PAGECACHE (512m), NEO4J_MIN_REPLAN_INTERVAL (10m),
# NEO4J_START_TIMEOUT seconds (180), REALM_HOME (<repo>/.realm).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
version=${NEO4J_VERSION:-2026.08.1}
home=${REALM_HOME:-$root/.realm}/neo4j
java=java
main=org.neo4j.server.CommunityEntryPoint
if [[ $version != 5.* ]]; then
  home=$home-$version
  main=org.neo4j.server.Neo4jCommunity # 5.x's CommunityEntryPoint, renamed
fi
password=${NEO4J_PASSWORD:-realm-dev-password}
bolt_port=${NEO4J_BOLT_PORT:-7687}
http_port=${NEO4J_HTTP_PORT:-7474}
timeout=${NEO4J_START_TIMEOUT:-180}
pidfile=$home/run/neo4j.pid
classpath=$home/classpath.txt

log() { echo "neo4j: $*" >&2; }

running() {
  [[ -f $pidfile ]] || return 1
  local pid
  pid=$(cat "$pidfile")
  kill -0 "$pid" 2>/dev/null || return 1
  # A pid file copied with the directory, or a pid reused since, names another process:
  # only a Neo4j of this home is ours to report and to stop.
  [[ ! -r /proc/$pid/cmdline ]] || tr '\0' '\n' <"/proc/$pid/cmdline" | grep -qxF -- "--home-dir=$home"
}

port_open() {
  (echo >"/dev/tcp/127.0.0.1/$1") 2>/dev/null
}

resolve() {
  if [[ -s $classpath && $classpath -nt $here/pom.xml ]]; then
    return
  fi
  log "resolving Neo4j $version artifacts with Maven (cached in the local Maven repository)"
  mkdir -p "$home"
  mvn -q -B -Dstyle.color=never -f "$here/pom.xml" -Dneo4j.version="$version" \
    dependency:build-classpath -Dmdep.outputFile="$classpath.tmp" >&2
  mv "$classpath.tmp" "$classpath"
}

write_conf() {
  mkdir -p "$home"/{conf,data,logs,run,plugins,import}
  cat >"$home/conf/neo4j.conf" <<CONF
# Written by deploy/neo4j/neo4j.sh; edits are overwritten at the next start.
server.default_listen_address=127.0.0.1
server.bolt.enabled=true
server.bolt.listen_address=127.0.0.1:$bolt_port
server.http.enabled=true
server.http.listen_address=127.0.0.1:$http_port
server.https.enabled=false
dbms.security.auth_enabled=true
server.directories.data=$home/data
server.directories.logs=$home/logs
server.directories.run=$home/run
server.directories.plugins=$home/plugins
server.directories.import=$home/import
server.memory.heap.initial_size=${NEO4J_HEAP:-1g}
server.memory.heap.max_size=${NEO4J_HEAP:-1g}
server.memory.pagecache.size=${NEO4J_PAGECACHE:-512m}
db.tx_log.rotation.retention_policy=1G size
# A cached plan is planned again, once the statistics it used have drifted, after at least
# this long (10 s by default): while spaces grow every write drifts them, and Neo4j planned
# REALM's statements again and again (README.md beside this file).
dbms.cypher.min_replan_interval=${NEO4J_MIN_REPLAN_INTERVAL:-10m}
CONF
}

# find_java sets java to a Java 21 or later for 2026.x: NEO4J_JAVA_HOME's, else
# the newest under /usr/lib/jvm.
find_java() {
  [[ $version == 5.* ]] && return
  local dir best=${NEO4J_JAVA_HOME:-} major
  if [[ -z $best ]]; then
    for dir in /usr/lib/jvm/*/; do
      major=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$dir/release" 2>/dev/null || true)
      if [[ -n $major && $major -ge 21 && -x $dir/bin/java ]]; then
        best=${dir%/}
      fi
    done
  fi
  if [[ -z $best || ! -x $best/bin/java ]]; then
    log "Neo4j $version needs Java 21 or later: set NEO4J_JAVA_HOME, or install one under /usr/lib/jvm"
    exit 1
  fi
  java=$best/bin/java
}

java_run() {
  NEO4J_HOME=$home NEO4J_CONF=$home/conf "$java" -cp "$(cat "$classpath")" "$@"
}

start() {
  if running; then
    log "already running (pid $(cat "$pidfile")), Bolt on 127.0.0.1:$bolt_port"
    return
  fi
  if port_open "$bolt_port"; then
    log "port $bolt_port already answers: another Neo4j runs there; not starting a second one"
    return
  fi
  find_java
  resolve
  write_conf
  if [[ ! -f $home/data/dbms/auth.ini ]]; then
    # Like the official image's NEO4J_AUTH: the password is set before the first start.
    java_run org.neo4j.cli.AdminTool dbms set-initial-password "$password" >"$home/logs/set-password.log" 2>&1 ||
      { cat "$home/logs/set-password.log" >&2; exit 1; }
  fi
  log "starting Neo4j $version (data and logs under $home)"
  : >"$home/logs/console.log"
  # On Java 21+ (2026.x), the incubating Vector API computes the cosines of vector
  # similarity and the vector index with SIMD; without the module Neo4j warns at start
  # that it is not readable and falls back to scalar loops.
  local modules=()
  [[ $version != 5.* ]] && modules=(--add-modules jdk.incubator.vector)
  NEO4J_HOME=$home NEO4J_CONF=$home/conf setsid nohup "$java" -Xms"${NEO4J_HEAP:-1g}" -Xmx"${NEO4J_HEAP:-1g}" \
    -XX:+UseG1GC -XX:+ExitOnOutOfMemoryError -Dfile.encoding=UTF-8 "${modules[@]}" \
    -cp "$(cat "$classpath")" "$main" \
    --home-dir="$home" --config-dir="$home/conf" >>"$home/logs/console.log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  for ((i = 0; i < timeout; i++)); do
    # The process just started is ours (until it execs java its command line is this
    # script's): only whether it still lives is asked.
    if ! kill -0 "$(cat "$pidfile")" 2>/dev/null; then
      log "Neo4j exited during start; last lines of its logs:"
      tail -n 40 "$home/logs/console.log" "$home/logs/neo4j.log" 2>/dev/null >&2 || true
      rm -f "$pidfile"
      exit 1
    fi
    if port_open "$bolt_port" && curl -sf "http://127.0.0.1:$http_port/" >/dev/null; then
      log "ready in ${i}s: Bolt bolt://127.0.0.1:$bolt_port, Browser http://127.0.0.1:$http_port/browser/"
      return
    fi
    sleep 1
  done
  log "Neo4j did not answer within ${timeout}s; last lines of its logs:"
  tail -n 40 "$home/logs/console.log" "$home/logs/neo4j.log" 2>/dev/null >&2 || true
  stop
  exit 1
}

stop() {
  if ! running; then
    rm -f "$pidfile"
    log "not running"
    return
  fi
  local pid
  pid=$(cat "$pidfile")
  kill -TERM "$pid" 2>/dev/null || true
  for ((i = 0; i < 60; i++)); do
    kill -0 "$pid" 2>/dev/null || { rm -f "$pidfile"; log "stopped"; return; }
    sleep 1
  done
  log "still running after 60s; killing"
  kill -KILL "$pid" 2>/dev/null || true
  rm -f "$pidfile"
}

# admin runs a neo4j-admin database command on the database "neo4j" (the one REALM uses
# unless NEO4J_DATABASE says otherwise). The community edition dumps and loads only a
# stopped database.
admin() {
  if running; then
    log "stop it first: the community edition dumps and loads only a stopped database"
    exit 1
  fi
  find_java
  resolve
  write_conf
  java_run org.neo4j.cli.AdminTool database "$@"
}

case ${1:-} in
start) start ;;
stop) stop ;;
status) running && port_open "$bolt_port" ;;
dump)
  [[ -n ${2:-} ]] || { echo "usage: $0 dump DIR" >&2; exit 2; }
  mkdir -p "$2"
  admin dump neo4j --to-path="$2" --overwrite-destination=true
  log "dumped to $2/neo4j.dump"
  ;;
load)
  [[ -f ${2:-}/neo4j.dump ]] || { echo "usage: $0 load DIR (holding neo4j.dump)" >&2; exit 2; }
  admin load neo4j --from-path="$2" --overwrite-destination=true
  log "loaded $2/neo4j.dump"
  ;;
*) echo "usage: $0 start|stop|status|dump DIR|load DIR" >&2; exit 2 ;;
esac
