#!/usr/bin/env bash
# Builds, without pulling any image, the two images realmtest starts, for a Docker engine
# that cannot reach an image registry (see README.md beside this file):
#
#   realmtest-base:bookworm       Debian bookworm (debootstrap from the machine's apt mirror) + Java 17
#   realm:latest                  bin/realm built here and the local embedding model, on that base
#   realm-neo4j:5.26-maven        a stand-in for the official neo4j image: deploy/neo4j's Maven
#                                 artifacts, honouring NEO4J_AUTH and the listen addresses
#
# Then: REALMTEST_NEO4J_IMAGE=realm-neo4j:5.26-maven REALMTEST_HOST_NETWORK=true make test-containers
# Needs root, debootstrap, a Docker engine (DOCKER_HOST), Go, Maven and the model (make setup).
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
root=$(cd "$here/../.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if ! docker image inspect realmtest-base:bookworm >/dev/null 2>&1; then
  mirror=$(awk '/^URIs:/ {print $2; exit}' /etc/apt/sources.list.d/*.sources 2>/dev/null || true)
  [[ -n $mirror ]] || mirror=$(awk '/^deb / {print $2; exit}' /etc/apt/sources.list)
  echo "realmtest images: debootstrap of bookworm with Java 17 (about 10 minutes on 2 cores)" >&2
  debootstrap --variant=minbase --include=openjdk-17-jre-headless,ca-certificates bookworm "$work/root" "$mirror" >&2
  tar -C "$work/root" -c . | docker import - realmtest-base:bookworm
  rm -rf "$work/root"
fi

mkdir -p "$work/realm" "$work/neo4j/lib"
(cd "$root" && go build -o "$work/realm/realm" ./cmd/realm)
cp -rL "${REALM_MODEL_DIR:-$root/.realm/model}" "$work/realm/model"
cat >"$work/realm/Dockerfile" <<'DOCKERFILE'
FROM realmtest-base:bookworm
RUN useradd --system --uid 10001 --home /nonexistent realm
COPY realm /usr/local/bin/realm
COPY model /opt/realm/model
ENV REALM_MODEL_DIR=/opt/realm/model REALM_ADDR=0.0.0.0:8080
USER 10001
ENTRYPOINT ["/usr/local/bin/realm"]
CMD ["serve"]
DOCKERFILE
docker build --network host -t realm:latest "$work/realm"

mvn -q -B -f "$root/deploy/neo4j/pom.xml" dependency:build-classpath -Dmdep.outputFile="$work/classpath.txt" >&2
tr ':' '\n' <"$work/classpath.txt" | xargs -I{} cp {} "$work/neo4j/lib/"
cp "$here/neo4j-entrypoint.sh" "$work/neo4j/entrypoint.sh"
cat >"$work/neo4j/Dockerfile" <<'DOCKERFILE'
FROM realmtest-base:bookworm
COPY lib /opt/neo4j/lib
COPY entrypoint.sh /entrypoint.sh
ENTRYPOINT ["/entrypoint.sh"]
DOCKERFILE
docker build --network host -t realm-neo4j:5.26-maven "$work/neo4j"
