package api

import (
	"context"
	_ "embed"
	"net/http"
	"time"

	"github.com/rs/zerolog"

	"github.com/realm-memory/realm"
)

func (s *server) handleHealthz(w http.ResponseWriter, r *http.Request) {
	encode(w, http.StatusOK, map[string]string{"status": "ok"})
}

// readyTimeout bounds a readiness check: probes give up after a few seconds, and the
// driver would retry an unreachable Neo4j for longer.
const readyTimeout = 3 * time.Second

// handleReadyz answers 200 only when Neo4j answers and the schema is applied with every
// index online; otherwise 503 with the reason (the driver's error is logged, not shown).
func (s *server) handleReadyz(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), readyTimeout)
	defer cancel()
	ok, reason, err := s.Store.Ready(ctx, s.cfg.Embedder.Dim)
	if err != nil {
		zerolog.Ctx(r.Context()).Warn().Err(err).Msg("not ready: neo4j does not answer")
		reason = "neo4j does not answer"
	}
	if !ok {
		logFailure(r.Context(), realm.Errorf(realm.EUnavailable, "%s", reason))
		w.Header().Set("Retry-After", "5")
		encode(w, http.StatusServiceUnavailable, map[string]string{"status": "unavailable", "reason": reason})
		return
	}
	encode(w, http.StatusOK, map[string]string{"status": "ready"})
}

type infoResponse struct {
	Version  string       `json:"version"`
	Embedder EmbedderInfo `json:"embedder"`
	LLM      LLMInfo      `json:"llm"`
	Neo4j    neo4jInfo    `json:"neo4j"`
	Key      keyInfo      `json:"key"`
}

// keyInfo is the calling key as the server reads it, so that a client (the explorer) can
// offer only what the key may do; never its secret or hash.
type keyInfo struct {
	Name   string   `json:"name"`
	Scopes []Scope  `json:"scopes"`
	Spaces []string `json:"spaces"`
}

type neo4jInfo struct {
	Version string `json:"version"`
	Edition string `json:"edition"`
}

func (s *server) handleInfo(w http.ResponseWriter, r *http.Request) {
	key := keyOf(r.Context())
	version, edition, err := s.Store.ServerInfo(r.Context())
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, infoResponse{
		Version:  s.cfg.Version,
		Embedder: s.cfg.Embedder,
		LLM:      s.cfg.LLM,
		Neo4j:    neo4jInfo{Version: version, Edition: edition},
		Key:      keyInfo{Name: key.Name, Scopes: key.Scopes, Spaces: key.Spaces},
	})
}

//go:embed openapi.yaml
var openAPISpec []byte

func handleOpenAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	_, _ = w.Write(openAPISpec)
}
