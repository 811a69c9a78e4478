package offline

import (
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/internal/text"
)

// Entities (OFFLINE.md, "Extract", 12): what a capitalised name found in a turn is taken
// for. Without a model, the category comes from the words around the name: the cues
// below tell a person, a product or a place. A name with no cue at all stays a person
// (one word) or a concept (several), as people are most of the names a conversation
// holds. An identifier is a name of its own, and a speaker may tell their own name.

// reIdentifier: an identifier said in prose, such as a ticket, an order or an error code:
// a capital letter, then letters and digits joined by "-" or "_" ("T-4410", "INV-2291",
// "ERR_PNPM_UNSUPPORTED_ENGINE", "GPT-4"), or capitals joined to digits ("INV2291",
// "A320"). identifierSpans keeps those holding a digit or an underscore: "Jean-Luc" and
// "Wi-Fi" are words.
var reIdentifier = regexp.MustCompile(`\p{Lu}[\p{L}\p{N}]*(?:[-_][\p{L}\p{N}]+)+|\p{Lu}+\p{N}[\p{Lu}\p{N}]*`)

// identifierSpans are the identifiers of text. An identifier is one entity, named as
// written: its parts are no names ("T" of "T-4410" is no person), and every memory that
// names "T-4410" mentions that entity, so that a question about the ticket reaches all
// of them through it.
func identifierSpans(text string) []segment {
	var out []segment
	for _, ix := range reIdentifier.FindAllStringIndex(text, -1) {
		tok := text[ix[0]:ix[1]]
		if !strings.ContainsAny(tok, "0123456789_") || joinedToWord(text, ix[0], ix[1]) {
			continue
		}
		out = append(out, segment{ix[0], ix[1]})
	}
	return out
}

// joinedToWord: the match at [start, end) is part of a longer word ("pre-T-4410", "xA320").
func joinedToWord(text string, start, end int) bool {
	before, _ := utf8.DecodeLastRuneInString(text[:start])
	after, _ := utf8.DecodeRuneInString(text[end:])
	return isWordRune(before) || before == '-' || before == '_' || isWordRune(after)
}

// identifierAt is the identifier of ids starting at pos, if any.
func identifierAt(ids []segment, pos int) (segment, bool) {
	for _, s := range ids {
		if s.start == pos {
			return s, true
		}
	}
	return segment{}, false
}

// languages are names of languages (and so of nationalities): concepts, not people,
// wherever they stand ("learning Portuguese", "a class in Spanish").
var languages = setOf(`english spanish french german italian portuguese dutch swedish norwegian danish finnish
icelandic polish czech slovak hungarian romanian bulgarian greek turkish russian ukrainian arabic hebrew persian
farsi urdu hindi bengali punjabi tamil chinese mandarin cantonese japanese korean vietnamese thai indonesian
malay filipino tagalog swahili latin catalan basque irish welsh gaelic`)

// products are software, services, devices and payment brands that conversations name
// like people ("we moved the queue to Kafka", "I paid with Visa", "posted on Instagram"):
// concepts wherever they stand. Names as often a person's or a place's (Ruby, Swift,
// Amazon) are left out. The list is short: the words around a name tell most others
// (productCued: "my Deezer account", "ordered via Deliveroo", "paid with Monzo").
var products = setOf(`postgres postgresql mysql sqlite redis kafka rabbitmq mongodb elasticsearch cassandra
dynamodb bigquery snowflake go golang python java javascript typescript rust kotlin php perl elixir haskell
node nodejs deno react vue angular svelte django flask rails laravel nextjs docker kubernetes terraform
ansible jenkins heroku vercel netlify aws azure gcp cloudflare linux ubuntu debian windows macos ios android
github gitlab bitbucket osf zenodo figshare arxiv pubmed jira confluence slack notion figma zoom webpack vite jest vitest pytest npm pnpm yarn
nginx graphql sentry datadog grafana prometheus stripe paypal visa mastercard amex venmo excel google microsoft
netflix spotify uber airbnb instagram facebook tiktok youtube whatsapp twitter reddit linkedin discord twitch
hulu audible kindle etsy ebay duolingo snapchat revolut iphone ipad macbook playstation xbox nintendo`)

// productNouns next to a name make it a product: "the Pro plan", "my Visa card", "plan
// Basic", "version Plus", "a Monzo account", "the Deliveroo app". In a clause that speaks
// of one, a name moved to or from is a plan too: "I'm on the Basic plan and want to move
// to Plus".
var productNouns = setOf(`plan plans tier tiers subscription subscriptions card cards version versions edition
license licence membership bundle package account accounts app apps`)

// serviceVerbs are what one does on a service: a name after "on", with one of them
// before it in its clause, is a product ("I listen to audiobooks on Deezer", "I'm
// learning German on Duolingo"; "I relied on Jon" is a person); a name after "via" is
// one anyway ("found it via Craigslist"). payVerbs right before
// "with" make the name a means of payment ("paid with Monzo"), but no other verb does:
// "I watched it with Jon" is company.
var serviceVerbs = setOf(`listen listens listened listening watch watches watched watching stream streams
streamed streaming order orders ordered ordering booked booking buy buys bought buying shop shops shopped
shopping download downloads downloaded downloading post posts posted posting pay pays paid paying learn
learns learned learnt learning practise practises practised practising practice practices practiced
practicing play plays played playing read reads reading`)

var payVerbs = setOf(`pay pays paid paying`)

// usingVerbs before a name make it a product: "we use Postgres", "installed Docker". Followed
// by a preposition they do so too ("deployed on Heroku", "migrated to Postgres", "upgrade
// to Pro"), where the preposition alone would make a place. Not "host": "we hosted Sarah".
var usingVerbs = setOf(`use uses using install installed installing deploy deploys deployed deploying migrate
migrates migrated migrating upgrade upgrades upgraded upgrading downgrade downgrades downgraded downgrading
switch switches switched switching configure configured`)

// usingPrepositions join a verb of use to the product: "deployed on Heroku".
var usingPrepositions = setOf(`on to in onto from`)

