// Package bench reproduces REALM's evaluation (REALM.md §6): loaders for LoCoMo and
// LongMemEval, the offline retrieval metrics (evidence recall@k; session and turn
// recall@k and NDCG@k), and runners that drive the pipelines.
//
// It imports the root package realm and the pipelines; never api or cmd.
package bench
