package construction

import (
	"slices"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// DefaultExtractRoles are the chat roles whose messages are extracted into memories by
// default. A system prompt is not: it instructs the assistant and tells nothing of the
// user; it may hold what no key that reads should recall (a secret token), and agent
// frameworks put recalled memories into it, whose copies, sent back with the chat, would
// come back as new memories, again and again.
var DefaultExtractRoles = []string{"user", "assistant", "tool"}

// chatRole is the chat role (realm.ChatRoles) o was said in, "" for a person's message:
// its role when it was sent with one, whatever its speaker ("Ops bot" as "system"), else
// its speaker when that names a chat role (a message sent with a role and no speaker, or
// stored before roles were kept).
func chatRole(o realm.Observation) string {
	if o.Role != "" {
		return o.Role
	}
	if role := strings.ToLower(strings.TrimSpace(o.Speaker)); slices.Contains(realm.ChatRoles, role) {
		return role
	}
	return ""
}

// extracted reports whether o's words are extracted into memories: a chat role's only
// when Options.ExtractRoles lists it, a person's always. A message that is not is stored
// all the same (listed, exported, forgettable) and integrated with nothing added, as one
// with nothing to extract is, nor is it shown to the agent as the context of another.
func (p *Pipeline) extracted(o realm.Observation) bool {
	role := chatRole(o)
	return role == "" || slices.Contains(p.opts.ExtractRoles, role)
}

// userOf reports whether r is a message of o's session said by its user: a person's, or
// the user role's.
func userOf(o, r realm.Observation) bool {
	role := chatRole(r)
	return r.Session() == o.Session() && (role == "" || role == "user")
}

// machineRoles are the chat roles that are no one: a tool's output and a system prompt.
var machineRoles = []string{"system", "tool"}

// rolePerson reports whether c makes a person of a chat role that is no one
// (machineRoles), or of the speaker o, sent in such a role, was sent under: a model
// reading a tool's output may make the tool a person, as it does the user and the
// assistant, who are the people talking.
func rolePerson(o realm.Observation, c agent.Candidate) bool {
	if c.Type != realm.Entity || c.Category != "person" {
		return false
	}
	name := strings.ToLower(strings.TrimSpace(c.Name))
	return slices.Contains(machineRoles, name) ||
		slices.Contains(machineRoles, chatRole(o)) && strings.EqualFold(name, strings.TrimSpace(o.Speaker))
}
