package cypher

import (
	"context"
	"fmt"

	"github.com/neo4j/neo4j-go-driver/v5/neo4j"

	"github.com/realm-memory/realm"
)

// reembedMarker prefixes the embedder recorded for a space while its vectors are being
// rewritten. No embedder has such an id, so CheckEmbedder refuses the space, naming it
// and the unfinished re-embed, until ReembedSpace completes on it (running it again after
// an interruption redoes the space).
const reembedMarker = "unfinished reembed to "

// SpaceEmbedder is a space and the embedder recorded for its memories.
type SpaceEmbedder struct {
	Space    string
	Embedder string // "" when none is recorded (memories written by test fixtures)
	Dims     int
}

// SpaceEmbedders lists every space, with the spaces of memories that have no space node,
// ordered by id. Errors: EUnavailable.
func (s *Store) SpaceEmbedders(ctx context.Context) ([]SpaceEmbedder, error) {
	recs, err := s.read(ctx, qReembedSpaces, nil)
	if err != nil {
		return nil, err
	}
	out := make([]SpaceEmbedder, len(recs))
	for i, r := range recs {
		out[i] = SpaceEmbedder{Space: str(r, "id"), Embedder: str(r, "embedder"), Dims: int(num(r, "dims"))}
	}
	return out, nil
}

// ReembedOptions say how ReembedSpace embeds and reports.
type ReembedOptions struct {
	// Text is what a memory is embedded from; it must be the write path's
	// (construction.EmbedText) so that re-embedded and new memories compare. Nil: content.
	Text func(name, content string) string
	// Batch is how many memories go to one Embed call and one write transaction (default 256).
	Batch int
	// Progress, when set, is called after each batch.
	Progress func(done, total int)
}

// ReembedSpace replaces the embedding of every memory of a space by emb's vector of its
// text, batch by batch, then records emb's id and dimension for the space. Nothing else
// of a memory changes; the learned links whose query's text was erased (ExpireTraces)
// lose the query's vector, the former embedder's, and act no more. While it runs the space records an unfinished re-embed, so `realm
// serve` refuses it; after an interruption, calling it again redoes the space. It returns
// how many memories it re-embedded. Servers must be stopped: a memory a server embeds
// meanwhile with another embedder is not caught unless its dimension differs.
// Errors: EConflict, EUnavailable, and the embedder's.
func (s *Store) ReembedSpace(ctx context.Context, space string, emb realm.Embedder, opts ReembedOptions) (int, error) {
	text := opts.Text
	if text == nil {
		text = func(_, content string) string { return content }
	}
	batch := opts.Batch
	if batch <= 0 {
		batch = 256
	}
	recs, err := s.read(ctx, qReembedMemoryIDs, map[string]any{"space": space})
	if err != nil {
		return 0, err
	}
	ids := make([]string, len(recs))
	for i, r := range recs {
		ids[i] = str(r, "id")
	}
	// Marked before the first vector changes: from here until the end the space holds
	// the vectors of two embedders and must not be served with either.
	_, err = s.write(ctx, qReembedSpaceBegin, map[string]any{
		"space": space, "marker": reembedMarker + emb.ID(), "dims": emb.Dim(),
	})
	if err != nil {
		return 0, err
	}
	written := 0
	for start := 0; start < len(ids); start += batch {
		end := min(start+batch, len(ids))
		n, err := s.reembedBatch(ctx, space, ids[start:end], emb, text)
		if err != nil {
			return written, err
		}
		written += n
		if opts.Progress != nil {
			opts.Progress(end, len(ids))
		}
	}
	return written, s.finishReembed(ctx, space, emb)
}

// reembedBatch embeds some memories of a space and writes their new vectors in one
// transaction; ids no longer in the space are left out.
func (s *Store) reembedBatch(ctx context.Context, space string, ids []string, emb realm.Embedder, text func(name, content string) string) (int, error) {
	recs, err := s.read(ctx, qReembedMemoryTexts, map[string]any{"space": space, "ids": ids})
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	texts := make([]string, len(recs))
	for i, r := range recs {
		texts[i] = text(str(r, "name"), str(r, "content"))
	}
	vecs, err := emb.Embed(ctx, texts)
	if err != nil {
		return 0, err
	}
	if len(vecs) != len(texts) {
		return 0, fmt.Errorf("reembed: embedder %s returned %d vectors for %d texts", emb.ID(), len(vecs), len(texts))
	}
	rows := make([]any, len(recs))
	for i, r := range recs {
		if len(vecs[i]) != emb.Dim() {
			return 0, fmt.Errorf("reembed: embedder %s returned a vector of dimension %d, not %d", emb.ID(), len(vecs[i]), emb.Dim())
		}
		rows[i] = map[string]any{"id": str(r, "id"), "embedding": vector64(vecs[i])}
	}
	recs, err = s.write(ctx, qReembedSetEmbeddings, map[string]any{"space": space, "rows": rows})
	s.vectors.drop(space) // the space's fingerprint does not see a new embedding
	if err != nil {
		return 0, err
	}
	return int(num(recs[0], "written")), nil
}