// writtenVerbs before "in" make a language of code: "written in Zig" (not "written to
// Maria").
var writtenVerbs = setOf(`written write writes writing rewrite rewrites rewrote rewritten rewriting coded`)

// codeLanguages are programming languages named as often as a person or a place
// ("Swift", "Ruby", "Julia"): languages of code only next to code, after "in" in a
// clause with a word of code ("we rewrote the app in Swift") or before "code" ("my Ruby
// code"). Unambiguous ones (Go, Rust, Python…) are products.
var codeLanguages = setOf(`swift ruby julia dart elm crystal scala lua`)

// testWords tell a clause speaks of a software's tests: the name a place preposition
// opens there is a tool, no place ("moved the e2e tests to Playwright").
var testWords = setOf(`e2e tests testing`)

// codeWords tell a clause speaks of code, as writtenVerbs do.
var codeWords = setOf(`code coding program programs programming programmer developer developers backend
frontend library script scripts wrote`)

// codeCued: the one-word name ws[i] is a language of code by the words around it
// (codeLanguages).
func codeCued(text string, ws []wordSpan, i int) bool {
	if i+1 < len(ws) && ws[i+1].lower == "code" {
		return true
	}
	c := clauseAt(text, ws[i].start)
	return i > 0 && ws[i-1].lower == "in" && (clauseHas(ws, c, codeWords) || clauseHas(ws, c, writtenVerbs))
}

// placePrepositions before a name make it a place.
var placePrepositions = setOf(`in at from to near visited visit visiting around across into à`)

// objectToVerbs take "to" before what is heard or belonged to, not before where one goes:
// "listen to Adele", "belongs to Ana" name no place. Verbs of talking ("talked to Sam")
// name a person before a place is considered (talkVerbs, personCued).
var objectToVerbs = setOf(`listen listens listened listening reply replies replied replying respond responds responded responding belong belongs belonged belonging`)

// placeCued: a place preposition before the name ws[i], not the "to" of objectToVerbs.
func placeCued(ws []wordSpan, i int) bool {
	return i > 0 && placePrepositions[ws[i-1].lower] && !(i > 1 && ws[i-1].lower == "to" && objectToVerbs[ws[i-2].lower])
}

// Organisations are named as brands and as the other party of a business deal: a name
// before a dealNoun ("the Nike deal", "the Nike and Gatorade deals"), after one and
// with, from or by ("a deal with Nike", "a sponsorship from Gatorade"; the noun "deal"
// after a determiner: "I had to deal with Jon" is the verb), after sponsored, endorsed
// or funded by ("sponsored by Gatorade"), after with or signed and before about, for or on
// and a dealNoun ("in talks with Gatorade about a potential sponsorship", "signed up Nike
// for a shoe deal"), or after a word for organisations, right before it or with like,
// such as or including between ("brands like Nike", "the company Acme").
var (
	dealNouns     = setOf(`deal deals sponsorship sponsorships endorsement endorsements contract contracts partnership partnerships`)
	dealParties   = setOf(`with from by`)
	backedVerbs   = setOf(`sponsored endorsed funded`)
	orgKinds      = setOf(`brand brands company companies firm firms label labels sponsors`)
	dealOpeners   = setOf(`a an my our his her their your those these some several`)
	exampleMarker = setOf(`like including`)
	signVerbs     = setOf(`sign signs signed signing`)
	dealTopics    = setOf(`about for on`)
)

// orgCued: the name ws[i..j] is an organisation's by the words around it (dealNouns…).
func orgCued(ws []wordSpan, i, j int) bool {
	if strings.HasSuffix(ws[j].lower, "'s") {
		// "Jon's contract": a person's, more often than not; "Acme's counsel", "Globex's
		// CFO": a post is a firm's, unless a common first name owns it ("Anna's manager").
		return postWithin(ws, j+1) && !firstNames[strings.TrimSuffix(ws[i].lower, "'s")]
	}
	k := j + 1
	if k+1 < len(ws) && coordinators[ws[k].lower] && isNameWord(ws[k+1]) {
		k += 2 // "the Nike and Gatorade deals"
	}
	if k < len(ws) && dealNouns[ws[k].lower] {
		return true
	}
	if i >= 2 && dealParties[ws[i-1].lower] && (dealNouns[ws[i-2].lower] && dealNounAt(ws, i-2) || ws[i-1].lower == "by" && backedVerbs[ws[i-2].lower]) {
		return true
	}
	switch {
	case i >= 1 && (ws[i-1].lower == "with" || signVerbs[ws[i-1].lower] || i >= 2 && ws[i-1].lower == "up" && signVerbs[ws[i-2].lower]) && dealAfter(ws, j):
		return true
	case i >= 1 && orgKinds[ws[i-1].lower]:
		return true
	case i >= 2 && exampleMarker[ws[i-1].lower] && orgKinds[ws[i-2].lower]:
		return true
	case i >= 3 && ws[i-1].lower == "as" && ws[i-2].lower == "such" && orgKinds[ws[i-3].lower]:
		return true
	}
	return false
}

// dealAfter: the name ending at ws[j] is followed by about, for or on, then a dealNoun
// within five words ("about a potential sponsorship", "for a basketball shoe and gear deal").
func dealAfter(ws []wordSpan, j int) bool {
	if j+1 >= len(ws) || !dealTopics[ws[j+1].lower] {
		return false
	}
	for k := j + 2; k < len(ws) && k <= j+7; k++ {
		if dealNouns[ws[k].lower] {
			return true
		}
	}
	return false
}

// dealNounAt: ws[k], one of dealNouns, is a noun: a determiner among the three words before
// "deal" or "deals" ("a deal", "a big shoe deal", "those deals"), which are verbs too.
func dealNounAt(ws []wordSpan, k int) bool {
	if ws[k].lower != "deal" && ws[k].lower != "deals" {
		return true
	}
	for b := k - 1; b >= 0 && b >= k-3; b-- {
		if dealOpeners[ws[b].lower] {
			return true
		}
	}
	return false
}

