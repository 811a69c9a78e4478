package bench

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"time"

	"github.com/realm-memory/realm"
)

// The synthetic spaces of the scale benchmark: one long conversation between two
// speakers, with the shape construction gives LoCoMo (conv-26: 419 observations → 498
// memories: event 49%, fact 41%, entity 6%, episode 4%; 4.75 directed edges per memory
// over six predicates): per session an episode; per turn one memory, sometimes two (the
// turn and a clause of it, joined by comprises); entities mentioned by the memories
// (instantiates), with a few popular ones and the two speakers mentioned most; similar
// memories correlated (both directions); events of a session in time order (precedes),
// the session's episode as their context (contextualizes), and a question turn linked to
// the turn that answers it (triggers, carrying the question as its description).

// ScaleSpace is a generated space: what the bulk writers store, and questions about it.
type ScaleSpace struct {
	Observations []realm.Observation
	Memories     []realm.Node
	Edges        []realm.Edge // directed; a symmetric predicate's pair comes as two edges
	Questions    []ScaleQuestion
	Summary      string
}

// ScaleQuestion is a question whose answer is the memory Target.
type ScaleQuestion struct {
	Query  string
	Target string
	Causal bool
}

// Shares of the node types and the turns per memory, from LoCoMo conv-26 (see above).
const (
	scaleEventShare   = 0.49
	scaleFactShare    = 0.41
	scaleEntityShare  = 0.06
	scaleEpisodeShare = 0.04
	scaleTurnsPerNode = 419.0 / 498.0
	scaleQuestionTurn = 0.2 // share of turns that ask the other speaker something
)

var (
	scaleSpeakers = []string{"Maya", "Tom"}
	scaleFirst    = strings.Fields(`Alice Bruno Chloe Daniel Elena Felix Grace Hugo Irene Jonas Karin Liam Mila Noah Olga Pablo Quinn Rosa Samir Tara Umar Vera Walter Xenia Yusuf Zoe
		Anna Ben Clara David Emma Frank Greta Henry Ida Jack Lena Marco Nina Oscar Petra Rafael Sofia Theo Ulla Victor Wanda Yara Adrian Bianca Carlos Dora Erik Fiona Gustav Hanna
		Ivan Julia Kofi Laura Mateo Nadia Omar Paula Ravi Sara Tomas Uma Viktor`)
	scaleLast = strings.Fields(`Moreno Berg Costa Duval Eriksen Fischer Garcia Hansen Ito Jensen Keller Larsen Meyer Novak Olsen Petrov Quist Rossi Silva Tanaka
		Ueda Vogel Weber Xu Young Zimmer Almeida Brandt Conti Dahl Engel Fontana Gallo Haas Ivanova Jovanovic Kowalski Lindgren Marino Nilsson Ortega Perez Quinn Ramos
		Schmidt Torres Urban Varga Wagner Yilmaz Zeller Abbott Becker Carter Dixon Evans Foster Gray Hughes Irwin Jordan Kelly Lopez Murphy Nash Owens Price Reid Stone Turner`)
	scaleCities    = strings.Fields(`Lisbon Berlin Paris Munich London Rome Madrid Vienna Prague Oslo Dublin Porto Seville Lyon Zurich Geneva Milan Naples Krakow Budapest Athens Helsinki Bergen Ghent Bruges Utrecht Leiden Bologna Verona Valencia Bilbao Granada Nantes Bordeaux Hamburg Cologne Dresden Leipzig Salzburg Ljubljana`)
	scalePlaceAdj  = strings.Fields(`Golden Blue Green Old New Little Grand Silver Red Quiet Sunny Hidden Corner Riverside Hilltop Harbour Maple Cedar Willow Oak`)
	scalePlaceKind = strings.Fields(`Bakery Park Museum Library Gym Studio Market Theatre Cafe Gallery Garden Pool Bookshop Cinema Pub School Hospital Beach Stadium Church`)
	scaleTopicAdj  = strings.Fields(`urban mindful modern classical competitive amateur outdoor vegan digital local community abstract traditional wild experimental`)
	scaleTopics    = strings.Fields(`gardening painting pottery running cycling photography cooking baking yoga chess climbing swimming knitting dancing singing woodworking
		birdwatching astronomy poetry surfing sailing archery fencing journaling volunteering hiking skating fishing calligraphy meditation`)
	scaleActivities = []string{"a pottery class", "a charity run", "a jazz concert", "a job interview", "a cooking workshop", "a book club meeting",
		"a birthday party", "a wedding", "a museum tour", "a football match", "a yoga retreat", "a support group meeting", "a camping trip",
		"a piano recital", "a volunteer shift", "a farmers market", "a photography walk", "a film festival", "a dance class", "a career fair",
		"a family dinner", "a hiking trip", "a language exchange", "a climbing session", "a school reunion", "a poetry reading"}
	scaleAdjectives = []string{"amazing", "exhausting", "really fun", "a bit stressful", "inspiring", "so relaxing", "unforgettable", "harder than expected", "powerful", "a great success"}
	scaleGoalTexts  = []string{"open a small bakery", "run a marathon", "learn Spanish", "become a counselor", "adopt a dog", "write a novel",
		"move to the coast", "start a podcast", "build a cabin", "travel through Asia", "finish a degree", "teach kids to paint"}
	scaleJobs    = []string{"nurse", "teacher", "software engineer", "carpenter", "chef", "librarian", "photographer", "social worker", "architect", "barista"}
	scaleThings  = []string{"book", "movie", "song", "dish", "season", "painter", "band", "city"}
	scaleValues  = []string{"Pride and Prejudice", "Spirited Away", "Clair de Lune", "mushroom risotto", "autumn", "Frida Kahlo", "the Beatles", "Kyoto", "Little Women", "pad thai"}
	scaleBenefit = []string{"feel less alone", "stay calm", "find their voice", "make friends", "heal", "stay healthy", "express themselves"}
)

