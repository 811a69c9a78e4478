package offline

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// A team's decisions (OFFLINE.md, "Knowledge that changes"): which tool does what ("we
// lint with flake8", "our pipelines run on Jenkins", "our database is Postgres 14"), who
// owns what ("Priya owns the billing service"), and the statements that change them
// ("switch the linter to ruff", "use Vitest instead of Jest", "moment is deprecated",
// "Jonas took over the billing service", "the gateway was upgraded to Node 22"). A team
// speaks as "we", or of "our" things with no subject at all: these claims are the team's,
// whoever of the space says them (stateClaim.team), except ownership, whose subject is the
// thing owned.
//
// A tool claim is a "uses" claim with a role, what the tool is used for: another value
// replaces it only for the same role ("we now use GitLab CI for all pipelines" replaces
// Jenkins for pipelines, not pnpm), or for another version of the same product ("Node
// 22" after "Node 20").

// toolVerbs are what a team does with a tool: "we lint with flake8".
const toolVerbs = `test|lint|format|build|deploy|bundle|compile|host|monitor|transpile|type-check|typecheck|provision|package|orchestrate`

// namedValue is a value that names a thing: capitalised or with a digit ("Redis", "Node 20",
// "flake8"), not "a mess" or "the beach".
const namedValue = `((?:[\p{Lu}\d]|[a-z][\w.+\-]*\d)(?:[^.,;!?()"]|\.\w)*?)`

// role is what a tool does or a thing owned, one to three words: "API gateway", "pipelines".
const role = `([\p{L}][\w\-]*(?: [\p{L}][\w\-]*){0,2}?)`

// teamStart is where a subjectless team statement starts: a sentence, a clause after a
// colon or a semicolon, or after "and", "so", "now".
const teamStart = `(?:^|[.;:!?]\s+|\b(?:and|so|now) )`

// toolKind is a role that names a kind of tool, a word before it at most: "linter", "Python
// linter", "package manager". "The X is Y" says which tool does X only for such an X: "the
// winner is Maria", "the runtime is 2 hours" name no tool.
const toolKind = `((?:[\w\-]+ )?(?i:linter|formatter|bundler|compiler|transpiler|type ?checker|test runner|task runner|package manager|build tool|build system|CI|CI/CD|database|ORM|message queue|message broker|web framework|frontend framework|container registry|issue tracker))`

// versioned is a product and its version ("Node 22", "Postgres 16"), or a version alone.
const versioned = `((?:[\p{Lu}][\w.+\-]* )?v?\d+(?:\.\d+)*)`

// teamPattern is one pattern of a team's claims; claim reads the groups of a match.
type teamPattern struct {
	re    literalPattern
	claim func(m []string) []stateClaim
}

// tool is the speaker's claim that a tool does role; cued when the text says it is new.
func tool(roleWords, value string, cued bool) stateClaim {
	return stateClaim{subject: "we", slot: "uses", role: roleOf(roleWords), value: value, cued: cued}
}

// replacedBy is the speaker's claim that old no longer holds, by (if any) instead.
func replacedBy(old, by string) stateClaim {
	return stateClaim{subject: "we", value: old, by: strings.TrimSpace(by), ended: true, cued: true}
}

