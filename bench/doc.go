// Package bench reproduces REALM's evaluation (REALM.md §6): loaders for LoCoMo and
// LongMemEval, the offline retrieval metrics (evidence recall@k; session and turn
// recall@k and NDCG@k), and runners that drive the pipelines. The full LoCoMo protocol
// (RunLoCoMo) answers with the LLM agent and grades with an LLM Judge; its reports are
// JSON, Markdown and SVG bar charts (BarChartSVG, stdlib only), with the LLM cost per
// stage (Cost), and resume from a per-sample checkpoint. The judge, the charts and the
// cost are generic, for every benchmark.
//
// Questions are recalled, answered and reconsolidated through answering.UseCase, as
// /answer does; the answer's evidence is measured with agent/llm's own prompt template.
//
// It imports the root package realm, the pipelines, answering and agent/llm; never api
// or cmd.
package bench