// scaleEntity is an entity of the generated space.
type scaleEntity struct {
	node     int // index into Memories
	name     string
	category string // person, place or concept
	city     string // a place's city
}

// GenerateScale returns a space of n memories (n ≥ 100), deterministic for (n, seed),
// with ids prefixed by space, and questions about its event and fact memories.
func GenerateScale(space string, n int, seed uint64) ScaleSpace {
	n = max(n, 100)
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	g := &scaleGen{space: space, rng: rng}
	nEpisodes := max(1, int(math.Round(scaleEpisodeShare*float64(n))))
	nEntities := max(len(scaleSpeakers)+1, int(math.Round(scaleEntityShare*float64(n))))
	nEvidence := n - nEpisodes - nEntities // events and facts
	nEvents := int(math.Round(scaleEventShare / (scaleEventShare + scaleFactShare) * float64(nEvidence)))
	nTurns := min(nEvidence, max(1, int(math.Round(scaleTurnsPerNode*float64(n)))))

	// Entities: the speakers first, then people, places and concepts (60/25/15).
	g.entities = make([]scaleEntity, 0, nEntities)
	for _, s := range scaleSpeakers {
		g.addEntity(scaleEntity{name: s, category: "person"})
	}
	others := nEntities - len(scaleSpeakers)
	nPlaces, nConcepts := max(1, others/4), max(1, others*3/20)
	for people := range max(1, others-nPlaces-nConcepts) {
		f, l := scaleFirst[people%len(scaleFirst)], scaleLast[(people/len(scaleFirst))%len(scaleLast)]
		name := f + " " + l
		if r := people / (len(scaleFirst) * len(scaleLast)); r > 0 {
			name = fmt.Sprintf("%s %c. %s", f, 'A'+rune(r%26), l)
		}
		g.addEntity(scaleEntity{name: name, category: "person"})
	}
	for places := range nPlaces {
		a, kind := scalePlaceAdj[places%len(scalePlaceAdj)], scalePlaceKind[(places/len(scalePlaceAdj))%len(scalePlaceKind)]
		city := scaleCities[(places/(len(scalePlaceAdj)*len(scalePlaceKind))+places)%len(scaleCities)]
		g.addEntity(scaleEntity{name: a + " " + kind + " " + city, category: "place", city: city})
	}
	for concepts := range nConcepts {
		a, t := scaleTopicAdj[concepts%len(scaleTopicAdj)], scaleTopics[(concepts/len(scaleTopicAdj))%len(scaleTopics)]
		name := a + " " + t
		if r := concepts / (len(scaleTopicAdj) * len(scaleTopics)); r > 0 {
			name += fmt.Sprintf(" circle %d", r)
		}
		g.addEntity(scaleEntity{name: name, category: "concept"})
	}
	nEvidence = n - nEpisodes - len(g.entities)
	nEvents = int(math.Round(scaleEventShare / (scaleEventShare + scaleFactShare) * float64(nEvidence)))
	nTurns = min(nEvidence, nTurns)
	for _, e := range g.entities {
		switch e.category {
		case "person":
			g.people = append(g.people, e)
		case "place":
			g.places = append(g.places, e)
		default:
			g.concepts = append(g.concepts, e)
		}
	}

	// Turns per session, memories per turn: every turn yields one memory, the first
	// nEvidence − nTurns random turns a second (a clause of it).
	extra := make([]bool, nTurns)
	for _, i := range rng.Perm(nTurns)[:nEvidence-nTurns] {
		extra[i] = true
	}
	isEvent := make([]bool, nEvidence)
	for _, i := range rng.Perm(nEvidence)[:nEvents] {
		isEvent[i] = true
	}
	start := time.Date(2022, 1, 3, 10, 0, 0, 0, time.UTC)
	ev := 0
	var prevEpisode, lastQuestion int = -1, -1
	var recent []int // evidence memories of the last turns, for correlates
	for s := range nEpisodes {
		from, to := s*nTurns/nEpisodes, (s+1)*nTurns/nEpisodes
		day := start.Add(time.Duration(s)*72*time.Hour + time.Duration(rng.IntN(10))*time.Hour)
		sid := fmt.Sprintf("session_%d", s+1)
		a, b := scaleSpeakers[s%2], scaleSpeakers[1-s%2]
		episode := g.addNode(realm.Node{
			Type: realm.Episode, Name: sid,
			Content: fmt.Sprintf("Conversation between %s and %s on %s (session %s).", a, b, day.Format("2 January 2006, 3:04 pm"), sid),
		})
		if prevEpisode >= 0 {
			g.addEdge(prevEpisode, episode, realm.Precedes, 0.7, "the previous session")
		}
		prevEpisode = episode
		prevEvent, contexts := -1, 0
		for t := from; t < to; t++ {
			at := day.Add(time.Duration(t-from) * 90 * time.Second)
			speaker, other := scaleSpeakers[(t-from+s)%2], scaleSpeakers[1-(t-from+s)%2]
			obs := realm.Observation{
				ID: fmt.Sprintf("D%d:%d", s+1, t-from+1), SessionID: sid, Speaker: speaker,
				ObservedAt: at, Seq: int64(t + 1),
			}
			if t == from {
				g.mem[episode].Sources = []string{obs.ID}
				g.mem[episode].TStart, g.mem[episode].TEnd = ptr(at), ptr(day.Add(time.Duration(to-from)*90*time.Second))
			}
			question := lastQuestion < 0 && rng.Float64() < scaleQuestionTurn
			parts := 1
			if extra[t] {
				parts = 2
			}
			var turn []string
			var first int
			for p := range parts {
				m := g.evidence(isEvent[ev], speaker, other, at, question && p == 0)
				ev++
				node := &g.mem[m.node]
				node.Sources = []string{obs.ID}
				turn = append(turn, m.sentence)
				for _, e := range m.mentions {
					g.addEdge(m.node, e.node, realm.Instantiates, 0.6, "mentions "+e.name)
					g.mention(e, obs.ID)
				}
				if p == 0 {
					first = m.node
					if lastQuestion >= 0 {
						g.addEdge(lastQuestion, m.node, realm.Triggers, 0.8, g.mem[lastQuestion].Content)
						lastQuestion = -1
					}
					if m.question {
						lastQuestion = m.node
					}
				} else {
					g.addEdge(first, m.node, realm.Comprises, 0.9, "the whole turn comprises this clause")
				}
				if node.Type == realm.Event {
					if prevEvent >= 0 {
						g.addEdge(prevEvent, m.node, realm.Precedes, 0.7, "happened before")
					}
					prevEvent = m.node
					if contexts < 6 {
						g.addEdge(episode, m.node, realm.Contextualizes, 0.6, "session "+sid+" is the context of this")
						contexts++
					}
				}
				// Similar content: a memory sharing an entity, else a recent one.
				if rng.Float64() < 0.92 {
					j := g.similar(m, recent)
					if j >= 0 && j != m.node && !g.linked(j, m.node) {
						w := 0.5 + 0.4*rng.Float64()
						desc := fmt.Sprintf("similar content (%.2f)", w+0.25)
						g.addEdge(m.node, j, realm.Correlates, w, desc)
						g.addEdge(j, m.node, realm.Correlates, w, desc)
					}
				}
				recent = append(recent, m.node)
				if len(recent) > 60 {
					recent = recent[1:]
				}
				if m.ask != "" {
					g.out.Questions = append(g.out.Questions, ScaleQuestion{Query: m.ask, Target: node.ID, Causal: m.causal})
				}
			}
			obs.Content = speaker + ": " + strings.Join(turn, " ")
			g.out.Observations = append(g.out.Observations, obs)
		}
	}
	g.out.Memories = g.mem
	g.out.Summary = fmt.Sprintf("A long conversation between %s and %s over %d sessions about their friends, places and plans.",
		scaleSpeakers[0], scaleSpeakers[1], nEpisodes)
	// Keep a spread of questions: shuffle deterministically.
	rng.Shuffle(len(g.out.Questions), func(i, j int) { g.out.Questions[i], g.out.Questions[j] = g.out.Questions[j], g.out.Questions[i] })
	return g.out
}

