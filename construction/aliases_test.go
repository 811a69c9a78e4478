package construction

import (
	"cmp"
	"slices"
	"testing"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// TestCalledAlso: an entity merged into learns the candidate's aliases, and the
// candidate's own name when the candidate is called by one of the entity's names; a
// first name merged into by the full name it opens takes the full name and keeps the
// first as an alias, and a full name merged into by the first name it opens keeps it as
// an alias.
func TestCalledAlso(t *testing.T) {
	user := agent.Candidate{Type: realm.Entity, Name: "user", Aliases: []string{"Alice Nguyen"}}
	becker := agent.Candidate{Type: realm.Entity, Name: "Tom Becker"}
	tests := []struct {
		name    string
		entity  string
		aliases []string
		cand    agent.Candidate
		want    []string
		named   string // the entity's name after; "" keeps it
	}{
		{"FullNameNames", "Tom", nil, becker, []string{"Tom"}, "Tom Becker"},
		{"FullNameAliasNames", "Tom", []string{"Tom Becker", "TB"}, becker, []string{"TB", "Tom"}, "Tom Becker"},
		{"FullNameAgain", "Tom Becker", []string{"Tom"}, becker, nil, ""},
		{"FirstNameAgain", "Tom Becker", []string{"Tom"}, agent.Candidate{Type: realm.Entity, Name: "Tom"}, nil, ""},
		{"FirstNameAfterFullName", "Tom Becker", nil, agent.Candidate{Type: realm.Entity, Name: "Tom"}, []string{"Tom"}, ""},
		{"FirstNameAfterFullNameAliased", "Tom Becker", []string{"TB"}, agent.Candidate{Type: realm.Entity, Name: "tom"}, []string{"TB", "tom"}, ""},
		{"SpeakerLearnsTheName", "user", nil, user, []string{"Alice Nguyen"}, ""},
		{"NameLearnsTheSpeaker", "Alice Nguyen", nil, user, []string{"user"}, ""},
		{"NameCalledByAlias", "Alice N.", []string{"alice nguyen"}, user, []string{"alice nguyen", "user"}, ""},
		{"KnownAlready", "user", []string{"Alice Nguyen"}, user, nil, ""},
		{"NoAliases", "Caroline", nil, agent.Candidate{Type: realm.Entity, Name: "caroline"}, nil, ""},
		{"NoNameInCommon", "Blue Bottle", nil, agent.Candidate{Type: realm.Entity, Name: "the cafe", Aliases: []string{"our cafe"}}, []string{"our cafe"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			named, got := calledAlso(tt.entity, tt.aliases, tt.cand)
			if want := cmp.Or(tt.named, tt.entity); named != want || !slices.Equal(got, tt.want) {
				t.Errorf("calledAlso(%q, %q, %+v) = %q, %q, want %q, %q", tt.entity, tt.aliases, tt.cand, named, got, want, tt.want)
			}
		})
	}
}
