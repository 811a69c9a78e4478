package cypher

import (
	"context"
	_ "embed"
	"time"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

var (
	//go:embed queries/episode_opening.cypher
	episodeOpeningCypher string
	qEpisodeOpening      = newQuery("episode_opening", episodeOpeningCypher)

	//go:embed queries/episode_rederive.cypher
	episodeRederiveCypher string
	qEpisodeRederive      = newQuery("episode_rederive", episodeRederiveCypher)

	//go:embed queries/memory_rederive_pending.cypher
	memoryRederivePendingCypher string
	qMemoryRederivePending      = newQuery("memory_rederive_pending", memoryRederivePendingCypher)
)

// RederivePending returns up to limit of the entities and episodes of space ("": of every
// space) that a forget left to derive again (DeleteObservation marks them, RederiveMemory
// clears the mark): with no embedding until then, their derivation anew having failed or
// not yet run. Each has its space, id, type, name and content. Errors: EUnavailable.
func (s *Store) RederivePending(ctx context.Context, space string, limit int) ([]realm.Node, error) {
	recs, err := s.read(ctx, qMemoryRederivePending, map[string]any{"space": space, "limit": limit})
	if err != nil {
		return nil, err
	}
	out := make([]realm.Node, len(recs))
	for i, r := range recs {
		out[i] = realm.Node{Space: str(r, "space"), ID: str(r, "id"), Type: realm.NodeType(str(r, "type")), Name: str(r, "name"), Content: str(r, "content")}
	}
	return out, nil
}

// EpisodeOpening returns episode id of space (without its embedding) and the first
// message it derives from, the one that opens its session among those that stay.
// Errors: ENotFound (no such episode, or one that derives from no message), EUnavailable.
func (s *Store) EpisodeOpening(ctx context.Context, space, id string) (realm.Node, realm.Observation, error) {
	recs, err := s.read(ctx, qEpisodeOpening, map[string]any{"space": space, "id": id})
	if err != nil {
		return realm.Node{}, realm.Observation{}, err
	}
	if len(recs) == 0 {
		return realm.Node{}, realm.Observation{}, realm.Errorf(realm.ENotFound, "episode %q with a message not found in space %q", id, space)
	}
	return nodeOf(mapOf(recs[0], "e")), observationOf(recs[0], "o"), nil
}

// rederived are the properties RederiveMemory writes of a memory of each type.
var rederived = map[realm.NodeType][]string{
	realm.Episode: {"content", "description", "participants", "keywords", "t_start", "t_end", "embedding", "word_count"},
	realm.Entity:  {"embedding"},
}

// RederiveMemory writes what memory n of space says, derived again once a message it
// derived from was forgotten (construction.Pipeline.Forget): of an episode, from its
// session's messages that stay, its content, description, participants, keywords, times
// and embedding replace the stored ones; of an entity, its embedding, of the names it
// kept (DeleteObservation). Its id, name, provenance and edges stay; the mark the
// deletion left it (RederivePending) goes.
// Errors: ENotFound, EConflict (an import holds the space: writeSpace), EUnavailable.
func (s *Store) RederiveMemory(ctx context.Context, space string, n realm.Node) error {
	defer s.graphs.writing(space)()
	props := map[string]any{}
	all := nodeProps(space, "", n, time.Time{})
	for _, k := range rederived[n.Type] {
		props[k] = all[k] // nil when n has none: removed
	}
	props["rederive"] = nil // derived again
	recs, err := s.writeSpace(ctx, space, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		return collect(ctx, tx, qEpisodeRederive, map[string]any{"space": space, "id": n.ID, "props": props, "now": time.Now().UTC()})
	})
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return realm.Errorf(realm.ENotFound, "%s %q not found in space %q", n.Type, n.ID, space)
	}
	r := recs[0]
	s.followWrite(ctx, space, graphMove{before: str(r, "graph_before"), after: str(r, "graph_after"), ids: []string{n.ID}})
	// The embeddings and keyword index held for the version the write found take the
	// memory's new text and embedding, as a merge's; others are left to be read again.
	if known, before := s.knownState(space), str(r, "version_before"); before != "" && known.Version == before {
		ins := []ObservationIntegration{{Integration: Integration{Merges: []Merge{{ID: n.ID, Name: n.Name, Content: n.Content, Embedding: n.Embedding,
			Keywords: n.Keywords, Aliases: n.Aliases}}}}}
		state := SpaceState{N: known.N, Version: str(r, "version_after")}
		s.vectors.written(space, known, state, ins)
		s.texts.written(space, known, state, ins, map[string]realm.Node{n.ID: n})
	}
	return nil
}
