// Package ui is the memory explorer served at /ui: static HTML, JavaScript and CSS
// embedded in the binary, which read and change a space only through REALM's HTTP API
// (with the API key a user types, or none on a keyless loopback server). It has four
// views: a space's statistics and memories, a recall with its trace drawn as a graph,
// the reconsolidation log with feedback and revert, and one memory with its edges.
//
// It imports the standard library only.
package ui