var teamPatterns = []teamPattern{
	// What holds: "we use moment for dates", "we lint with flake8 and format with black",
	// "we run the API gateway on Node 20", "our pipelines run on Jenkins", "our cache is Redis",
	// "the linter is flake8".
	{mustPattern(`\b[Ww]e` + claimAdverbs + ` (?:use|are using) ` + claimValue + ` for (?:all |our |the |every |any )*` + role + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{tool(m[2], m[1], false)} }},
	{mustPattern(`\b[Ww]e` + claimAdverbs + ` (` + toolVerbs + `) (?:\w+ )?with ` + claimValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{tool(m[1], m[2], false)} }},
	// The second verb of "we lint with flake8 and format with black" (the first match
	// ends at its "and").
	{mustPattern(`\band` + claimAdverbs + ` (` + toolVerbs + `) (?:\w+ )?with ` + claimValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{tool(m[1], m[2], false)} }},
	{mustPattern(`\b[Ww]e` + claimAdverbs + ` (?:run|host|deploy) (?:the |our |all (?:of )?our )?` + role + ` on ` + namedValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{tool(m[1], m[2], false)} }},
	{mustPattern(`(?:^|[.;:!?]\s+|\b(?:[Oo]ur|[Tt]he|[Aa]ll(?: of)? our) )` + role + ` (?:runs?|(?:is|are) (?:running|hosted|deployed)) on (?:the )?` + namedValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{toolOrVersion(m[1], m[2], false)} }},
	// "For the database we go with MySQL".
	{mustPattern(`\b(?i:for) (?:the |our )` + role + `,? [Ww]e` + claimAdverbs + ` (?:go|will go|'ll go|went|are going|decided to go) with ` + namedValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{tool(m[1], m[2], false)} }},
	{mustPattern(`\b[Oo]ur (?:main |current )?` + role + ` (?:is|are) (?:still )?` + namedValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{tool(m[1], m[2], false)} }},
	{mustPattern(teamStart + `(?i:the) ` + toolKind + ` (?:is|are) (?:still )?` + namedValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{tool(m[1], m[2], false)} }},
	// Who owns what: "Priya owns the billing service", "Lena owns PAY-150", "the billing
	// service is owned by Priya". "Now" says the owner is new ("Ana now owns the billing
	// migration"), and the one it names off it the owner before ("…, Tom is off it").
	{mustPattern(`\b([\p{Lu}][\p{L}\-]+)` + claimAdverbs + ` (?:owns|will own|maintains|will maintain|is responsible for|will be responsible for|is in charge of|will be in charge of|is the owner of) ` + owned + `(?:,? (?:and |but |so )?([\p{Lu}][\p{L}\-]+) is(?: now)? off (?:it|that))?` + claimEnd),
		func(m []string) []stateClaim {
			if m[4] != "" {
				return handover(m[2]+m[3], m[4], m[1])
			}
			return []stateClaim{owner(m[2]+m[3], m[1], saysNow(m[0]))}
		}},
	{mustPattern(ownedStart + ` (?:is|are)(?: now)? (?:owned|maintained) by ([\p{Lu}][\p{L}\-]+)`),
		func(m []string) []stateClaim { return []stateClaim{owner(m[1]+m[2], m[3], saysNow(m[0]))} }},
	// "PAY-150 is now Lena's", "the billing migration is Ana's now".
	{mustPattern(ownedStart + ` (?:is|are)(?: now)? ([\p{Lu}][\p{L}\-]+)'s` + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{owner(m[1]+m[2], m[3], saysNow(m[0]))} }},
	// Who signs for a party, a role held for it as an owner holds a thing: "Jane Porter,
	// General Counsel, signs for Acme Corp", "Mark Chen now signs for Acme Corp instead",
	// "Jane Porter is the signatory for Acme Corp".
	{mustPattern(`\b((?:[\p{Lu}][\p{L}\-]+ )?[\p{Lu}][\p{L}\-]+)(?:, [^,.;:!?]{1,40},)?` + claimAdverbs + ` (?:signs|will sign|is (?:the |an? )?(?:authori[sz]ed )?signatory) (?:for|of|on behalf of) ` + claimValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{owner("signatory for "+m[2], roleOf(m[1]), false)} }},

	// What changes them. "Switch the linter to ruff", "we migrated from Postgres 14 to
	// Postgres 16", "move all our pipelines to GitLab CI": a role or the value left is named
	// (a move to somewhere else is a home: "we moved to Berlin").
	{mustPattern(`\b(?i:switch|switched|switching|migrate|migrated|migrating|move|moved|moving|change|changed)(?: (?:the|our|all(?: of)? our|all the) ` + role + `)?(?: over)?(?: from (?:the )?` + claimValue + `)? to (?:the )?` + claimValue + claimEnd),
		func(m []string) []stateClaim {
			var out []stateClaim
			if m[1] != "" {
				out = append(out, tool(m[1], m[3], true))
			}
			if m[2] != "" {
				out = append(out, replacedBy(m[2], m[3]))
			}
			return out
		}},
	// "Use Vitest instead of Jest", "go with pnpm instead of npm".
	{mustPattern(`\b(?i:use|using|go with|going with|switch to|move to|migrate to) ` + claimValue + ` instead of (?:the )?` + claimValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{replacedBy(m[2], m[1])} }},
	// "moment is deprecated here; use date-fns instead".
	{mustPattern(teamStart + `(?:(?i:the|our) )?` + role + ` (?:is|are) (?:now |officially )?deprecated(?: here| now)?(?:\s*[;,:.\-]+\s*(?:(?i:please|so|just|we|now) )?(?i:use) ` + claimValue + claimEnd + `)?`),
		func(m []string) []stateClaim { return []stateClaim{replacedBy(m[1], m[2])} }},
	// "ruff format replaces black", "Jest was replaced by Vitest".
	{mustPattern(teamStart + `(?:(?i:the|our) )?` + role + ` (?:now )?(?:replaces|has replaced|is replacing|will replace) (?:the )?` + claimValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{replacedBy(m[2], m[1])} }},
	{mustPattern(teamStart + `(?:(?i:the|our) )?` + role + ` (?:is|was|has been|got|will be) replaced (?:by|with) (?:the )?` + claimValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{replacedBy(m[1], m[2])} }},
	// "Let's … drop flake8", "stop using Heroku": an imperative; "we dropped" is an ended state already.
	{mustPattern(`(?:^|[.;:!?]\s+|\band |\b(?i:let's|let us|we should|we will|we'll) )(?i:drop|stop using|remove|ditch|retire) (?:the )?` + claimValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{replacedBy(m[1], "")} }},
	// "Back to Postgres after all, MySQL is dropped": what the team dropped, said of it.
	{mustPattern(`(?:^|[.,;:!?]\s+|\b(?:and|so|now) )` + namedValue + ` (?:is|was|has been|got|gets) (?:now |officially )?(?:dropped|scrapped|ditched|abandoned)` + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{replacedBy(m[1], "")} }},
	// A ticket's status, whoever tells it: "PAY-142 is done", "PAY-1420 is blocked on the
	// vendor API", "we reopened PAY-142".
	{mustPattern(`\b(` + ticket + `)` + claimAdverbs + ` (?:is|was|has been|got|went|moved to)` + claimAdverbs + ` (` + ticketStatus + `)\b`),
		func(m []string) []stateClaim { return []stateClaim{status(m[1], m[2])} }},
	{mustPattern(`\b(?i:(reopened|closed|shipped|merged|unblocked|finished|fixed|resolved|released|deployed|completed)) (` + ticket + `)`),
		func(m []string) []stateClaim { return []stateClaim{status(m[2], m[1])} }},
	// "Jonas took over the billing service from Priya", "Priya handed the billing service over to Jonas".
	{mustPattern(`\b([\p{Lu}][\p{L}\-]+)` + claimAdverbs + ` (?:took|takes|has taken|have taken|is taking) over (?:the |our )` + role + `(?: from ([\p{Lu}][\p{L}\-]+))?` + claimEnd),
		func(m []string) []stateClaim { return handover(m[2], m[3], m[1]) }},
	{mustPattern(`\b([\p{Lu}][\p{L}\-]+)` + claimAdverbs + ` (?:handed|hands|has handed|passed|has passed) (?:over )?(?:the |our )` + role + ` (?:over )?to ([\p{Lu}][\p{L}\-]+)`),
		func(m []string) []stateClaim { return handover(m[2], m[1], m[3]) }},
	// "The API gateway was upgraded to Node 22", "we bumped the runtime to Node 22".
	{mustPattern(teamStart + `(?:(?i:the|our) )?` + role + ` (?:was|were|has been|have been|got|is|is now|are now) (?:just |finally )?(?:upgraded|downgraded|bumped|updated|moved|migrated) to ` + versioned + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{toolOrVersion(m[1], m[2], true)} }},
	{mustPattern(`\b[Ww]e` + claimAdverbs + ` (?:upgraded|downgraded|bumped|updated) (?:(?:the|our) ` + role + ` )?to ` + versioned + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{toolOrVersion(m[1], m[2], true)} }},
	// A thing's version, said by what runs or deploys it: "the api runs v2.14.2", "the api
	// version is now 2.14.3", "Deployed api v2.14.3" (a deploy says its version is new).
	{mustPattern(`(?:^|[.;:!?]\s+|\b(?:[Oo]ur|[Tt]he) )` + role + ` (?:runs|is running) ` + versionValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{toolOrVersion(m[1], m[2], false)} }},
	{mustPattern(`(?:^|[.;:!?]\s+|\b(?:[Oo]ur|[Tt]he) )` + role + ` version (?:is|is now) (v?\d+(?:\.\d+)*)` + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{toolOrVersion(m[1], m[2], false)} }},
	{mustPattern(teamStart + `(?i:deployed|released|shipped|rolled out) (?:the )?` + role + ` ` + versionValue + claimEnd),
		func(m []string) []stateClaim { return []stateClaim{toolOrVersion(m[1], m[2], true)} }},
}