// relationNouns before a name make it a person ("my sister Ana", "our neighbour Tom
// Baker"), and so do speech verbs after it ("Ana said").
var relationNouns = setOf(`sister brother mom dad mother father son daughter wife husband friend partner boyfriend
girlfriend fiance fiancé fiancee fiancée cousin aunt uncle grandma grandpa grandmother grandfather niece nephew
colleague coworker boss manager neighbor neighbour teacher coach roommate`)

var speechVerbs = setOf(`said says told tells asked asks replied wrote texted`)

var possessives = setOf(`my our your their`)

// determiners may stand between a verb and the name it governs: "use the Pro".
var determiners = setOf(`the a an my our your their his her`)

// guessCategory is the category of the name ws[i..j] of text that is not known to be a
// person's (OFFLINE.md, "Extract", 12), the first cue that applies: an organisation (by
// its cues or its name's ending), a person cue, a language, a product, a place (by its
// preposition, or a known one), an acronym, a name coordinated with one of those, else a
// person for one word and a concept for several.
func guessCategory(text string, ws []wordSpan, i, j int) string {
	name := text[ws[i].start:ws[j].end]
	name = strings.TrimSuffix(strings.TrimSuffix(name, "'s"), "’s")
	lower := strings.ToLower(name)
	switch {
	case i < j && titles[ws[i].lower]:
		return "person"
	case i < j && companySuffixes[ws[j].lower]:
		return "concept"
	case hyphenAfter(text, ws, i) && j+1 < len(ws) && routeNouns[ws[j+1].lower]:
		return "concept"
	case i == j && (places[ws[i].lower] || placesAlsoNames[ws[i].lower]) && j+1 < len(ws) && travelNouns[ws[j+1].lower]:
		return "place" // "the Paris trip", "our Rome flight", "the London office"
	case animalOf(text, ws, i, j) != "":
		return "object"
	case orgCued(ws, i, j) || orgNamed(ws[j].lower): // before personCued: "in talks with Gatorade about a sponsorship"
		return "concept"
	case personCued(text, ws, i, j):
		return "person"
	case !slices.ContainsFunc(strings.Split(lower, "-"), func(l string) bool { return !languages[l] }):
		return "concept" // "German", "English-German"
	case i == j && !places[lower] && !placesAlsoNames[lower] && citedAfter(text, ws, j):
		return "person" // "Garcia & Lee (2019)": authors, also after "from"
	case i == j && products[lower], productCued(text, ws, i, j), i == j && codeLanguages[lower] && codeCued(text, ws, i):
		return "concept"
	case firstNames[ws[i].lower] && j <= i+1: // "sent it to Vera"; "in Julia" of code is the language
		return "person"
	case placeCued(ws, i) || i == j && places[lower]:
		return "place"
	case isAcronym(name):
		return "concept"
	}
	if c := coordinatedCategory(text, ws, i, j); c != "" {
		return c
	}
	// A capitalised "The" opens a title, a team or a firm, not a person's name: "three
	// episodes of The Bear", "The Wolves". A hyphenated name is one word: "Anne-Marie".
	if !strings.Contains(name, " ") && !(i > 0 && ws[i-1].text == "The") && !reCodeWord.MatchString(name) {
		return "person"
	}
	return "concept"
}

// citedAfter: the name ending at ws[j] is an author's, as a citation writes it: "et al."
// after it, a year ("Okafor 2016", "Lee (2019)", a table's "| Okafor | 2016 |" in a column
// of authors), a reference's number ("Okafor [13]") or an initial ("Smith, J.", "Okafor,
// A.") right after it, or another author's after "&" or "and" ("Garcia & Lee (2019)"). An acronym before a
// year is no author: "WMT 2014".
func citedAfter(text string, ws []wordSpan, j int) bool {
	if j+1 >= len(ws) || isAcronym(ws[j].text) {
		return false
	}
	next, between := ws[j+1], text[ws[j].end:ws[j+1].start]
	gap := strings.Trim(between, " ,(|")
	switch {
	case next.lower == "et" && j+2 < len(ws) && ws[j+2].lower == "al":
		return true
	case gap == "" && isYear(next.text):
		return !strings.Contains(between, "|") || inAuthorColumn(text, ws[j].start)
	case gap == "[" && strings.HasPrefix(text[next.end:], "]") && strings.Trim(next.text, "0123456789") == "":
		return true
	case gap == "" && utf8.RuneCountInString(next.text) == 1 && isCapitalised(next) && strings.HasPrefix(text[next.end:], "."):
		return true
	case (gap == "&" || gap == "and") && isNameWord(next):
		return citedAfter(text, ws, j+1)
	}
	return false
}

// authorHeaders head a table's column of cited works: "| Study | Year |", "| Author(s) |".
var authorHeaders = setOf(`study studies author authors reference references source sources citation citations
paper papers work works`)

// inAuthorColumn: the table cell at pos is in a column of authors, as its header row says
// (authorHeaders, tableHeader): "| Okafor | 2016 |" under "| Study | Year |" cites Okafor,
// "| Pilot | 2024 |" under "| Phase | Year |" no one.
func inAuthorColumn(text string, pos int) bool {
	row := strings.LastIndex(text[:pos], "\n") + 1
	head, _, _ := strings.Cut(tableHeader(text, row), "\n")
	cells, col := strings.Split(head, "|"), strings.Count(text[row:pos], "|")
	if col >= len(cells) {
		return false
	}
	words := wordsOf(cells[col])
	return len(words) > 0 && authorHeaders[words[0].lower]
}

// isInitials: w is a person's initials, as a reference writes them after her name: up to
// three capitals, then a full stop or a comma ("Okafor A.", "Smith JA, Cho H.").
func isInitials(text string, w wordSpan) bool {
	return utf8.RuneCountInString(w.text) <= 3 && strings.ToUpper(w.text) == w.text && isCapitalised(w) &&
		(strings.HasPrefix(text[w.end:], ".") || strings.HasPrefix(text[w.end:], ","))
}

// isYear: w is a year a work is cited with, 1500 to 2099.
func isYear(w string) bool {
	n, err := strconv.Atoi(w)
	return err == nil && len(w) == 4 && n >= 1500 && n < 2100
}