func ptr(t time.Time) *time.Time { return &t }

type scaleGen struct {
	space                    string
	rng                      *rand.Rand
	out                      ScaleSpace
	mem                      []realm.Node
	entities                 []scaleEntity
	people, places, concepts []scaleEntity
	byEntity                 map[int][]int // entity node → the last memories mentioning it
	pairs                    map[[2]int]bool
	sourcesOf                map[int]map[string]bool
}

func (g *scaleGen) addNode(n realm.Node) int {
	n.ID = fmt.Sprintf("%s:m%d", g.space, len(g.mem))
	g.mem = append(g.mem, n)
	return len(g.mem) - 1
}

func (g *scaleGen) addEntity(e scaleEntity) {
	content := fmt.Sprintf("%s (%s), mentioned by %s.", e.name, e.category, scaleSpeakers[len(g.entities)%2])
	switch {
	case len(g.entities) < len(scaleSpeakers):
		content = fmt.Sprintf("%s (person), a participant of the conversation.", e.name)
	case e.category == "place":
		content = fmt.Sprintf("%s (place), a %s in %s.", e.name, strings.ToLower(strings.Fields(e.name)[1]), e.city)
	}
	e.node = g.addNode(realm.Node{Type: realm.Entity, Name: e.name, Content: content, Category: e.category})
	g.entities = append(g.entities, e)
}

