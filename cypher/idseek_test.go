package cypher

import (
	"regexp"
	"strings"
	"testing"
)

// memoryByID finds a MATCH whose pattern starts from a memory given by its id, in the text
// after the keyword: (m:Memory {id: … or p = (m:Memory {id: …
var memoryByID = regexp.MustCompile(`^(?:\w+ = )?\((\w+):Memory \{id:`)

// Every statement that looks a memory up by its id seeks it in the memory_id index by a
// hint. Left to the statistics, the planner can read the space's memories by the
// memory_space index instead (for a list of ids, or a join on them): 24,960 db hits per
// observation on a 1,000-memory space where the seek takes 449, and a scan of every
// memory on a large space. A pattern of two memories given by id names at least the first.
func TestMemoryByIDIsHinted(t *testing.T) {
	checked := 0
	for name, body := range statementBodies(t) {
		for _, clause := range strings.Split(body, "MATCH ")[1:] {
			m := memoryByID.FindStringSubmatch(clause)
			if m == nil {
				continue
			}
			checked++
			if !strings.Contains(clause, "USING INDEX "+m[1]+":Memory(id)") {
				t.Errorf("%s: MATCH %s… seeks a memory by id without USING INDEX %s:Memory(id)", name, strings.SplitN(clause, "\n", 2)[0], m[1])
			}
		}
	}
	if checked < 20 {
		t.Fatalf("only %d lookups of a memory by id: the test's pattern is wrong", checked)
	}
}
