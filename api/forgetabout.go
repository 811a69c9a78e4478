package api

import (
	"context"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/cypher"
)

// The phrases a forget request may name someone by, and how long each may be.
const (
	maxForgetPhrases     = 20
	maxForgetPhraseRunes = 256
)

// forgetAboutRequest forgets what a space holds about someone (POST …/forget).
type forgetAboutRequest struct {
	About  []string `json:"about"`
	DryRun bool     `json:"dry_run,omitempty"`
}

func (req forgetAboutRequest) validate() error {
	fe := realm.FieldErrors{}
	if len(req.About) == 0 || len(req.About) > maxForgetPhrases {
		fe.Add("about", fmt.Sprintf("must hold 1 to %d phrases", maxForgetPhrases))
	}
	for i, p := range req.About {
		field := fmt.Sprintf("about[%d]", i)
		switch {
		case strings.TrimSpace(p) == "":
			fe.Add(field, "must not be empty")
		case utf8.RuneCountInString(p) > maxForgetPhraseRunes:
			fe.Add(field, fmt.Sprintf("must be at most %d characters", maxForgetPhraseRunes))
		case strings.ContainsRune(p, 0): // a JSON body is checked before (body.go); MCP arguments here
			fe.Add(field, "must not contain NUL (\\u0000)")
		}
	}
	return fe.Err()
}

// forgetAboutResult is what POST …/forget (and the MCP tool forget_about) found (dry_run)
// or forgot: the ids of the messages, memories and traces (cypher.About) and how many of
// each.
type forgetAboutResult struct {
	DryRun       bool     `json:"dry_run" jsonschema:"true: what would go, nothing changed"`
	Observations []string `json:"observations" jsonschema:"ids of the messages naming the person, in the order they were said"`
	Memories     []string `json:"memories" jsonschema:"ids of the memories deleted with the messages and of the events and facts whose own name or content names the person (a correction's), in id order (dry run: those that would go)"`
	Episodes     []string `json:"episodes" jsonschema:"ids of the episodes that stay whose own words (content, participants, keywords) named the person, derived again without them, in id order (dry run: those that would be)"`
	Traces       []string `json:"traces" jsonschema:"ids of the traces (recalls) whose question names the person, oldest first"`
	Counts       struct {
		Observations int `json:"observations"`
		Memories     int `json:"memories"`
		Episodes     int `json:"episodes"`
		Traces       int `json:"traces"`
	} `json:"counts" jsonschema:"how many ids each list holds"`
}

// handleForgetAbout forgets what a space holds about someone (forgetAboutPerson).
func (s *server) handleForgetAbout(w http.ResponseWriter, r *http.Request) {
	req, err := decode[forgetAboutRequest](r)
	if err == nil {
		err = req.validate()
	}
	var res forgetAboutResult
	if err = s.admit(r, err); err == nil {
		res, err = s.forgetAboutPerson(r.Context(), chi.URLParam(r, "space"), req)
	}
	if err != nil {
		writeError(w, r, err)
		return
	}
	encode(w, http.StatusOK, res)
}

// forgetAboutPerson forgets what a space holds about someone, named by phrases: the
// messages naming them, the memories derived from those, the events and facts whose own
// words name them (a correction), the episodes that stay whose own words name them, the
// traces of questions naming them (cypher.Store.About finds them). A dry run answers what
// would go and changes nothing. Otherwise each message is forgotten as DELETE
// …/observations/{id} forgets it (construction.Pipeline.ForgetAmong: the other messages
// of a merged memory are integrated again, but those forgotten next, an episode that
// stays derived again), the episodes naming them are derived again, then the memories
// naming them go as DELETE …/memories/{id} deletes one, then the traces go as the
// retention's sweep deletes them (cypher.Store.ForgetTraces); the answer says what went,
// what the dry run said. A call that fails midway leaves what it had yet to forget where About finds it, so that the same
// call again finishes the work. Errors: EInvalid, ENotFound, EUnavailable.
func (s *server) forgetAboutPerson(ctx context.Context, space string, req forgetAboutRequest) (forgetAboutResult, error) {
	if err := req.validate(); err != nil {
		return forgetAboutResult{}, err
	}
	about, err := s.Store.About(ctx, space, req.About)
	found := len(about.Observations)+len(about.Memories)+len(about.Episodes)+len(about.Traces) > 0
	// Nothing found is nothing to forget: forgetAbout's searches after About's would find
	// only what was written since, such as an import's memories (one that claimed the
	// space, empty then, after the route's check), and delete them, its messages left.
	if err == nil && !req.DryRun && found {
		about, err = s.forgetAbout(ctx, space, req.About, about)
	}
	if err != nil {
		return forgetAboutResult{}, err
	}
	res := forgetAboutResult{DryRun: req.DryRun, Observations: about.Observations, Memories: about.Memories, Episodes: about.Episodes, Traces: about.Traces}
	res.Counts.Observations, res.Counts.Memories, res.Counts.Episodes, res.Counts.Traces = len(res.Observations), len(res.Memories), len(res.Episodes), len(res.Traces)
	return res, nil
}

// forgetAbout forgets the messages of about (none of which is integrated again to be
// forgotten next: construction.Pipeline.ForgetAmong), derives again the episodes whose
// own words still name the person phrases name (cypher.Store.EpisodesNaming: one whose
// session's first speaker was taken to answer them), then deletes the memories whose
// own words still name them, as DELETE …/memories/{id} deletes one (read again: the
// messages integrated again may have said the name anew, an episode's extraction may
// say it still), then its traces, and returns what went: the messages and traces that
// were still there, the memories deleted, the episodes of about derived again that stay.
// A message or memory gone since it was read (another request forgot it) is passed over.
func (s *server) forgetAbout(ctx context.Context, space string, phrases []string, about cypher.About) (cypher.About, error) {
	gone := cypher.About{Observations: []string{}, Memories: []string{}, Episodes: []string{}, Traces: []string{}}
	for i, id := range about.Observations {
		next := func(o realm.Observation) bool { return slices.Contains(about.Observations[i+1:], o.ID) }
		forgotten, err := s.Ingest.ForgetAmong(ctx, space, id, next)
		if realm.ErrorCode(err) == realm.ENotFound {
			continue
		}
		if err != nil {
			return gone, err
		}
		gone.Observations = append(gone.Observations, id)
		gone.Memories = append(gone.Memories, forgotten.MemoryIDs...)
	}
	episodes, err := s.Store.EpisodesNaming(ctx, space, phrases)
	if err == nil {
		err = s.Ingest.RederiveEpisodes(ctx, space, episodes)
	}
	if err != nil {
		return gone, err
	}
	named, err := s.Store.MemoriesNaming(ctx, space, phrases)
	if err == nil {
		episodes, err = s.Store.EpisodesNaming(ctx, space, phrases)
		named = append(named, episodes...)
	}
	if err != nil {
		return gone, err
	}
	for _, id := range named {
		err := s.Store.DeleteMemory(ctx, space, id)
		if realm.ErrorCode(err) == realm.ENotFound {
			continue
		}
		if err != nil {
			return gone, err
		}
		gone.Memories = append(gone.Memories, id)
	}
	slices.Sort(gone.Memories)
	gone.Memories = slices.Compact(gone.Memories)
	gone.Episodes = slices.DeleteFunc(slices.Clone(about.Episodes), func(id string) bool { return slices.Contains(gone.Memories, id) })
	if _, err := s.Store.ForgetTraces(ctx, space, about.Traces, s.Recall.QueryVectors); err != nil {
		return gone, err
	}
	gone.Traces = about.Traces
	return gone, nil
}
