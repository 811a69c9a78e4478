package bench

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/reconsolidation"
)

// Feedback modes of a retrieval run (realm bench locomo --feedback; REALM.md §6,
// "Measuring reconsolidation offline").
const (
	FeedbackNone  = "none"  // no reconsolidation: the graph stays as ingested (run mode off)
	FeedbackSelf  = "self"  // the offline auditor on the system's own signals, η/2 (run mode on)
	FeedbackCited = "cited" // after question i is measured, its recalled nodes covering a gold turn of it are marked useful, as a client would
	// FeedbackAnswer: after question i is measured, its gold answer is sent as a correct
	// answer ({answer, correct: true}, no node ids), as a client whose answer was judged
	// right would; what the answer's own words name is its key evidence.
	FeedbackAnswer = "answer"
)

// FeedbackModes lists the valid --feedback values.
var FeedbackModes = []string{FeedbackNone, FeedbackSelf, FeedbackCited, FeedbackAnswer}

// feedbackRunMode is the run mode (the key of a question's results) of a feedback mode.
func feedbackRunMode(feedback string) string {
	switch feedback {
	case FeedbackNone:
		return ReconsolidationOff
	case FeedbackSelf:
		return ReconsolidationOn
	}
	return feedback
}

// FeedbackReport is what one feedback mode's run tells of learning from use: recall apart
// for the questions that share a gold turn with an earlier question of their conversation
// and for the others, the recall over the question order, and the ceiling.
type FeedbackReport struct {
	Feedback string        `json:"feedback"` // none | self | cited | answer
	Sharing  FeedbackSplit `json:"sharing"`  // questions sharing a gold turn with an earlier one
	Others   FeedbackSplit `json:"others"`
	All      FeedbackSplit `json:"all"`
	// Running is the mean recall of the questions in each tenth of their conversation's
	// question order, first tenth first, over all samples.
	Running []float64 `json:"running_recall"`
	// Feedbacks is how many feedback calls cited or answer made (cited: questions whose
	// top K covered a gold turn), and UsefulMarked the nodes cited marked useful.
	Feedbacks    int `json:"feedbacks,omitempty"`
	UsefulMarked int `json:"useful_marked,omitempty"`
}

// FeedbackSplit is the recall of a set of questions, its ceiling, and the mean context.
type FeedbackSplit struct {
	Questions int     `json:"questions"`
	Recall    float64 `json:"recall"`
	// Ceiling is the recall had every gold turn that an earlier question of the
	// conversation had found (in its top K, this run) been found again whenever it is gold
	// again (REALM.md §6); CeilingGain = Ceiling − Recall.
	Ceiling       float64 `json:"ceiling"`
	CeilingGain   float64 `json:"ceiling_gain"`
	ContextTokens float64 `json:"mean_context_tokens"`

	sum, ceil, tokens float64
}

const runningBins = 10

func (s *FeedbackSplit) add(recall, ceiling float64, tokens int) {
	s.Questions++
	s.sum += recall
	s.ceil += ceiling
	s.tokens += float64(tokens)
	n := float64(s.Questions)
	s.Recall, s.Ceiling, s.ContextTokens = s.sum/n, s.ceil/n, s.tokens/n
	s.CeilingGain = s.Ceiling - s.Recall
}

// sharesEarlier reports, per question in the order asked, whether one of its gold turns
// is a gold turn of an earlier question.
func sharesEarlier(questions []*questionResult) []bool {
	seen := map[string]bool{}
	out := make([]bool, len(questions))
	for i, q := range questions {
		for _, g := range q.Evidence {
			out[i] = out[i] || seen[g]
		}
		for _, g := range q.Evidence {
			seen[g] = true
		}
	}
	return out
}

// feedbackReport is the report of run r (feedback mode feedback) over the results, which
// hold each sample's questions together, in the order asked.
func feedbackReport(feedback string, r *run, results []*questionResult) FeedbackReport {
	rep := FeedbackReport{Feedback: feedback, Feedbacks: r.feedbacks, UsefulMarked: r.usefulMarked}
	var bins [runningBins]struct{ sum, n float64 }
	for start := 0; start < len(results); {
		end := start
		for end < len(results) && results[end].sample == results[start].sample {
			end++
		}
		sample := results[start:end]
		shares, found := sharesEarlier(sample), map[string]bool{}
		for n, q := range sample {
			m, ok := q.realm[r.mode]
			if !ok {
				continue
			}
			hit := 0
			for _, g := range q.Evidence {
				if slices.Contains(m.found, g) || found[g] {
					hit++
				}
			}
			ceiling := float64(hit) / float64(len(q.Evidence))
			for _, g := range m.found {
				found[g] = true
			}
			if shares[n] {
				rep.Sharing.add(m.recall, ceiling, m.tokens)
			} else {
				rep.Others.add(m.recall, ceiling, m.tokens)
			}
			rep.All.add(m.recall, ceiling, m.tokens)
			b := n * runningBins / len(sample)
			bins[b].sum += m.recall
			bins[b].n++
		}
		start = end
	}
	for _, b := range bins {
		rep.Running = append(rep.Running, b.sum/max(b.n, 1))
	}
	return rep
}