// monthAbbreviations name a month beside a day or a year ("accessed 3 Dec", "Sep 2024"),
// not a person; "Jan" alone may be one.
var monthAbbreviations = setOf(`jan feb mar apr jun jul aug sep sept oct nov dec`)

// labels name a part of a document by its number ("see Table 2", "Figure 3b", "page 9",
// a contract's "Amendment 2" and "Clause 4.3"), nothing of their own.
var labels = setOf(`table tables figure figures fig page pages section sections chapter appendix equation eq supplement
amendment amendments clause clauses article articles exhibit annex paragraph`)

// partyRoles are the parties of a contract as it names them ("the Licensor shall
// indemnify the Licensee"): roles, not persons.
var partyRoles = setOf(`licensor licensee lessor lessee assignor assignee guarantor borrower lender purchaser
contractor subcontractor`)

// isDateOrLabel: ws[i] is a month's abbreviation beside a number, or a label before one
// (monthAbbreviations, labels): "3 Dec", "Table 2", "Table S3".
func isDateOrLabel(ws []wordSpan, i int) bool {
	hasDigit := func(k int) bool { return k >= 0 && k < len(ws) && strings.ContainsFunc(ws[k].text, unicode.IsDigit) }
	return monthAbbreviations[ws[i].lower] && (hasDigit(i-1) || hasDigit(i+1)) || labels[ws[i].lower] && hasDigit(i+1)
}

// termAcronyms are the acronyms of common business and tech terms ("the SOC 2 report",
// "KPIs", "an SLA", "ETA Friday"): words of the trade, which any account or project may
// speak of, no entity of their own. Those of products and firms (IBM, AWS) stand where an
// organisation stands and stay names; so do a feature a deal asks for ("He wants SSO with
// Okta"): SSO and MFA are what an account is told by.
var termAcronyms = setOf(`soc kpi sla slo eta roi faq api sdk cli crm erp poc rfp rfq rfi nda msa sow qbr okr
eod eow eom eoq eoy asap fyi tbd tba arr mrr csv pdf url html css json xml sql vpn dns cpu gpu ram
ssd usb http https hr pr qa ux ui smb sme mvp pto ooo wfh pin vat ipo sku`)

// isTermAcronym: w is one of termAcronyms in capitals, also in the plural ("KPIs").
func isTermAcronym(w wordSpan) bool {
	t := strings.TrimSuffix(w.text, "s")
	return isAcronym(t) && termAcronyms[strings.ToLower(t)]
}

// isAcronym: w is written in capitals, more than one letter ("SSO", "AWS").
func isAcronym(w string) bool { return strings.ToUpper(w) == w && len(w) > 1 }

// reCodeWord: one word written as code is, not as a name: letters and digits together
// ("Neo4j"), a capital inside it after four small letters or more ("DeadlockDetected",
// "JavaScript"), or an error's name ("KeyError"). A name puts its inner capital after a
// short particle: "McDonald", "DeShawn", "LeBron", "MacKenzie" stay persons.
var reCodeWord = regexp.MustCompile(`^\p{L}+\p{N}|\p{Ll}{4}\p{Lu}|\p{Ll}(?:Error|Exception)$`)

// personCued: a relation noun or "met" before the name or told right after it ("Kat (my
// sister)"), a speech verb after it, a post after it and a comma ("Raj Patel, VP
// Engineering at Initech"), a verb of talking and "to" or "with" before it ("talked to
// Kat": the "to" makes no place), or the name owning something people keep or lead
// (ownsHeld).
func personCued(text string, ws []wordSpan, i, j int) bool {
	return i > 0 && (relationNouns[ws[i-1].lower] || ws[i-1].lower == "met") || kinOf(text, ws, i, j) != "" ||
		j+1 < len(ws) && speechVerbs[ws[j+1].lower] || ownsHeld(ws, j) || titledAfter(text, ws, j) ||
		i >= 2 && (ws[i-1].lower == "to" || ws[i-1].lower == "with") && talkVerbs[verbBefore(ws, i-1)]
}

// firstNames are common given names: a name of one or two words opening with one is a
// person's wherever it stands, also where a place's preposition would make a place ("sent
// it to Vera") and at a sentence's start ("Anna Kim moved to Globex", "Raj was promoted"),
// where other names are not taken for want of telling them from a capitalised word. Names
// as often a word (Will, Mark, Grace, May) or a place (Paris, Florence) are left out.
var firstNames = setOf(`james john robert michael william david richard joseph thomas charles christopher daniel
matthew anthony steven paul andrew joshua kenneth kevin brian george timothy ronald edward jason jeffrey ryan
jacob gary nicholas eric jonathan stephen larry justin scott brandon benjamin samuel gregory alexander patrick
raymond jack dennis jerry tyler aaron jose adam nathan henry peter zachary douglas kyle noah ethan jeremy
christian walter keith roger terry sean carl arthur lawrence dylan jesse bryan billy joe bruce
gabriel logan albert willie alan juan wayne elijah randy roy vincent ralph eugene russell bobby mason philip
louis bob tom tim jim jon dan dave mike steve nick sam ben matt chris alex tony greg liam oliver lucas hugo
theo felix oscar emil lukas jonas mateo diego carlos pedro marco bruno andre victor ivan omar ahmed tariq kofi
kenji nikhil raj arjun rahul ravi amit vikram sanjay wei li chen hiroshi takeshi yuki mary patricia jennifer
linda elizabeth barbara susan jessica sarah karen lisa nancy betty margaret sandra ashley kimberly emily donna
michelle carol amanda dorothy melissa deborah stephanie rebecca sharon laura cynthia kathleen amy angela
shirley anna brenda pamela emma nicole helen samantha katherine christine debra rachel carolyn janet
catherine maria heather diane ruth julie olivia joyce virginia kelly lauren christina joan evelyn
judith megan andrea cheryl hannah jacqueline martha gloria teresa ann sara madison frances kathryn janice
jean abigail alice julia judy sophia isabella denise amber doris marilyn danielle beverly natalie
theresa diana brittany kayla alexis lori caroline melanie mel kate katie jane lily chloe clara elena sofia
nora leah lena maya mei zoe iris ingrid paula rosa aisha fatima priya anjali neha sunita yumi akiko ana
lucia carmen isabel marta ines vera dara`)