// ticket is the identifier of a piece of work a team tracks: "PAY-150", "T-4410".
const ticket = `\p{Lu}[\p{Lu}\d]*-\d+\b`

// ticketStatus is the status of a ticket: one at a time, the later replacing the earlier.
const ticketStatus = `done|closed|open|reopened|blocked|unblocked|in review|in progress|in QA|on QA|in testing|shipped|merged|fixed|resolved|released|deployed|finished|completed?`

// status is the claim that ticket's status is now value, which a later status replaces
// whoever tells it (a label's).
func status(ticket, value string) stateClaim {
	return stateClaim{subject: ticket, slot: "status", value: strings.ToLower(value), label: true}
}

// owned is what one owns, groups 1 and 2 (one of them empty): a thing the team names
// ("the billing migration", "our gateway"), or a ticket.
const owned = `(?:(?:the |our )` + role + `|(` + ticket + `))`

// ownedStart is owned opening a statement: "The billing migration …", "PAY-150 …".
const ownedStart = `(?:\b(?:[Tt]he|[Oo]ur) ` + role + `|\b(` + ticket + `))`

// saysNow: a match says that what it tells holds now, newly: "Ana now owns the billing
// migration".
func saysNow(match string) bool { return containsWord(match, "now") }

// versionValue is a version as a thing's is written, not any number: "v2.14.3", "2.14.3",
// "version 3".
const versionValue = `(v\d+(?:\.\d+)*|\d+(?:\.\d+)+|version \d+(?:\.\d+)*)`

