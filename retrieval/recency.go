package retrieval

import (
	"time"

	"github.com/realm-memory/realm"
)

// applyRecency: a question asking for the last, latest or most recent of something ("What
// was Ana's last quiz score?", "When did I last go for a run?", a plan's Latest) is
// answered by the newest of the memories that match it, which similarity ranks no higher
// than the older ones: every quiz score is as close to "last quiz score". The matching
// events and facts are those within RecencyRange of the best one's score (the only ones
// the factor can reorder); each event and fact is lowered by its age among them, from
// nothing for the newest to RecencyRange for the oldest (and for any older), so that the
// newest of the matching ones comes first, and a newer memory the question is not about
// gains nothing. A memory's time is when it was last said within its own time, else its
// own (its end, else its start), else when it was last said or the space learned it
// (memoryTime).
func (r *Retriever) applyRecency(run *run) {
	if r.opts.RecencyRange <= 0 || !run.asksLatest() {
		return
	}
	var said []*candidate
	best := 0.0
	for _, c := range run.cands {
		if _, ok := run.timeOf(c.Node); ok && (c.Node.Type == realm.Event || c.Node.Type == realm.Fact) {
			said = append(said, c)
			best = max(best, c.Score)
		}
	}
	var oldest, newest time.Time
	for _, c := range said {
		if t, _ := run.timeOf(c.Node); c.Score >= (1-r.opts.RecencyRange)*best {
			if oldest.IsZero() || t.Before(oldest) {
				oldest = t
			}
			if t.After(newest) {
				newest = t
			}
		}
	}
	span := newest.Sub(oldest)
	if span <= 0 {
		return
	}
	for _, c := range said {
		t, _ := run.timeOf(c.Node)
		c.Score *= 1 - r.opts.RecencyRange*clip01(float64(newest.Sub(t))/float64(span))
	}
}

// memoryTime is when n happened or held: the last time it was said within its own time
// (realm.Node.SaidWithin: "Front door opened" said at 08:00 and 18:00 of the day it tells
// of, 18:00), else its end, else its start; else when it was last said, else when the
// space learned it; false when none is known.
func memoryTime(n realm.Node) (time.Time, bool) {
	if t, ok := n.SaidWithin(); ok {
		return t, true
	}
	for _, t := range []*time.Time{n.TEnd, n.TStart, n.LastSaidAt, n.LearnedAt} {
		if t != nil {
			return *t, true
		}
	}
	return time.Time{}, false
}

// timeOf is memoryTime of n as the run knows it: as of a past time, a saying after it is
// unknown yet.
func (run *run) timeOf(n realm.Node) (time.Time, bool) {
	if run.learnedBy != nil && n.LastSaidAt != nil && n.LastSaidAt.After(*run.learnedBy) {
		n.LastSaidAt = nil
	}
	return memoryTime(n)
}
