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
	// A whole identifier ("10.1057/s41562.2017.10.791", "1706.03762") some memory names
	// says which; the numbers inside it ("1057", "1706") would let others of its kind by.
	var named []string
	for _, id := range text.Identifiers(run.query) {
		if anyNames(run, func(content string) bool { return text.NamesIdentifier(content, id) }) {
			named = append(named, id)
		}
	}
	if len(named) == 0 {
		for _, n := range text.IDNumbers(run.query) {
			if anyNames(run, func(content string) bool { return text.NamesNumber(content, n) }) {
				named = append(named, n)
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

// anyNames reports whether a gathered memory's content names what names says.
func anyNames(run *run, names func(content string) bool) bool {
	for _, c := range run.cands {
		if names(c.Node.Content) {
			return true
		}
	}
	return false
}

func namesAny(content string, named []string) bool {
	for _, n := range named {
		if text.NamesNumber(content, n) || text.NamesIdentifier(content, n) {
			return true
		}
	}
	return false
}
