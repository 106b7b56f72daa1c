package app

import (
	"context"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/agent"
	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/tokens"
	"github.com/gds-cli/gds/internal/eval"
)

// EvalModeAgentic compares agentic search with gds ask on a query set with
// gold answers.
const EvalModeAgentic = "agentic"

// AgenticReport is the outcome of `gds eval --mode agentic`: for each
// system, the share of queries whose evidence holds a gold answer
// (eval.ContainsAnswer), and the mean cost per query.
type AgenticReport struct {
	Provider string `json:"provider"`
	Queries  int    `json:"queries"`
	// Ask: the top 5 passages of gds ask's retrieval (its sources), and
	// the time of retrieval plus the provider's answer.
	AskRecall5 float64 `json:"ask_recall_at_5"`
	AskAnswer  float64 `json:"ask_answer_contains_gold"`
	AskMeanMs  float64 `json:"ask_mean_ms"`
	// Agentic: every evidence item of the run (at most
	// agent.Limits.MaxEvidence), and its first five.
	AgentRecall       float64 `json:"agentic_recall"`
	AgentRecall5      float64 `json:"agentic_recall_at_5"`
	AgentAnswer       float64 `json:"agentic_answer_contains_gold"`
	AgentMeanEvidence float64 `json:"agentic_mean_evidence"`
	AgentMeanCalls    float64 `json:"agentic_mean_tool_calls"`
	AgentMeanMs       float64 `json:"agentic_mean_ms"`
	AgentStopped      int     `json:"agentic_stopped_by_budget"`
}

// EvalAgentic indexes the corpus (or reuses its index) as one folder and
// runs every query through gds ask's retrieval and answer and through the
// agent, scoring the evidence of each against the gold answers.
func (d *Deps) EvalAgentic(ctx context.Context, req EvalRequest) (AgenticReport, error) {
	ev, err := d.openEval(ctx, req)
	if err != nil {
		return AgenticReport{}, err
	}
	defer ev.ix.Store.Close()
	var counter agent.Counter
	if _, ok := ev.prov.(ai.ToolCaller); ok {
		counter = tokens.O200k
	}
	rep := AgenticReport{Provider: ev.prov.Name()}
	var askMs, agentMs, calls, evidence float64
	for i, q := range ev.queries {
		if len(q.Answers) == 0 {
			continue
		}
		start := time.Now()
		srcs, err := retrieve(ctx, ev.ix.Store, ev.prov, RetrieveRequest{Query: q.Query, TopK: DefaultTopK})
		if err != nil {
			return rep, err
		}
		in := ai.AnswerInput{Question: q.Query, Lang: d.Lang}
		var texts []string
		for _, s := range srcs {
			texts = append(texts, s.Text)
			in.Contexts = append(in.Contexts, ai.AnswerContext{Ref: s.Ref, FileName: s.Name, Page: s.Page, Text: s.Text})
		}
		var answer strings.Builder
		if err := ai.Answer(ctx, ev.prov, in, func(s string) error { answer.WriteString(s); return nil }); err != nil {
			return rep, err
		}
		askMs += float64(time.Since(start).Microseconds()) / 1000
		if eval.ContainsAnswer(strings.Join(texts, "\n"), q.Answers) {
			rep.AskRecall5++
		}
		if eval.ContainsAnswer(answer.String(), q.Answers) {
			rep.AskAnswer++
		}

		start = time.Now()
		eng := &agentEngine{st: ev.ix.Store, prov: ev.prov} // one per run, as gds ask --mode agentic
		res, err := agent.Run(ctx, agent.Options{Question: q.Query, Provider: ev.prov, Engine: eng, Counter: counter, Lang: d.Lang,
			Now: time.Now, Emit: func(agent.Event) error { return nil }})
		if err != nil {
			return rep, err
		}
		agentMs += float64(time.Since(start).Microseconds()) / 1000
		var all []string
		for _, e := range res.Evidence {
			all = append(all, e.Text)
		}
		if eval.ContainsAnswer(strings.Join(all, "\n"), q.Answers) {
			rep.AgentRecall++
		}
		if eval.ContainsAnswer(strings.Join(all[:min(5, len(all))], "\n"), q.Answers) {
			rep.AgentRecall5++
		}
		if eval.ContainsAnswer(res.Done.Answer, q.Answers) {
			rep.AgentAnswer++
		}
		if res.Done.StoppedBy != "" {
			rep.AgentStopped++
		}
		calls += float64(res.Done.ToolCalls)
		evidence += float64(len(res.Evidence))
		rep.Queries++
		if req.Progress != nil {
			req.Progress(i+1, len(ev.queries))
		}
	}
	if n := float64(rep.Queries); n > 0 {
		rep.AskRecall5 /= n
		rep.AskAnswer /= n
		rep.AskMeanMs = askMs / n
		rep.AgentRecall /= n
		rep.AgentRecall5 /= n
		rep.AgentAnswer /= n
		rep.AgentMeanEvidence = evidence / n
		rep.AgentMeanCalls = calls / n
		rep.AgentMeanMs = agentMs / n
	}
	return rep, nil
}
