package retrieval

import (
	"github.com/realm-memory/realm/internal/text"
)

// applyIdentifiers: a question naming a ticket, an order or a card by its number ("What
// is T-7788 about?", "card ending 4417") asks about the memories that name that number;
// one about another ticket is at best near it, yet similarity ranks "Ticket T-7702 asks
// about my invoice" above the memory that names T-7788 in passing. When a gathered
// memory names such a number, every memory naming none of them is lowered by
// IdentifierMiss; when none does, nothing changes (the space does not know it). The
// trace records the numbers and how many memories were lowered.
func (r *Retriever) applyIdentifiers(run *run) {
	if r.opts.IdentifierMiss <= 0 {
		return
	}
	var named []string
	for _, n := range text.IDNumbers(run.query) {
		for _, c := range run.cands {
			if text.NamesNumber(c.Node.Content, n) {
				named = append(named, n)
				break
			}
		}
	}
	if len(named) == 0 {
		return
	}
	for _, c := range run.cands {
		if !namesAny(c.Node.Content, named) {
			c.Score *= 1 - r.opts.IdentifierMiss
			run.trace.IdentifierMisses++
		}
	}
	run.trace.Identifiers = named
}

func namesAny(content string, numbers []string) bool {
	for _, n := range numbers {
		if text.NamesNumber(content, n) {
			return true
		}
	}
	return false
}
