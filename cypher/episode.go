package cypher

import (
	"context"
	_ "embed"
	"time"

	"github.com/realm-memory/realm"
)

var (
	//go:embed queries/episode_opening.cypher
	episodeOpeningCypher string
	qEpisodeOpening      = newQuery("episode_opening", episodeOpeningCypher)

	//go:embed queries/episode_rederive.cypher
	episodeRederiveCypher string
	qEpisodeRederive      = newQuery("episode_rederive", episodeRederiveCypher)
)

// EpisodeOpening returns the name of episode id of space and the first message it derives
// from, the one that opens its session among those that stay.
// Errors: ENotFound (no such episode, or one that derives from no message), EUnavailable.
func (s *Store) EpisodeOpening(ctx context.Context, space, id string) (string, realm.Observation, error) {
	recs, err := s.read(ctx, qEpisodeOpening, map[string]any{"space": space, "id": id})
	if err != nil {
		return "", realm.Observation{}, err
	}
	if len(recs) == 0 {
		return "", realm.Observation{}, realm.Errorf(realm.ENotFound, "episode %q with a message not found in space %q", id, space)
	}
	return str(recs[0], "name"), observationOf(recs[0], "o"), nil
}

// RederiveEpisode writes what episode n of space says, derived again from its session's
// messages that stay: its content, description, participants, keywords, times and
// embedding replace the stored ones; its id, name, provenance and edges stay.
// Errors: ENotFound, EUnavailable.
func (s *Store) RederiveEpisode(ctx context.Context, space string, n realm.Node) error {
	defer s.graphs.writing(space)()
	props := map[string]any{"participants": nil, "t_start": nil, "t_end": nil, "embedding": nil}
	for k, v := range nodeProps(space, "", n, time.Time{}) {
		switch k {
		case "content", "description", "participants", "keywords", "t_start", "t_end", "embedding", "word_count":
			props[k] = v
		}
	}
	recs, err := s.write(ctx, qEpisodeRederive, map[string]any{"space": space, "id": n.ID, "props": props, "now": time.Now().UTC()})
	if err != nil {
		return err
	}
	if len(recs) == 0 {
		return realm.Errorf(realm.ENotFound, "episode %q not found in space %q", n.ID, space)
	}
	r := recs[0]
	s.followWrite(ctx, space, graphMove{before: str(r, "graph_before"), after: str(r, "graph_after"), ids: []string{n.ID}})
	// The embeddings and keyword index held for the version the write found take the
	// episode's new text and embedding, as a merge's; others are left to be read again.
	if known, before := s.knownState(space), str(r, "version_before"); before != "" && known.Version == before {
		ins := []ObservationIntegration{{Integration: Integration{Merges: []Merge{{ID: n.ID, Content: n.Content, Embedding: n.Embedding, Keywords: n.Keywords}}}}}
		state := SpaceState{N: known.N, Version: str(r, "version_after")}
		s.vectors.written(space, known, state, ins)
		s.texts.written(space, known, state, ins, map[string]realm.Node{n.ID: n})
	}
	return nil
}
