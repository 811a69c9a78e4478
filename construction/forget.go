package construction

import (
	"context"
	"fmt"
	"slices"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
)

// Forgotten is what Forget did.
type Forgotten struct {
	Observation     string   `json:"observation"`
	MemoriesDeleted int      `json:"memories_deleted"`
	MemoryIDs       []string `json:"memory_ids"` // the memories deleted with it, in no particular order
	// Reintegrated is, per message that stays and was a source of a memory deleted with
	// it, in the order they were said, its integration anew: what it added and merged into
	// says again what it said.
	Reintegrated []Result `json:"reintegrated"`
}

// Forget forgets one message of space (cypher.Store.DeleteObservation says what goes),
// then integrates again, in order, each message that stays and was a source of a memory
// deleted with it (a merge of what both said, an exchange): what that message said went
// with the memory, and its extraction anew, from its own content and the space as it is
// now, brings it back without the forgotten message's words. The deletion marks them
// pending in its own transaction, leased to this process, so that one this call does
// not integrate (a crash, a failed attempt, a cancelled context: reported pending) is
// resumed as any pending observation (ResumePending). Last, each entity that stays
// under fewer names (a message that stays says those alone) is embedded anew of them,
// and each episode that stays and derived from it is derived again from the messages
// that stay (RederiveEpisodes). The deletion already left them none of its words (an
// episode says only its name and times, with no embedding; an entity its names kept,
// with none): an error of these last steps leaves them without an embedding, or with the
// episode's text so bare, never with its words, and marked: RederivePending (the
// resumption's) derives them again.
// Errors: ENotFound (space or message), EUnavailable, and the agent's and the embedder's
// (the message is forgotten all the same).
func (p *Pipeline) Forget(ctx context.Context, space, id string) (Forgotten, error) {
	return p.ForgetAmong(ctx, space, id, nil)
}

// ForgetAmong is Forget of id, one of the messages of space a request forgets in turn,
// next telling those it forgets after it: those are not integrated again (what they said
// goes with them next), and stay pending until then, for the resumption should the
// request stop before. Forgetting a person, or a speaker's old messages, so deletes what
// their messages' memories were, and no memory an integration anew of one of them would
// add for the next forget to delete.
func (p *Pipeline) ForgetAmong(ctx context.Context, space, id string, next func(realm.Observation) bool) (Forgotten, error) {
	c := heldObservations.claim(p.opts.Owner) // before the store leases them (held.go)
	defer c.end()
	deleted, err := p.store.DeleteObservation(ctx, space, id, p.lease())
	if err != nil {
		return Forgotten{}, err
	}
	out := Forgotten{Observation: id, MemoriesDeleted: deleted.MemoriesDeleted, MemoryIDs: deleted.MemoryIDs, Reintegrated: []Result{}}
	var saved []cypher.SavedObservation
	for _, o := range deleted.Reintegrate {
		if next != nil && next(o) {
			continue
		}
		saved = append(saved, cypher.SavedObservation{Observation: o, Claimed: true})
		out.Reintegrated = append(out.Reintegrated, Result{ObservationID: o.ID, Seq: o.Seq, Status: StatusPending})
	}
	results, err := p.integrateSaved(ctx, c, saved, cypher.Window{}, true)
	if err == nil { // else forgotten all the same: the others stay pending, for the resumption
		for i := range results {
			results[i].Superseded = superseded(results[i].Edges)
		}
		out.Reintegrated = results
	}
	for _, n := range deleted.Renamed {
		if err := p.reembed(ctx, space, n); err != nil {
			return out, err
		}
	}
	return out, p.RederiveEpisodes(ctx, space, deleted.Episodes)
}

// rederiveBatch is how many memories a pass of RederivePending derives again.
const rederiveBatch = 100