// jobTitles are the words of a post: a name opening or ending with one is a post, no
// entity of its own ("CFO", "VP Engineering", "Head of IT", "IT Director", "General
// Counsel"), and one after a name and a comma tells a person ("Raj Patel, VP Engineering at
// Initech"), one after a firm's possessive the firm ("Acme's counsel", orgCued).
var jobTitles = setOf(`ceo cto cfo coo cio ciso cmo cpo cro vp svp evp director head manager lead chief
president founder cofounder co-founder counsel attorney solicitor barrister paralegal notary secretary treasurer`)

// isPost: the name ws[i..j] opens or ends with a word of a post (jobTitles).
func isPost(ws []wordSpan, i, j int) bool { return jobTitles[ws[i].lower] || jobTitles[ws[j].lower] }

// titledAfter: a comma follows the name ending at ws[j], then a post within two words
// ("Tom Becker, Head of IT", "Vera Okafor, the CFO").
func titledAfter(text string, ws []wordSpan, j int) bool {
	return j+1 < len(ws) && strings.Contains(text[ws[j].end:ws[j+1].start], ",") && postWithin(ws, j+1)
}

// postWithin: one of ws[k] and ws[k+1] is a word of a post (jobTitles): "the CFO", "general
// counsel".
func postWithin(ws []wordSpan, k int) bool {
	for end := k + 1; k < len(ws) && k <= end; k++ {
		if jobTitles[ws[k].lower] {
			return true
		}
	}
	return false
}

// talkVerbs are said to or with someone: "I talked to Katie", "spoke with Dan".
var talkVerbs = setOf(`talk talks talked talking speak speaks spoke speaking chat chats chatted chatting said say says
wrote write writes replied reply explained explain mentioned mention complained complain apologized apologised`)

// routeNouns after a hyphenated name make it a route between two places, not a person:
// "the Berlin-Paris train", "a London-Edinburgh flight".
var routeNouns = setOf(`route routes train trains flight flights line trip ride drive journey bus coach ferry road
highway motorway railway rail connection leg`)

// travelNouns after a known place make it the place ("the Paris trip", "our Rome flight",
// "the London office"), not a person, nor a thing owned ("our Berlin store").
var travelNouns = setOf(`trip trips travel flight flights office offices hotel hotels vacation holiday`)

// titles open a person's name, of which they are part: "Dr. Patel", "Mrs Lee".
var titles = setOf(`dr mr mrs ms prof`)

// placeTitles open a place's name, of which they are part: "St. Louis", "Mt. Fuji".
var placeTitles = setOf(`st mt`)

// opensName: ws[k] is a title of a person or a place, part of the name it opens.
func opensName(ws []wordSpan, k int) bool { return titles[ws[k].lower] || placeTitles[ws[k].lower] }

// companySuffixes close a firm's name, of which they are part: "Hartwell & Co.", "Acme
// Inc.". A firm is a concept.
var companySuffixes = setOf(`co inc ltd llc corp plc gmbh`)

// orgEndings end the last word of an institution's name, a word of its own ("Mercy
// Hospital", "Stanford University") or joined to the rest in German
// ("Universitätsspital", "Kantonsspital", "Humboldt-Universität"): an organisation,
// a concept, never a person.
var orgEndings = []string{"spital", "klinik", "klinikum", "universität", "hochschule", "hospital",
	"university", "clinic", "college", "institute", "academy"}

// orgNamed: the word w (lowercased) ends as an institution's name does (orgEndings).
func orgNamed(w string) bool {
	w = strings.TrimSuffix(w, "'s")
	return slices.ContainsFunc(orgEndings, func(e string) bool { return strings.HasSuffix(w, e) })
}

// places are countries and large cities: a place wherever no cue tells otherwise ("my
// home country, Sweden", "the Rome flight", "What do you love about Seattle?"), not a
// person for want of a cue. Names as often a person's (Paris, Sydney, Austin, Florence,
// Jordan, Georgia…) are left out (placesAlsoNames): the words around them tell.
var places = setOf(`rome berlin london madrid lisbon porto barcelona milan naples venice vienna prague
budapest warsaw krakow amsterdam brussels copenhagen stockholm oslo helsinki dublin edinburgh glasgow
zurich geneva munich hamburg frankfurt cologne athens istanbul moscow kyiv tokyo osaka kyoto beijing
shanghai seoul bangkok singapore hanoi manila jakarta bali delhi mumbai dubai cairo marrakech nairobi
lagos johannesburg toronto vancouver montreal chicago boston seattle denver miami atlanta
nashville portland philadelphia detroit hawaii alaska texas california mexico lima bogota
canada brazil argentina chile peru colombia cuba spain france germany italy portugal greece
ireland scotland england britain norway sweden finland denmark iceland poland austria switzerland
netherlands belgium croatia turkey egypt morocco kenya nigeria japan china korea vietnam thailand
indonesia australia europe asia africa`)

// placesAlsoNames are known places as often a person's name: a place only by a cue, as
// "the Paris trip" is (travelNouns).
var placesAlsoNames = setOf(`paris sydney austin florence jordan georgia dallas houston phoenix charlotte victoria`)

// namesNoPerson: the word l (lowercased) names a language, a product or a known place,
// never a person, however it stands: not the speaker's own name ("I'm German."), nor the
// subject opening a first message ("German is harder than I thought", "Rome was
// amazing").
func namesNoPerson(l string) bool { return languages[l] || products[l] || places[l] }

// joinsName: the word after ws[k] continues the name ws[k] is part of across what stands
// between them: a title's point ("Dr. Patel", "St. Louis"), a firm's "&" ("Hartwell &
// Co"), a hyphen ("Jean-Luc", "O'Connor-Smith"; the word after it is still to be a name's).
func joinsName(text string, ws []wordSpan, k int) bool {
	gap := strings.TrimSpace(text[ws[k].end:ws[k+1].start])
	return gap == "." && opensName(ws, k) || gap == "&" && companySuffixes[ws[k+1].lower] || hyphenAfter(text, ws, k)
}

