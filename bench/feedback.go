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
	FeedbackNone  = "none"  // no reconsolidation: the graph stays as ingested
	FeedbackSelf  = "self"  // the offline auditor on the system's own signals (η/2)
	FeedbackCited = "cited" // after question i is measured, its recalled nodes covering a gold turn of it are marked useful, as a client would
)

// FeedbackModes lists the valid --feedback values.
var FeedbackModes = []string{FeedbackNone, FeedbackSelf, FeedbackCited}

// runMode is the run mode of a feedback mode: none is reconsolidation off, self is on.
func runMode(feedback string) string {
	switch feedback {
	case FeedbackNone:
		return ReconsolidationOff
	case FeedbackSelf:
		return ReconsolidationOn
	}
	return feedback
}

// FeedbackReport is what a run tells of learning from use: recall apart for the questions
// that share a gold turn with an earlier question of their conversation and for the
// others, the recall over the question order, and the ceiling.
type FeedbackReport struct {
	Feedback string      `json:"feedback"` // none | self | cited
	Sharing  SplitReport `json:"sharing"`  // questions sharing a gold turn with an earlier one
	Others   SplitReport `json:"others"`
	All      SplitReport `json:"all"`
	// Running is the mean recall of the questions in each tenth of their conversation's
	// question order, first tenth first, over all samples.
	Running []float64 `json:"running_recall"`
	// Feedbacks is how many feedback calls cited made (questions whose top K covered a
	// gold turn), and UsefulMarked the nodes they marked useful.
	Feedbacks    int `json:"feedbacks,omitempty"`
	UsefulMarked int `json:"useful_marked,omitempty"`

	running [runningBins]struct{ sum, n float64 }
}

// SplitReport is the recall of a set of questions, its ceiling, and the mean context.
type SplitReport struct {
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

func (s *SplitReport) add(recall, ceiling float64, tokens int) {
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
func sharesEarlier(questions []question) []bool {
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

// sampleFeedback follows one sample's questions through a run: the gold turns found so
// far, for the ceiling.
type sampleFeedback struct {
	shares []bool
	found  map[string]bool // gold turns some earlier question found in its top K
}

func newSampleFeedback(questions []question) *sampleFeedback {
	return &sampleFeedback{shares: sharesEarlier(questions), found: map[string]bool{}}
}

// observe adds question n (of total) with its recall and returned nodes to rep.
func (f *sampleFeedback) observe(rep *FeedbackReport, n, total int, q question, recall float64, nodes []realm.RecalledNode, k, tokens int) {
	covered := map[string]bool{}
	for i, nd := range nodes {
		if i < k && len(nd.Node.Sources) <= MaxEvidenceSources {
			for _, s := range nd.Node.Sources {
				covered[s] = true
			}
		}
	}
	hit := 0
	for _, g := range q.Evidence {
		if covered[g] || f.found[g] {
			hit++
		}
	}
	ceiling := float64(hit) / float64(len(q.Evidence))
	for _, g := range q.Evidence {
		if covered[g] {
			f.found[g] = true
		}
	}
	if f.shares[n] {
		rep.Sharing.add(recall, ceiling, tokens)
	} else {
		rep.Others.add(recall, ceiling, tokens)
	}
	rep.All.add(recall, ceiling, tokens)
	bin := n * runningBins / max(total, 1)
	rep.running[bin].sum += recall
	rep.running[bin].n++
	rep.Running = rep.Running[:0]
	for _, b := range rep.running {
		if b.n > 0 {
			rep.Running = append(rep.Running, b.sum/b.n)
		} else {
			rep.Running = append(rep.Running, 0)
		}
	}
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

// FeedbackMarkdown renders the feedback runs side by side: recall by split with the
// ceiling, the running recall, and against the run without feedback.
func (r RetrievalReport) FeedbackMarkdown() string {
	var runs []*RunReport
	for i := range r.Runs {
		if r.Runs[i].Feedback != nil {
			runs = append(runs, &r.Runs[i])
		}
	}
	if len(runs) == 0 {
		return ""
	}
	slices.SortStableFunc(runs, func(a, b *RunReport) int {
		return slices.Index(FeedbackModes, a.Feedback.Feedback) - slices.Index(FeedbackModes, b.Feedback.Feedback)
	})
	var none *FeedbackReport
	for _, run := range runs {
		if run.Feedback.Feedback == FeedbackNone {
			none = run.Feedback
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
	for _, run := range runs {
		f := run.Feedback
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
	for _, run := range runs {
		fmt.Fprintf(&b, "| %s |", run.Feedback.Feedback)
		for _, v := range run.Feedback.Running {
			fmt.Fprintf(&b, " %.3f |", v)
		}
		b.WriteString("\n")
	}
	b.WriteString("\n")
	for _, run := range runs {
		if e := run.Edits; e != nil {
			fmt.Fprintf(&b, "Edits, %s: %d reconsolidations with edits of %d; added %d, strengthened %d, weakened %d (logged edits, a symmetric edge counts twice), %d rejected; the revert %s.",
				run.Feedback.Feedback, e.WithEdits, e.Audits, e.Added, e.Strengthened, e.Weakened, e.Rejected, restoredText(e))
			if run.Feedback.Feedbacks > 0 {
				fmt.Fprintf(&b, " %d feedback calls marked %d nodes useful.", run.Feedback.Feedbacks, run.Feedback.UsefulMarked)
			}
			b.WriteString("\n\n")
		}
	}
	return b.String()
}

func restoredText(e *EditReport) string {
	if e.Restored {
		return "restored every edge weight to the bit"
	}
	return fmt.Sprintf("left %d edges different", e.Mismatches)
}