// RederivePending derives again the entities and episodes of space ("": of every space)
// that a forget left to derive again (cypher.Store.RederivePending): its derivation of
// them failed (the embedder or the model away) or never ran (the process stopped), and
// they have no embedding meanwhile (recall finds them by their words and edges, not by
// their meaning). An entity is embedded anew of the names it kept, an episode derived
// again from the messages that stay, as Forget does; a pass takes up to rederiveBatch of
// them, and ResumePendingSpace runs one after its observations, so that the server does
// it within REALM_RESUME_INTERVAL. It returns how many it derived again.
// Errors: EUnavailable (it stops there), and the agent's and the embedder's (the first
// met; the others are tried all the same).
func (p *Pipeline) RederivePending(ctx context.Context, space string) (int, error) {
	nodes, err := p.store.RederivePending(ctx, space, rederiveBatch)
	if err != nil {
		return 0, err
	}
	done, first := 0, error(nil)
	for _, n := range nodes {
		if n.Type == realm.Episode {
			err = p.RederiveEpisodes(ctx, n.Space, []string{n.ID})
		} else {
			err = p.reembed(ctx, n.Space, n)
		}
		switch {
		case err == nil:
			done++
		case realm.ErrorCode(err) == realm.EUnavailable || ctx.Err() != nil:
			return done, err
		case first == nil:
			first = err
		}
	}
	return done, first
}

// reembed writes the embedding of n, an entity or an episode of space, made anew of what
// it says. Errors: EUnavailable, and the embedder's.
func (p *Pipeline) reembed(ctx context.Context, space string, n realm.Node) error {
	embs, err := p.embed(ctx, []string{embedText(n.Name, n.Content)})
	if err != nil {
		return fmt.Errorf("embed %s %s: %w", n.Type, n.ID, err)
	}
	n.Embedding = embs[0]
	if err := p.store.RederiveMemory(ctx, space, n); err != nil && realm.ErrorCode(err) != realm.ENotFound {
		return err
	}
	return nil
}

// RederiveEpisodes derives each episode ids of space again from the first message that
// stays of those it derives from, as the agent makes a session's episode of the message
// that opens it: what it said of its session (its content, description, participants,
// keywords, times, embedding) may be a forgotten message's, its speaker's name, or name
// a forgotten person its first speaker was taken to answer (POST …/forget). It keeps
// its id, name and edges: the session's messages stay contextualized by it, and those
// said later find it. An extraction that makes no episode of the session (an LLM's) leaves
// it as it was (after a message forgotten, as the deletion left it: its name and
// times), and embeds that; one gone meanwhile is passed over.
// Errors: EUnavailable, and the agent's and the embedder's.
func (p *Pipeline) RederiveEpisodes(ctx context.Context, space string, ids []string) error {
	for _, id := range ids {
		e, o, err := p.store.EpisodeOpening(ctx, space, id)
		if realm.ErrorCode(err) == realm.ENotFound {
			continue // gone with a message forgotten meanwhile
		}
		if err != nil {
			return err
		}
		win, err := p.store.ExtractionContext(ctx, space, o.Seq, p.opts.RecentObservations)
		if err != nil {
			return err
		}
		// Read where their days are, as when they were integrated ("10:00 am" of a
		// message sent at 10:00+01:00, not the stored UTC's 9:00).
		o.ObservedAt = o.Local(p.opts.Zone)
		p.inZone(win.Observations)
		// The messages of its session said before o, none of which the episode derives
		// from, are not shown: o opens the session now, and the agent gives the message
		// that opens a session its episode.
		recent := slices.DeleteFunc(win.Observations, func(r realm.Observation) bool { return r.Session() == o.Session() })
		ext, err := p.extract(ctx, o, win.Summary, recent, &Result{})
		if err != nil {
			return err
		}
		n := realm.Node{ID: id, Type: realm.Episode, Name: e.Name, Content: e.Content, TStart: e.TStart, TEnd: e.TEnd}
		if i := slices.IndexFunc(ext.Candidates, func(c agent.Candidate) bool { return c.Type == realm.Episode && c.Name == e.Name }); i >= 0 {
			c := ext.Candidates[i]
			n.Content, n.Description, n.Participants, n.Keywords, n.TStart, n.TEnd = c.Content, c.Description, c.Participants, c.Keywords, c.TStart, c.TEnd
		}
		if err := p.reembed(ctx, space, n); err != nil {
			return err
		}
	}
	return nil
}