// finishReembed records emb for the space, in one transaction with a last check that
// every memory of the space now has a vector of emb's dimension.
func (s *Store) finishReembed(ctx context.Context, space string, emb realm.Embedder) error {
	_, err := s.writeTx(ctx, func(ctx context.Context, tx neo4j.ManagedTransaction) ([]*neo4j.Record, error) {
		recs, err := collect(ctx, tx, qReembedSpaceMisfits, map[string]any{"space": space, "dims": emb.Dim()})
		if err != nil {
			return nil, err
		}
		if n := num(recs[0], "n"); n > 0 {
			return nil, realm.Errorf(realm.EConflict,
				"space %s: %d memories were written during the re-embed without a %d-dimension embedding; "+
					"stop every `realm serve` and run `realm reembed` again", space, n, emb.Dim())
		}
		return collect(ctx, tx, qReembedSpaceFinish, map[string]any{"space": space, "embedder": emb.ID(), "dims": emb.Dim()})
	})
	return err
}

// VectorIndexDims returns the dimension of the vector index on Memory.embedding, 0 when
// there is none. Errors: EUnavailable.
func (s *Store) VectorIndexDims(ctx context.Context) (int, error) {
	recs, err := s.read(ctx, qVectorIndexDims, nil)
	if err != nil || len(recs) == 0 {
		return 0, err
	}
	return int(num(recs[0], "dims")), nil
}

// SpaceCount is a space and a number of its memories.
type SpaceCount struct {
	Space    string
	Memories int64
}

func (c SpaceCount) String() string { return fmt.Sprintf("%s (%d memories)", c.Space, c.Memories) }

// SpacesWithOtherDims returns every space, except those named, whose memories hold
// embeddings of another dimension than dims, ordered by id. Errors: EUnavailable.
func (s *Store) SpacesWithOtherDims(ctx context.Context, dims int, except []string) ([]SpaceCount, error) {
	if except == nil {
		except = []string{} // `NOT x IN null` is null in Cypher: it would exclude every space
	}
	recs, err := s.read(ctx, qReembedOtherDims, map[string]any{"dims": dims, "except": except})
	if err != nil {
		return nil, err
	}
	out := make([]SpaceCount, len(recs))
	for i, r := range recs {
		out[i] = SpaceCount{Space: str(r, "space"), Memories: num(r, "n")}
	}
	return out, nil
}

// RebuildVectorIndex gives the vector index dimension dims and waits until every index is
// ONLINE; it is what lets `realm reembed` change the embedder's dimension. Neo4j cannot
// change an index's dimension, so the index is dropped and created again (through
// ApplySchema). It refuses while any memory holds an embedding of another dimension:
// Neo4j would silently leave such a memory out of the new index. Errors: EConflict,
// EUnavailable.
func (s *Store) RebuildVectorIndex(ctx context.Context, dims int) error {
	have, err := s.VectorIndexDims(ctx)
	if err != nil {
		return err
	}
	if have != dims {
		misfits, err := s.SpacesWithOtherDims(ctx, dims, nil)
		if err != nil {
			return err
		}
		if len(misfits) > 0 {
			return realm.Errorf(realm.EConflict,
				"the vector index cannot take dimension %d: these spaces hold embeddings of another dimension: %s; "+
					"re-embed them first (`realm reembed --all`)", dims, JoinCounts(misfits))
		}
		if have != 0 {
			if _, err := s.write(ctx, qVectorIndexDrop, nil); err != nil {
				return err
			}
		}
	}
	return s.ApplySchema(ctx, dims)
}

// JoinCounts names the first ListedSpaces spaces with their counts, and how many more.
func JoinCounts(cs []SpaceCount) string {
	parts := make([]string, len(cs))
	for i, c := range cs {
		parts[i] = c.String()
	}
	return listSome(parts)
}
