// Package answering is the one use case recall → answer → reconsolidate, which /answer,
// the MCP answer tool and the LoCoMo and LongMemEval benchmarks share: recall the question's evidence,
// have the agent answer from it, then reconsolidate the recall's trace with the answer
// and its citations as the system's own signal (source auto, η/2: never confirmed
// feedback).
//
// It imports the root package realm, agent and reconsolidation (for its request and
// result types); the pipelines reach it as interfaces.
package answering

import (
	"context"
	"maps"
	"time"

	"github.com/realm-memory/realm"
	"github.com/realm-memory/realm/agent"
	"github.com/realm-memory/realm/reconsolidation"
)

// Recaller recalls the evidence of a question (retrieval.Retriever).
type Recaller interface {
	Recall(ctx context.Context, space string, req realm.RecallRequest) (realm.RecallResult, error)
}

// Answerer writes an answer from the evidence of one recall (agent.Agent).
type Answerer interface {
	Answer(ctx context.Context, in agent.AnswerInput) (agent.Answer, realm.Usage, error)
}

// Reconsolidator reconsolidates a recall's trace (reconsolidation.Reconsolidator).
type Reconsolidator interface {
	Reconsolidate(ctx context.Context, space, traceID string, req reconsolidation.Request) (reconsolidation.Result, error)
}

// UseCase is recall → answer → reconsolidate over the three pipelines. Answer may be nil
// (a run without an LLM): Ask then recalls and reconsolidates on the recall alone.
type UseCase struct {
	Recall        Recaller
	Answer        Answerer
	Reconsolidate Reconsolidator
}

// Result is what one Ask did.
type Result struct {
	// Recalled is true once the recall succeeded: a failed answer still has its evidence.
	Recalled bool
	Recall   realm.RecallResult
	Answer   agent.Answer
	Usage    realm.Usage // the recall's and the answer's stages
	// AnswerUsage is the answer's part of Usage (the recall's is Recall.Usage).
	AnswerUsage realm.Usage
	Timings     map[string]float64 // the recall's stages, answer and reconsolidate, in ms
	// Reconsolidation is set when the trace was reconsolidated; a failure there leaves
	// the answer standing and is ReconsolidationErr.
	Reconsolidation    *reconsolidation.Result
	ReconsolidationErr error
}

// Ask recalls for req, answers from the recalled nodes at req.Time (else now) and, when
// reconsolidate is set, reconsolidates the trace with the answer and its citations (the
// recall alone without an Answerer). A failing recall or answer is the error, with what
// was done before it in the result.
func (u UseCase) Ask(ctx context.Context, space string, req realm.RecallRequest, reconsolidate bool) (Result, error) {
	res := Result{Usage: realm.Usage{}, Timings: map[string]float64{}}
	rec, err := u.Recall.Recall(ctx, space, req)
	if err != nil {
		return res, err
	}
	res.Recalled, res.Recall = true, rec
	res.Usage.Add(rec.Usage)
	maps.Copy(res.Timings, rec.Timings)
	if u.Answer != nil {
		now := time.Now().UTC()
		if req.Time != nil {
			now = *req.Time
		}
		start := time.Now()
		ans, usage, err := u.Answer.Answer(ctx, agent.AnswerInput{Question: req.Query, Time: now, Nodes: rec.Nodes, Edges: rec.Edges})
		res.Usage.Add(usage)
		res.AnswerUsage = usage
		res.Timings["answer"] = msSince(start)
		if err != nil {
			return res, err
		}
		res.Answer = ans
	}
	if !reconsolidate {
		return res, nil
	}
	start := time.Now()
	rc, err := u.Reconsolidate.Reconsolidate(ctx, space, rec.TraceID,
		reconsolidation.Request{Answer: res.Answer.Text, Cited: res.Answer.Cited, Source: realm.EditSourceAuto})
	res.Timings["reconsolidate"] = msSince(start)
	if err != nil {
		res.ReconsolidationErr = err
	} else {
		res.Reconsolidation = &rc
	}
	return res, nil
}

func msSince(t time.Time) float64 { return float64(time.Since(t).Microseconds()) / 1000 }