func (g *scaleGen) addEdge(from, to int, p realm.Predicate, w float64, desc string) {
	g.out.Edges = append(g.out.Edges, realm.Edge{
		ID: fmt.Sprintf("%s:e%d", g.space, len(g.out.Edges)), From: g.mem[from].ID, To: g.mem[to].ID,
		Predicate: p, Layer: p.Layer(), Weight: w, InitialWeight: w, Confidence: 1, Description: desc,
	})
	if g.pairs == nil {
		g.pairs = map[[2]int]bool{}
	}
	g.pairs[[2]int{min(from, to), max(from, to)}] = true
}

func (g *scaleGen) linked(a, b int) bool { return g.pairs[[2]int{min(a, b), max(a, b)}] }

// mention records that obs mentions entity e: e's provenance and its recent memories.
func (g *scaleGen) mention(e scaleEntity, obs string) {
	if g.sourcesOf == nil {
		g.sourcesOf = map[int]map[string]bool{}
	}
	if g.sourcesOf[e.node] == nil {
		g.sourcesOf[e.node] = map[string]bool{}
	}
	if !g.sourcesOf[e.node][obs] {
		g.sourcesOf[e.node][obs] = true
		g.mem[e.node].Sources = append(g.mem[e.node].Sources, obs)
	}
}

