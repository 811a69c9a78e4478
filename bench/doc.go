// Package bench reproduces REALM's evaluation (REALM.md §6): loaders for LoCoMo, the
// offline retrieval metric (evidence recall@k), and runners that drive the pipelines.
//
// It imports the root package realm and the pipelines; never api or cmd.
package bench
