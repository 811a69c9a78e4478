package construction

import (
	"slices"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// TestCalledAlso: an entity merged into learns the candidate's aliases, and the
// candidate's own name when the candidate is called by one of the entity's names.
func TestCalledAlso(t *testing.T) {
	user := agent.Candidate{Type: realm.Entity, Name: "user", Aliases: []string{"Alice Nguyen"}}
	tests := []struct {
		name    string
		entity  string
		aliases []string
		cand    agent.Candidate
		want    []string
	}{
		{"SpeakerLearnsTheName", "user", nil, user, []string{"Alice Nguyen"}},
		{"NameLearnsTheSpeaker", "Alice Nguyen", nil, user, []string{"user"}},
		{"NameCalledByAlias", "Alice N.", []string{"alice nguyen"}, user, []string{"alice nguyen", "user"}},
		{"KnownAlready", "user", []string{"Alice Nguyen"}, user, nil},
		{"NoAliases", "Caroline", nil, agent.Candidate{Type: realm.Entity, Name: "caroline"}, nil},
		{"NoNameInCommon", "Blue Bottle", nil, agent.Candidate{Type: realm.Entity, Name: "the cafe", Aliases: []string{"our cafe"}}, []string{"our cafe"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := calledAlso(tt.entity, tt.aliases, tt.cand); !slices.Equal(got, tt.want) {
				t.Errorf("calledAlso(%q, %q, %+v) = %q, want %q", tt.entity, tt.aliases, tt.cand, got, tt.want)
			}
		})
	}
}
