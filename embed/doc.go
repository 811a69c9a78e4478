// Package embed turns texts into vectors for seed localisation: the three implementations
// of realm.Embedder. Local runs all-MiniLM-L6-v2 with ONNX Runtime (files installed by
// deploy/model/setup.sh); OpenAI calls any OpenAI-compatible /v1/embeddings endpoint; Hash
// is feature hashing, a file-less last resort. New picks one from a Config.
//
// It may import the realm domain package, go-openai, onnxruntime_go, golang.org/x/text and
// zerolog, and internal/ctxtime; nothing else of REALM.
package embed
