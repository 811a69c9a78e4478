package construction

import (
	"slices"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
)

// ChatRoles are the chat roles a message's speaker may be (a message sent with "role"
// and no speaker): any other speaker is a person's name.
var ChatRoles = []string{"user", "assistant", "system", "tool"}

// DefaultExtractRoles are the chat roles whose messages are extracted into memories by
// default. A system prompt is not: it instructs the assistant and tells nothing of the
// user; it may hold what no key that reads should recall (a secret token), and agent
// frameworks put recalled memories into it, whose copies, sent back with the chat, would
// come back as new memories, again and again.
var DefaultExtractRoles = []string{"user", "assistant", "tool"}

// extracted reports whether o's words are extracted into memories: a chat role's only
// when Options.ExtractRoles lists it, a person's always. A message that is not is stored
// all the same (listed, exported, forgettable) and integrated with nothing added, as one
// with nothing to extract is, nor is it shown to the agent as the context of another.
func (p *Pipeline) extracted(o realm.Observation) bool {
	role := strings.ToLower(strings.TrimSpace(o.Speaker))
	return !slices.Contains(ChatRoles, role) || slices.Contains(p.opts.ExtractRoles, role)
}

// machineRoles are the chat roles that are no one: a tool's output and a system prompt.
var machineRoles = []string{"system", "tool"}

// rolePerson reports whether c makes a person of a chat role that is no one
// (machineRoles): a model reading a tool's output may make the tool a person, as it does
// the user and the assistant, who are the people talking.
func rolePerson(c agent.Candidate) bool {
	return c.Type == realm.Entity && c.Category == "person" && slices.Contains(machineRoles, strings.ToLower(strings.TrimSpace(c.Name)))
}