// hyphenAfter: ws[k] and the word after it are joined by a hyphen, no space around it
// (" - " is a dash).
func hyphenAfter(text string, ws []wordSpan, k int) bool {
	return k+1 < len(ws) && text[ws[k].end:ws[k+1].start] == "-"
}

// calledAs is the name ws[i] opens, a title with the name after it ("Ms. Rivera", "Dr
// Chen"), joined by hyphens to the capitalised words after it ("Jean-Luc"), and the index
// of its last word.
func calledAs(text string, ws []wordSpan, i int) (string, int) {
	j := i
	if titles[ws[i].lower] && i+1 < len(ws) && isNameWord(ws[i+1]) && strings.Trim(text[ws[i].end:ws[i+1].start], ". ") == "" {
		j++
	}
	for hyphenAfter(text, ws, j) && isNameWord(ws[j+1]) {
		j++
	}
	return text[ws[i].start:ws[j].end], j
}

// hyphenParticles are the lowercase words a place's name holds between hyphens:
// "Stratford-upon-Avon", "Aix-en-Provence", "Bourton-on-the-Water", "Saint-Germain-des-Prés".
var hyphenParticles = setOf(`upon on under the sur sous en de du des la le les di da del am an im ob der`)

// pastConnectors is the index of the name word that continues the name ending at ws[j]
// past up to two connectors between spaces ("Lord of the Rings") or particles between
// hyphens ("Stratford-upon-Avon"), 0 when none does.
func pastConnectors(text string, ws []wordSpan, j int, nameWord func(int) bool) int {
	for _, c := range []struct {
		words  map[string]bool
		joined func(k int) bool // ws[k-1] and ws[k] are joined as the connectors need
	}{
		{connectorWords, func(k int) bool { return gapIsSpace(text, ws[k-1].end, ws[k].start) }},
		{hyphenParticles, func(k int) bool { return hyphenAfter(text, ws, k-1) }},
	} {
		k := j + 1
		for k < len(ws) && k <= j+2 && c.words[ws[k].lower] && c.joined(k) {
			k++
		}
		if k > j+1 && k < len(ws) && nameWord(k) && c.joined(k) {
			return k
		}
	}
	return 0
}

// kinOf is what the name ws[i..j] is to someone, as the text tells it beside the name:
// "user's sister" of "user's sister Kat", "user's big sister Kat", "Kat (user's sister)" or
// "Kat, user's sister" (the speaker's "my" rewritten); "" when it tells none. Two names
// told as one person's sister may be one person's names (integrate.go).
func kinOf(text string, ws []wordSpan, i, j int) string {
	phrase := func(owner, noun int) string {
		if owner < 0 || noun >= len(ws) || !relationNouns[ws[noun].lower] || !isOwner(ws[owner]) {
			return ""
		}
		return ws[owner].text + " " + ws[noun].text
	}
	// After the name, the relation ends a phrase: in "at Lumen, user's boss Jordan" it is
	// Jordan's.
	ended := func(noun int) bool { return noun+1 >= len(ws) || !gapIsSpace(text, ws[noun].end, ws[noun+1].start) }
	if i > 0 && relationNouns[ws[i-1].lower] {
		if r := phrase(i-2, i-1); r != "" {
			return r
		}
		return phrase(i-3, i-1) // one word between: "user's big sister"
	}
	if j+2 < len(ws) && strings.ContainsAny(text[ws[j].end:ws[j+1].start], "(,") {
		if r := phrase(j+1, j+2); r != "" && ended(j+2) {
			return r
		}
		if j+3 < len(ws) && gapIsSpace(text, ws[j+2].end, ws[j+3].start) && ended(j+3) {
			return phrase(j+1, j+3)
		}
	}
	return ""
}

// isOwner: w is someone's: "user's", "Ana's"; not "it's", "she's".
func isOwner(w wordSpan) bool {
	owner, ok := strings.CutSuffix(w.lower, "'s")
	return ok && owner != "" && !text.IsStopword(owner) && !text.IsStopword(w.lower)
}

// animals are what a pet is called: a name told with one is an animal's, an object of
// the graph, not a person ("our cat Mochi", "a puppy named Pepper", "Pepper, he's a
// beagle mix").
var animals = setOf(`cat cats kitten kitty dog dogs puppy pup doggo pet hamster rabbit bunny parrot bird budgie
goldfish fish horse pony turtle tortoise lizard gecko snake iguana ferret rat mouse chinchilla hedgehog
beagle labrador retriever poodle terrier bulldog corgi husky dachshund spaniel collie chihuahua pug tabby`)

// animalOf is the animal the name ws[i..j] is told to be, "" when none: a word for one
// right before it ("our cat Mochi"), or before "named" or "called" ("a puppy named
// Pepper"), or after it past a comma, within four words of a determiner or "he's", ending
// what is said of it ("Pepper, a beagle mix", "Pepper, he's a beagle mix", "Mochi, our old
// cat"; not "Tom, a dog lover").
func animalOf(text string, ws []wordSpan, i, j int) string {
	k := i - 1
	if k > 0 && (ws[k].lower == "named" || ws[k].lower == "called") {
		k--
	}
	if k >= 0 && animals[ws[k].lower] {
		return ws[k].lower
	}
	if j+1 >= len(ws) || !strings.Contains(text[ws[j].end:ws[j+1].start], ",") {
		return ""
	}
	for k := j + 1; k < len(ws) && k <= j+4; k++ {
		switch {
		case animals[ws[k].lower] && endsApposition(text, ws, k):
			return ws[k].lower
		case k > j+1 && !gapIsSpace(text, ws[k-1].end, ws[k].start):
			return ""
		case !appositionWords[ws[k].lower] && k == j+1:
			return ""
		}
	}
	return ""
}

// endsApposition: the animal word ws[k] ends what is said after a name, but for another
// animal word or "mix" ("a golden retriever puppy", "a beagle mix").
func endsApposition(text string, ws []wordSpan, k int) bool {
	return k+1 == len(ws) || !gapIsSpace(text, ws[k].end, ws[k+1].start) || animals[ws[k+1].lower] || ws[k+1].lower == "mix"
}