// pick draws an entity of list, the first ones far more often (a few are popular).
func (g *scaleGen) pick(list []scaleEntity) scaleEntity {
	u := g.rng.Float64()
	return list[min(len(list)-1, int(float64(len(list))*u*u*u))]
}

// scaleMemory is one generated event or fact.
type scaleMemory struct {
	node      int
	sentence  string
	mentions  []scaleEntity
	question  bool
	ask       string // a question it answers
	causal    bool
	subjectOf scaleEntity
}

// evidence generates an event or fact said by speaker at time at.
func (g *scaleGen) evidence(event bool, speaker, other string, at time.Time, question bool) scaleMemory {
	rng := g.rng
	who := 0
	if speaker == scaleSpeakers[1] {
		who = 1
	}
	spk, oth := g.entities[who], g.entities[1-who]
	subj := spk
	if rng.Float64() < 0.45 && len(g.people) > 2 {
		subj = g.pick(g.people[2:])
	}
	withP := g.pick(g.people[2:])
	if withP.name == subj.name {
		withP = oth
	}
	place := g.pick(g.places)
	concept := g.pick(g.concepts)
	act := scaleActivities[rng.IntN(len(scaleActivities))]
	adj := scaleAdjectives[rng.IntN(len(scaleAdjectives))]
	date := at.Format("2 January 2006")
	m := scaleMemory{mentions: []scaleEntity{subj}}
	var text string
	typ := realm.Fact
	if event {
		typ = realm.Event
	}
	switch {
	case question:
		m.question = true
		text = fmt.Sprintf("%s: %s, how was %s at the %s? Did %s enjoy it?", speaker, other, act, place.name, withP.name)
		m.mentions = []scaleEntity{spk, oth, place, withP}
	case event:
		switch rng.IntN(5) {
		case 0:
			text = fmt.Sprintf("%s went to %s at the %s on %s and found it %s.", subj.name, act, place.name, date, adj)
			m.ask = fmt.Sprintf("When did %s go to %s at the %s?", subj.name, act, place.name)
			m.mentions = append(m.mentions, place)
		case 1:
			text = fmt.Sprintf("%s met %s at the %s on %s to talk about %s.", subj.name, withP.name, place.name, date, concept.name)
			m.ask = fmt.Sprintf("What did %s and %s talk about at the %s?", subj.name, withP.name, place.name)
			m.mentions = append(m.mentions, withP, place)
		case 2:
			text = fmt.Sprintf("On %s, %s took part in %s with %s; it was %s.", date, subj.name, act, withP.name, adj)
			m.ask = fmt.Sprintf("Who joined %s for %s?", subj.name, act)
			m.mentions = append(m.mentions, withP)
		case 3:
			text = fmt.Sprintf("%s started %s lessons at the %s on %s because %s wanted to %s.", subj.name, concept.name, place.name, date, subj.name, scaleGoalTexts[rng.IntN(len(scaleGoalTexts))])
			m.ask, m.causal = fmt.Sprintf("Why did %s start %s lessons?", subj.name, concept.name), true
			m.mentions = append(m.mentions, concept, place)
		default:
			text = fmt.Sprintf("%s and %s travelled to %s on %s for %s.", subj.name, withP.name, place.city, date, act)
			m.ask, m.causal = fmt.Sprintf("How did %s and %s end up in %s?", subj.name, withP.name, place.city), true
			m.mentions = append(m.mentions, withP, place)
		}
	default:
		switch rng.IntN(5) {
		case 0:
			goal := scaleGoalTexts[rng.IntN(len(scaleGoalTexts))]
			text = fmt.Sprintf("%s loves %s and wants to %s.", subj.name, concept.name, goal)
			m.ask = fmt.Sprintf("What does %s want to do one day?", subj.name)
			m.mentions = append(m.mentions, concept)
		case 1:
			text = fmt.Sprintf("%s works as a %s at the %s.", subj.name, scaleJobs[rng.IntN(len(scaleJobs))], place.name)
			m.ask = fmt.Sprintf("What is %s's job?", subj.name)
			m.mentions = append(m.mentions, place)
		case 2:
			text = fmt.Sprintf("%s's favourite %s is %s.", subj.name, scaleThings[rng.IntN(len(scaleThings))], scaleValues[rng.IntN(len(scaleValues))])
			m.ask = fmt.Sprintf("What is %s's favourite thing?", subj.name)
		case 3:
			text = fmt.Sprintf("%s believes %s helps people %s.", subj.name, concept.name, scaleBenefit[rng.IntN(len(scaleBenefit))])
			m.ask = fmt.Sprintf("What does %s think about %s?", subj.name, concept.name)
			m.mentions = append(m.mentions, concept)
		default:
			text = fmt.Sprintf("%s plans to %s with %s next year.", subj.name, scaleGoalTexts[rng.IntN(len(scaleGoalTexts))], withP.name)
			m.ask = fmt.Sprintf("What does %s plan to do with %s?", subj.name, withP.name)
			m.mentions = append(m.mentions, withP)
		}
	}
	if !question && subj.name != spk.name && rng.Float64() < 0.3 {
		m.mentions = append(m.mentions, spk) // the speaker tells of it
	}
	node := realm.Node{Type: typ, Name: firstWords(text, 6), Content: text, Keywords: scaleKeywords(text)}
	if event {
		node.TStart, node.TEnd = ptr(at.Truncate(24*time.Hour)), ptr(at.Truncate(24*time.Hour))
	}
	m.node = g.addNode(node)
	m.sentence = text
	if question {
		m.sentence = strings.TrimPrefix(text, speaker+": ")
	}
	m.subjectOf = subj
	m.mentions = dedupeEntities(m.mentions)
	if g.byEntity == nil {
		g.byEntity = map[int][]int{}
	}
	return m
}