// reBareVersion is a version of no product named: "v2.14.3", not "Node 22".
var reBareVersion = regexp.MustCompile(`^(?:v|version )?\d+(?:\.\d+)*$`)

// toolOrVersion is tool's claim, or, when value is a version alone, the claim of the
// version of what roleWords name: one version of "api" replaces another, not what the
// api runs on ("Node 22").
func toolOrVersion(roleWords, value string, cued bool) stateClaim {
	c := tool(roleWords, value, cued)
	if reBareVersion.MatchString(value) {
		c.slot = "version"
	}
	return c
}

// owner is the claim that person owns thing: the thing is the subject, so that a change of
// owner is a change of its value whoever tells it.
func owner(thing, person string, cued bool) stateClaim {
	return stateClaim{subject: roleOf(thing), slot: "owner", value: person, cued: cued}
}

// handover: thing's owner is now to, and no longer from when the text names from.
func handover(thing, from, to string) []stateClaim {
	out := []stateClaim{owner(thing, to, true)}
	if from != "" && !strings.EqualFold(from, to) {
		ended := owner(thing, from, true)
		ended.ended = true
		out = append(out, ended)
	}
	return out
}

// teamClaims are the claims of a team's decisions in a (pronoun-rewritten) text.
func teamClaims(text string) []stateClaim {
	var out []stateClaim
	for _, p := range teamPatterns {
		for _, m := range p.re.findAll(text) {
			out = append(out, p.claim(m)...)
		}
	}
	return out
}