// toldOf is what text tells of name at its first mention telling something: the relation
// it is named by ("user's sister") and the animal it is ("cat").
func toldOf(text, name string) (relation, animal string) {
	ws := wordsOf(text)
	for i, w := range ws {
		if !strings.HasPrefix(text[w.start:], name) {
			continue
		}
		j := i
		for j+1 < len(ws) && ws[j].end < w.start+len(name) {
			j++
		}
		if tail := text[w.start+len(name) : max(ws[j].end, w.start+len(name))]; tail != "" && tail != "'s" && tail != "’s" {
			continue // another word that begins so: "Katherine" of "Kat"
		}
		if relation, animal = kinOf(text, ws, i, j), animalOf(text, ws, i, j); relation != "" || animal != "" {
			return relation, animal
		}
	}
	return "", ""
}

// appositionWords open what is said of a name after a comma: "Pepper, a beagle", "Pepper,
// he's a beagle".
var appositionWords = setOf(`a an the our my his her their he's she's it's he she it is`)

// heldByPeople are what a person keeps or leads, not a place: "I switched to Maria's
// class" names Maria, whom the "to" would otherwise make a place. A place owns other
// things ("London's architecture").
var heldByPeople = setOf(`class classes team group shop store office house home place party wedding studio
band club family apartment flat room`)

// ownsHeld: the name ending at ws[j] is a possessive ("Maria's") and one of heldByPeople
// follows it, at most one word between ("Maria's yoga class").
func ownsHeld(ws []wordSpan, j int) bool {
	if !strings.HasSuffix(ws[j].lower, "'s") {
		return false
	}
	for k := j + 1; k < len(ws) && k <= j+2; k++ {
		if heldByPeople[ws[k].lower] {
			return true
		}
	}
	return false
}

// productCued: a product noun next to the name, a possessive before it ("my Visa", "our
// Berlin store": a person is "my sister Ana", not "my Ana"), a verb of use before it (a
// determiner or a preposition between, "me" or "us" before the preposition), a service's
// verb and preposition before it (serviceVerbs), or a place preposition before it in a
// clause that speaks of a product or of tests ("want to move to Plus" after "the Basic
// plan", "moved the e2e tests to Playwright").
func productCued(text string, ws []wordSpan, i, j int) bool {
	if strings.HasSuffix(ws[j].lower, "'s") {
		return false // "switched to Maria's class": a person's, more often than not
	}
	if j+1 < len(ws) && productNouns[ws[j+1].lower] || i > 0 && (productNouns[ws[i-1].lower] || possessives[ws[i-1].lower] || articles[ws[i-1].lower] || ownersWord(ws[i-1])) {
		return true
	}
	k := i - 1
	if k >= 0 && determiners[ws[k].lower] {
		k--
	}
	if k >= 0 && usingVerbs[ws[k].lower] {
		return true
	}
	if k >= 1 && (usingPrepositions[ws[k].lower] && usingVerbs[verbBefore(ws, k)] || ws[k].lower == "in" && writtenVerbs[ws[k-1].lower]) {
		return true
	}
	if i >= 2 && ws[i-1].lower == "with" && payVerbs[ws[i-2].lower] {
		return true
	}
	if i > 0 && ws[i-1].lower == "via" || i >= 2 && ws[i-1].lower == "with" && isAcronym(ws[i-2].text) {
		return true // "found it via Craigslist", "SSO with Okta"
	}
	if i > 0 && ws[i-1].lower == "on" {
		c := clauseAt(text, ws[i].start)
		return slices.ContainsFunc(ws[:i-1], func(w wordSpan) bool { return c.start <= w.start && serviceVerbs[w.lower] })
	}
	if i > 0 && placePrepositions[ws[i-1].lower] {
		c := clauseAt(text, ws[i].start)
		return clauseHas(ws, c, productNouns) || clauseHas(ws, c, testWords)
	}
	return false
}

// articles before a name make it a thing's: "I carry an EpiPen".
var articles = setOf(`a an`)

// ownersWord: w is a possessive of a name or a chat role, as the rewrite writes "my"
// ("user's EpiPen", "Caroline's Visa"), not a contraction ("it's", "Her name's Coco").
func ownersWord(w wordSpan) bool {
	owner, ok := strings.CutSuffix(strings.ReplaceAll(w.lower, "’", "'"), "'s")
	return ok && owner != "" && !text.IsStopword(owner) && owner != "name" && owner != "nickname"
}

// verbBefore is the word before ws[k], or the one before that when it is "me" or "us":
// the verb of "switch me to Pro".
func verbBefore(ws []wordSpan, k int) string {
	if k >= 2 && (ws[k-1].lower == "me" || ws[k-1].lower == "us") {
		return ws[k-2].lower
	}
	return ws[k-1].lower
}

// clauseAt is the clause of text holding pos (an empty segment when none does).
func clauseAt(text string, pos int) segment {
	for _, c := range clauses(text) {
		if c.start <= pos && pos < c.end {
			return c
		}
	}
	return segment{}
}

// clauseHas: a word of the clause c is in set.
func clauseHas(ws []wordSpan, c segment, set map[string]bool) bool {
	for _, w := range ws {
		if c.start <= w.start && w.end <= c.end && set[w.lower] {
			return true
		}
	}
	return false
}

