package bench

import "regexp"

// Benchmarks written with people's names can be run as agents send chat: the speakers as
// roles ("user", "assistant"), the person asked about as "the user" (--speakers roles).

// roleOf is a speaker's chat role: "user" for the person, "assistant" for anyone else.
func roleOf(speaker, person string) string {
	if speaker == person {
		return "user"
	}
	return "assistant"
}

// nameAs replaces a name, as a whole word, with a phrase ("Nora's" → "the user's").
func nameAs(name, phrase string) func(string) string {
	re := regexp.MustCompile(`\b` + regexp.QuoteMeta(name) + `\b`)
	return func(s string) string { return re.ReplaceAllLiteralString(s, phrase) }
}

// SamplesAsChatRoles rewrites LoCoMo samples as an assistant's conversations with its
// user: speaker A speaks as "user" and B as "assistant", and the questions call them "the
// user" and "the assistant". The turns' words, and so the evidence, stay as they are.
func SamplesAsChatRoles(samples []Sample) []Sample {
	out := make([]Sample, len(samples))
	for i, s := range samples {
		a, b := nameAs(s.SpeakerA, "the user"), nameAs(s.SpeakerB, "the assistant")
		sessions := make([]Session, len(s.Sessions))
		for j, se := range s.Sessions {
			turns := make([]Turn, len(se.Turns))
			for k, t := range se.Turns {
				t.Speaker = roleOf(t.Speaker, s.SpeakerA)
				turns[k] = t
			}
			se.Turns = turns
			sessions[j] = se
		}
		questions := make([]Question, len(s.Questions))
		for j, q := range s.Questions {
			q.Question = b(a(q.Question))
			questions[j] = q
		}
		s.SpeakerA, s.SpeakerB, s.Sessions, s.Questions = "user", "assistant", sessions, questions
		out[i] = s
	}
	return out
}
