package construction

import (
	"sync"
	"time"

	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/cypher"
)

// keptExtractionsMax bounds the extractions a pipeline keeps for retries: past it, a
// failed attempt's extraction is dropped and its retry extracts again.
const keptExtractionsMax = 1000

// keptExtractions holds the extraction of each observation whose attempt failed after it
// was extracted (the write met a conflict or Neo4j away, the decision failed), for the
// next attempt of this process: the observation's lease stays with the process that
// attempted it (observation_error.cypher), so that it is the one to retry it, and it then
// pays the extractor (on the LLM path, a model call) once, as the decisions of a run that
// could not be applied are taken again on their extractions (oneByOne). The forget count
// of the extraction's context goes with it: a retry after the space forgot a message
// extracts again (construct). One is kept for as long as a lease lasts (Options.Lease):
// past it, another process may have taken the observation up.
type keptExtractions struct {
	mu sync.Mutex
	m  map[cypher.ObservationRef]keptExtraction
}

type keptExtraction struct {
	ext       agent.Extraction
	forgotten int64
	until     time.Time
}

// keep keeps o's extraction ext, read from a context of forget count forgotten, until until.
func (k *keptExtractions) keep(o cypher.ObservationRef, ext agent.Extraction, forgotten int64, until time.Time) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.m == nil {
		k.m = map[cypher.ObservationRef]keptExtraction{}
	}
	now := time.Now()
	for ref, e := range k.m {
		if now.After(e.until) {
			delete(k.m, ref)
		}
	}
	if len(k.m) < keptExtractionsMax {
		k.m[o] = keptExtraction{ext: ext, forgotten: forgotten, until: until}
	}
}

// take returns and forgets o's kept extraction and the forget count of its context; nil
// when none is kept.
func (k *keptExtractions) take(o cypher.ObservationRef) (*agent.Extraction, int64) {
	k.mu.Lock()
	defer k.mu.Unlock()
	e, ok := k.m[o]
	delete(k.m, o)
	if !ok || time.Now().After(e.until) {
		return nil, 0
	}
	return &e.ext, e.forgotten
}