// roleOf is a role as written, without the words that open it ("the", "all our").
func roleOf(s string) string {
	f := strings.Fields(s)
	for len(f) > 0 && roleOpeners[strings.ToLower(f[0])] {
		f = f[1:]
	}
	return strings.Join(f, " ")
}

var roleOpeners = setOf(`the our all of`)

// sameRole: two tool claims do the same thing when their roles share a word, one
// word the start of the other ("lint", "linter"; "pipeline", "pipelines"), or, whatever
// their roles, they name two versions of one product ("Node 20", "Node 22"). Two claims
// of no role (any claim but a team's tool) are of one role. Versions are of one thing only
// when they name it alike.
func sameRole(a, b stateClaim) bool {
	if strings.EqualFold(a.role, b.role) || sameProduct(a.value, b.value) {
		return true
	}
	if a.slot == "version" {
		return false // "billing service" and "search service" version apart
	}
	for _, x := range strings.Fields(strings.ToLower(a.role)) {
		for _, y := range strings.Fields(strings.ToLower(b.role)) {
			if len(x) >= 4 && len(y) >= 4 && (strings.HasPrefix(x, y) || strings.HasPrefix(y, x)) {
				return true
			}
		}
	}
	return false
}

// reVersion is a product and its version: "Node 20", "Postgres 14.2".
var reVersion = regexp.MustCompile(`^(\p{L}[\w+\-]*) v?(\d+(?:\.\d+)*)$`)

// sameVersion: two values that are versions (of no product named, or of one: "v2.14",
// "Node 22") are the same when they name one product and the same numbers, a missing
// number read as 0: "2.14" is "v2.14.0", not "2.14.1", whose words hold it. ok is false
// when either is no version.
func sameVersion(a, b string) (same, ok bool) {
	pa, na, okA := versionOf(a)
	pb, nb, okB := versionOf(b)
	if !okA || !okB {
		return false, false
	}
	for len(na) < len(nb) {
		na = append(na, 0)
	}
	for len(nb) < len(na) {
		nb = append(nb, 0)
	}
	return strings.EqualFold(pa, pb) && slices.Equal(na, nb), true
}

// versionOf is a value's product ("" for a version alone) and its version's numbers.
func versionOf(v string) (product string, numbers []int, ok bool) {
	v = strings.TrimSpace(v)
	if m := reVersion.FindStringSubmatch(v); m != nil && !strings.EqualFold(m[1], "version") {
		product, v = m[1], m[2]
	} else if !reBareVersion.MatchString(v) {
		return "", nil, false
	}
	for _, f := range strings.Split(strings.TrimLeft(strings.TrimPrefix(v, "version "), "v"), ".") {
		n, err := strconv.Atoi(f)
		if err != nil {
			return "", nil, false
		}
		numbers = append(numbers, n)
	}
	return product, numbers, true
}

// sameProduct: two versions of one product.
func sameProduct(a, b string) bool {
	ma, mb := reVersion.FindStringSubmatch(strings.TrimSpace(a)), reVersion.FindStringSubmatch(strings.TrimSpace(b))
	return ma != nil && mb != nil && strings.EqualFold(ma[1], mb[1])
}