// coordinatedCategory: a one-word name joined by "and", "or" or "&" to a name before it,
// and ending the phrase, is of that name's kind when it is a place, a product or a firm:
// "from Melilla and Berlin", "Postgres and TypeScript", "move to Plus or Pro", "between
// Acme Corp and Globex". Not a person
// that goes on to do something ("moved to Lisbon and Jon stayed"), nor a name after a
// language or a place known with no preposition before it ("I miss Tokyo and Jon").
func coordinatedCategory(text string, ws []wordSpan, i, j int) string {
	if i != j || i < 2 || !coordinators[ws[i-1].lower] || !endsPhrase(text, ws, j) {
		return ""
	}
	e := i - 2
	if !isNameWord(ws[e]) || strings.HasSuffix(ws[e].lower, "'s") {
		return ""
	}
	s := e
	for s > 0 && isNameWord(ws[s-1]) && gapIsSpace(text, ws[s-1].end, ws[s].start) {
		s--
	}
	if s == e && (languages[ws[e].lower] || places[ws[e].lower] && !placeCued(ws, s)) {
		return ""
	}
	if c := guessCategory(text, ws, s, e); c == "place" || c == "concept" && (products[ws[e].lower] || productCued(text, ws, s, e) || orgCued(ws, s, e) || s < e && companySuffixes[ws[e].lower]) {
		return c
	}
	return ""
}

var coordinators = setOf(`and or &`)

// phraseEnders may follow the last name of a list: "Paris and Rome last summer".
var phraseEnders = setOf(`and or in on at for with last this next during before after`)

// endsPhrase: the word ws[j] ends the text, is followed by punctuation or by a word that
// cannot be its verb.
func endsPhrase(text string, ws []wordSpan, j int) bool {
	return j+1 == len(ws) || !gapIsSpace(text, ws[j].end, ws[j+1].start) || phraseEnders[ws[j+1].lower]
}

// The speaker telling their own name: "my name is X", "call me X" anywhere; opening the
// message, "X speaking", and after a greeting "this is X" and "X here" ("Hi, this is
// Marco"; alone, "This is Max!" shows a photo, "Same here!" agrees); "I'm X" / "I am X"
// opening the first message of a session, where it introduces oneself rather than says
// how one feels ("I'm Alice."). The name is one to three capitalised words.
var (
	reNamed       = regexp.MustCompile(`(?i:\bmy name is|\bmy name's|\bcall me)\s+(` + nameWords + `)`)
	reOpeningSelf = regexp.MustCompile(`^(?:` + greeting + `)?(` + nameWords + `)\s+(?i:speaking)\b|^` + greeting + `(?:(?i:this is)\s+(` + nameWords + `)|(` + nameWords + `)\s+(?i:here)\b)`)
	reIAm         = regexp.MustCompile(`^(?:` + greeting + `)?(?i:i'm|i’m|i am)\s+(` + nameWords + `)(?:[.,!;]|\s+(?i:and|from|with)\b|$)`)
)

const greeting = `(?i:hi|hello|hey|good (?:morning|afternoon|evening))[,!.]?\s+`

const nameWords = `\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){0,2}`

// selfIntroduction is the name the speaker gives as their own in msg, "" when none. first
// is whether msg opens the session.
func selfIntroduction(msg string, first bool) string {
	var name string
	if m := reNamed.FindStringSubmatch(msg); m != nil {
		name = m[1]
	} else if m := reOpeningSelf.FindStringSubmatch(msg); m != nil {
		name = m[1] + m[2] + m[3]
	} else if m := reIAm.FindStringSubmatch(msg); m != nil && first {
		name = m[1]
	}
	for _, w := range strings.Fields(name) {
		l := strings.ToLower(w)
		if nonName[l] || namesNoPerson(l) || text.IsStopword(l) {
			return ""
		}
	}
	return name
}

// A person named in full may be told with the name they go by: "Robert Lang (goes by
// Bob)", "Robert Lang, known as Bob", "Bob (Robert Lang)". The short name is an alias of
// the full one, not a person apart.
var (
	reGoesBy         = regexp.MustCompile(`(` + nameWords + `)\s*[(,]\s*(?i:goes by|known as|aka|a\.k\.a\.)\s+(\p{Lu}[\p{L}'’-]*)`)
	reFullInBrackets = regexp.MustCompile(`(\p{Lu}[\p{L}'’-]*)\s*\((\p{Lu}[\p{L}'’-]*(?:\s+\p{Lu}[\p{L}'’-]*){1,2})\)`)
)

// nicknames are the short names text tells persons of names go by, by full name.
func nicknames(text string, names []nameMention) map[string]string {
	full := func(name string) string { // the person of names that name, or that name ends
		for _, n := range names {
			if n.category == "person" && strings.Contains(n.name, " ") && (name == n.name || strings.HasSuffix(name, " "+n.name)) {
				return n.name
			}
		}
		return ""
	}
	out := map[string]string{}
	for _, m := range reGoesBy.FindAllStringSubmatch(text, -1) {
		if f := full(m[1]); f != "" {
			out[f] = m[2]
		}
	}
	for _, m := range reFullInBrackets.FindAllStringSubmatch(text, -1) {
		if f := full(m[2]); f == m[2] {
			out[f] = m[1]
		}
	}
	return out
}

// shortFirstNames are the one-word names of names, a person's or a place's as a name
// alone may be guessed ("talked to Tom"), that open exactly one person's full name among
// them ("Tom called. … Later: Tom Becker from Acme confirmed"): that person, said short,
// no entity apart. With two full names so opened ("Tom Becker", "Tom Ruiz") the text does
// not say which is meant, and "Tom" stays a name of its own. Across messages, integration
// joins them (opensFullName, firstNameOf).
func shortFirstNames(names []nameMention) map[string]bool {
	fulls := map[string]int{}
	for _, n := range names {
		if k := normName(n.name); n.category == "person" && strings.Contains(k, " ") {
			fulls[firstWord(k)]++
		}
	}
	out := map[string]bool{}
	for _, n := range names {
		if k := normName(n.name); (n.category == "person" || n.category == "place") && !strings.Contains(k, " ") && fulls[k] == 1 {
			out[k] = true
		}
	}
	return out
}

// calledToo is the entity e (the speaker's, or a person told with a nickname) also called
// name: an alias (an entity named so merges into it), a keyword (a question naming it finds
// it; merged into the speaker's entity of an earlier turn, the candidate adds its keywords,
// not its aliases) and words of its content.
func calledToo(e agent.Candidate, name string) agent.Candidate {
	e.Aliases = append(e.Aliases, name)
	e.Keywords = append(e.Keywords, name)
	e.Content = strings.TrimSuffix(e.Content, ".") + ", called " + name + "."
	return e
}
