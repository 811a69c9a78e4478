package retrieval

import (
	"slices"

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
	// A whole identifier ("10.1057/s41562.2017.10.791", "1706.03762") or a part of a
	// document ("Section 7.2") some memory names says which; the numbers inside it
	// ("1057", "1706") would let others of its kind by.
	named := slices.Concat(namedBy(run, text.Identifiers(run.query), text.NamesIdentifier),
		namedBy(run, text.Sections(run.query), text.NamesSection))
	if len(named) == 0 {
		named = namedBy(run, text.IDNumbers(run.query), text.NamesNumber)
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

// namedBy is those of ids that some gathered memory's content names, by names.
func namedBy(run *run, ids []string, names func(content, id string) bool) []string {
	var out []string
	for _, id := range ids {
		for _, c := range run.cands {
			if names(c.Node.Content, id) {
				out = append(out, id)
				break
			}
		}
	}
	return out
}

func namesAny(content string, named []string) bool {
	for _, n := range named {
		if text.NamesNumber(content, n) || text.NamesIdentifier(content, n) || text.NamesSection(content, n) {
			return true
		}
	}
	return false
}
