#!/usr/bin/env bash
# Makes sure a Neo4j answers for `make run` and `make test`: when NEO4J_URI names a server
# that is not this machine's local one, it is used as it is; otherwise the local server of
# neo4j.sh is started (or found running).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
uri=${NEO4J_URI:-}
if [[ -n $uri ]]; then
  hostport=${uri#*://}
  hostport=${hostport%%/*}
  host=${hostport%:*}
  port=${hostport##*:}
  [[ $port == "$hostport" ]] && port=7687
  if [[ $host != 127.0.0.1 && $host != localhost ]] || [[ $port != "${NEO4J_BOLT_PORT:-7687}" ]]; then
    if (echo >"/dev/tcp/$host/$port") 2>/dev/null; then
      echo "neo4j: using $uri (NEO4J_URI)" >&2
    else
      echo "neo4j: NEO4J_URI=$uri does not answer; REALM will report it at start" >&2
    fi
    exit 0
  fi
fi
exec "$here/neo4j.sh" start