// goldFound is the gold turns the top k of nodes cover (EvidenceRecall's rule).
func goldFound(gold []string, nodes []realm.RecalledNode, k int) []string {
	var out []string
	for i, n := range nodes {
		if i < k && len(n.Node.Sources) <= MaxEvidenceSources {
			for _, s := range n.Node.Sources {
				if slices.Contains(gold, s) && !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	return out
}

// citedFeedback marks useful, through the client's feedback path (the same call as
// POST …/traces/{id}/feedback), the nodes of the top K that cover a gold turn of the
// question just measured; nothing is sent when none does.
func citedFeedback(ctx context.Context, rc Reconsolidator, space, traceID string, gold []string, nodes []realm.RecalledNode, k int) (reconsolidation.Result, []string, error) {
	var useful []string
	for i, n := range nodes {
		if i < k && coversGold(gold, n.Node.Sources) {
			useful = append(useful, n.Node.ID)
		}
	}
	if len(useful) == 0 {
		return reconsolidation.Result{}, nil, nil
	}
	fb := realm.Feedback{UsefulNodeIDs: useful}
	res, err := rc.Reconsolidate(ctx, space, traceID, reconsolidation.Request{Feedback: &fb, Source: realm.EditSourceFeedback})
	return res, useful, err
}

// answerFeedback sends, through the client's feedback path, the question's gold answer
// as a correct answer; nothing is sent for a question without one.
func answerFeedback(ctx context.Context, rc Reconsolidator, space, traceID, answer string) (reconsolidation.Result, error) {
	if strings.TrimSpace(answer) == "" {
		return reconsolidation.Result{}, nil
	}
	correct := true
	fb := realm.Feedback{Answer: answer, Correct: &correct}
	return rc.Reconsolidate(ctx, space, traceID, reconsolidation.Request{Feedback: &fb, Source: realm.EditSourceFeedback})
}

// FeedbackMarkdown renders the feedback runs side by side: recall by split with the
// ceiling and against the run without feedback, the running recall, and the edits.
func (r RetrievalReport) FeedbackMarkdown() string {
	if len(r.Feedback) == 0 {
		return ""
	}
	var none *FeedbackReport
	for i := range r.Feedback {
		if r.Feedback[i].Feedback == FeedbackNone {
			none = &r.Feedback[i]
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Learning from use (REALM.md §6): evidence recall@%d by feedback, apart for the questions that share a gold turn with an earlier question of their conversation; "+
		"the ceiling is the recall had every gold turn an earlier question found come back whenever it is gold again.\n\n", r.K)
	b.WriteString("| feedback | questions | all | sharing | others | context (tokens) | ceiling all | ceiling sharing |")
	if none != nil {
		b.WriteString(" Δ all | Δ sharing | Δ others | Δ context |")
	}
	b.WriteString("\n|---|---|---|---|---|---|---|---|")
	if none != nil {
		b.WriteString("---|---|---|---|")
	}
	b.WriteString("\n")
	for _, f := range r.Feedback {
		fmt.Fprintf(&b, "| %s | %d (%d sharing) | %.3f | %.3f | %.3f | %.0f | %.3f (+%.3f) | %.3f (+%.3f) |", f.Feedback, f.All.Questions, f.Sharing.Questions,
			f.All.Recall, f.Sharing.Recall, f.Others.Recall, f.All.ContextTokens, f.All.Ceiling, f.All.CeilingGain, f.Sharing.Ceiling, f.Sharing.CeilingGain)
		if none != nil {
			fmt.Fprintf(&b, " %+.3f | %+.3f | %+.3f | %+.1f%% |", f.All.Recall-none.All.Recall, f.Sharing.Recall-none.Sharing.Recall,
				f.Others.Recall-none.Others.Recall, 100*(f.All.ContextTokens/max(none.All.ContextTokens, 1)-1))
		}
		b.WriteString("\n")
	}
	b.WriteString("\nRecall by tenth of the question order (first tenth first):\n\n| feedback |")
	for i := range runningBins {
		fmt.Fprintf(&b, " %d |", i+1)
	}
	b.WriteString("\n|---|" + strings.Repeat("---|", runningBins) + "\n")
	for _, f := range r.Feedback {
		fmt.Fprintf(&b, "| %s |", f.Feedback)
		for _, v := range f.Running {
			fmt.Fprintf(&b, " %.3f |", v)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, f := range r.Feedback {
		run := r.Run(feedbackRunMode(f.Feedback))
		if run == nil || run.Edits == nil {
			continue
		}
		e := run.Edits
		fmt.Fprintf(&b, "Edits, %s: %d reconsolidations with edits of %d; added %d, strengthened %d, weakened %d (logged edits, a symmetric edge counts twice), %d rejected; the revert %s.",
			f.Feedback, e.WithEdits, e.Audits, e.Added, e.Strengthened, e.Weakened, e.Rejected, restoredText(e))
		switch {
		case f.UsefulMarked > 0:
			fmt.Fprintf(&b, " %d feedback calls marked %d nodes useful.", f.Feedbacks, f.UsefulMarked)
		case f.Feedbacks > 0:
			fmt.Fprintf(&b, " %d feedback calls, each an answer judged correct.", f.Feedbacks)
		}
		b.WriteString("\n\n")
	}
	return b.String()
}

func restoredText(e *EditReport) string {
	if e.Restored {
		return "restored every edge weight to the bit"
	}
	return fmt.Sprintf("left %d edges different", e.Mismatches)
}
