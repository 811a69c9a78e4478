package offline

import (
	"slices"
	"strings"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// TestOfflinePromptPersons: an exchange quotes the other speaker's words with "I" and "you"
// resolved, unless the resolution is ambiguous; then it keeps the words as said and names
// who asked whom, so the memory never says something else.
func TestOfflinePromptPersons(t *testing.T) {
	a := New(Options{})
	tests := []struct {
		name, question, want string
	}{
		{"Yours", "How did you get yours?", `Andrew asked Audrey: "How did you get yours?" `},
		{"Mine", "Do you like mine better?", `Andrew asked Audrey: "Do you like mine better?" `},
		{"YouKnow", "You know that bakery on Main Street?", `Andrew asked Audrey: "You know that bakery on Main Street?" `},
		{"Resolved", "Where did you adopt your dogs?", `Andrew asked: "Where did Audrey adopt Audrey's dogs?" `},
		{"ResolvedBoth", "Did you see my photos?", `Andrew asked: "Did Audrey see Andrew's photos?" `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			q := obsAt("o1", "s1", "Andrew", tt.question)
			reply := obsAt("o2", "s1", "Audrey", "A shelter near the lake helped me a lot.")
			ext := mustExtract(t, a, agent.ExtractInput{Observation: reply, Recent: []realm.Observation{q}})
			i := slices.IndexFunc(ext.Candidates, func(c agent.Candidate) bool { return c.Type == realm.Event || c.Type == realm.Fact })
			if got := ext.Candidates[i].Content; !strings.HasPrefix(got, tt.want) {
				t.Errorf("content %q, want it to open with %q", got, tt.want)
			}
			// The relate step still finds the question's own words after the quote.
			if own := rePrompt.ReplaceAllString(ext.Candidates[i].Content, ""); strings.Contains(own, "asked") {
				t.Errorf("prompt not recognised in %q", ext.Candidates[i].Content)
			}
		})
	}
}
