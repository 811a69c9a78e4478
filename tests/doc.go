// Package tests holds REALM's end-to-end tests: the real `realm serve` binary, reached
// only through HTTP, on a real Neo4j (the one NEO4J_URI names or the local server of
// deploy/neo4j; with REALM_TEST_NEO4J=container and a Docker engine, REALM and Neo4j
// containers started by realmtest). The memory explorer's browser test, which needs
// chromium and the npm package of tests/browser, builds with the tag `browser`
// (`make test-ui`).
//
// It has no code of its own beyond the tests; the tests import realmtest, cyphertest
// and the standard library.
package tests
