// Package transfer is the export format of a space (format.go) and its two uses: Export
// writes a space to a file of JSON Lines, Import validates such a file line by line and
// writes it into an empty space. The statements that read and write the graph, and the
// hold an import keeps on its space, are package cypher's; this package never sees Cypher.
//
// It imports the root package realm and cypher.
package transfer