// similar picks a memory to correlate m with: a recent one mentioning the same entity
// (not a speaker), else one of the recent memories.
func (g *scaleGen) similar(m scaleMemory, recent []int) int {
	for _, e := range m.mentions {
		if e.node < len(scaleSpeakers) {
			continue
		}
		list := g.byEntity[e.node]
		g.byEntity[e.node] = append(list[max(0, len(list)-7):], m.node)
		if len(list) > 0 {
			return list[g.rng.IntN(len(list))]
		}
	}
	if len(recent) == 0 {
		return -1
	}
	return recent[g.rng.IntN(len(recent))]
}

func dedupeEntities(es []scaleEntity) []scaleEntity {
	var out []scaleEntity
	seen := map[int]bool{}
	for _, e := range es {
		if !seen[e.node] {
			seen[e.node] = true
			out = append(out, e)
		}
	}
	return out
}

func firstWords(s string, n int) string {
	f := strings.Fields(s)
	return strings.Join(f[:min(n, len(f))], " ")
}

// scaleKeywords is up to three content words of text.
func scaleKeywords(text string) []string {
	var out []string
	for _, w := range strings.Fields(text) {
		w = strings.ToLower(strings.Trim(w, ".,;:?!'"))
		if len(w) < 5 || strings.ContainsAny(w, "0123456789") {
			continue
		}
		out = append(out, w)
		if len(out) == 3 {
			break
		}
	}
	return out
}
