package agent

import "time"

// Limits bound one run. Zero fields take the DefaultLimits value.
type Limits struct {
	MaxSteps        int           // model turns of the main agent (offline: planner turns)
	MaxCallsPerTool int           // calls of one tool in a run
	MaxTokens       int           // tokens sent and received by the main agent and its sub-agents
	MaxWall         time.Duration // wall clock of the whole run
	SubMaxSteps     int           // model turns of one investigation
	SubMaxTokens    int           // tokens of one investigation (document text included)
	MaxChunks       int           // chunks get_document_content returns (seed: 500)
	MaxResultTokens int           // one tool result as the main agent sees it
	MaxEvidence     int           // evidence events of one answer
}

// DefaultLimits are the limits of `gds ask --mode agentic` and the chat
// endpoint.
var DefaultLimits = Limits{
	MaxSteps: 12, MaxCallsPerTool: 8, MaxTokens: 200_000, MaxWall: 5 * time.Minute,
	SubMaxSteps: 4, SubMaxTokens: 60_000, MaxChunks: 500, MaxResultTokens: 6_000, MaxEvidence: 12,
}

// withDefaults fills the zero fields of l from DefaultLimits.
func (l Limits) withDefaults() Limits {
	d := DefaultLimits
	set := func(v *int, def int) {
		if *v <= 0 {
			*v = def
		}
	}
	set(&l.MaxSteps, d.MaxSteps)
	set(&l.MaxCallsPerTool, d.MaxCallsPerTool)
	set(&l.MaxTokens, d.MaxTokens)
	set(&l.SubMaxSteps, d.SubMaxSteps)
	set(&l.SubMaxTokens, d.SubMaxTokens)
	set(&l.MaxChunks, d.MaxChunks)
	set(&l.MaxResultTokens, d.MaxResultTokens)
	set(&l.MaxEvidence, d.MaxEvidence)
	if l.MaxWall <= 0 {
		l.MaxWall = d.MaxWall
	}
	return l
}

// Stop is why a run ends before the model answers on its own; "" means it
// may go on.
type Stop string

// The budgets that stop a run.
const (
	StopNone   Stop = ""
	StopSteps  Stop = "steps"
	StopTokens Stop = "tokens"
	StopTime   Stop = "time"
)

// Budget is the pure accounting of one run: the state of the step, call,
// token and clock budgets. The run loop asks it before every model turn
// (Step) and every tool call (Call), and reports the tokens it spent.
type Budget struct {
	Limits Limits
	Start  time.Time
	Steps  int
	Tokens int
	Calls  map[string]int
	Total  int // tool calls run (refused calls not counted)
}

// NewBudget starts the accounting at start.
func NewBudget(l Limits, start time.Time) *Budget {
	return &Budget{Limits: l.withDefaults(), Start: start, Calls: map[string]int{}}
}

// Step reports whether another model turn may start at now, and counts it
// when it may. The clock is checked first, then tokens, then steps.
func (b *Budget) Step(now time.Time) Stop {
	switch {
	case now.Sub(b.Start) >= b.Limits.MaxWall:
		return StopTime
	case b.Tokens >= b.Limits.MaxTokens:
		return StopTokens
	case b.Steps >= b.Limits.MaxSteps:
		return StopSteps
	}
	b.Steps++
	return StopNone
}

// Call reports whether one more call of tool may run, and counts it when
// it may.
func (b *Budget) Call(tool string) bool {
	if b.Calls[tool] >= b.Limits.MaxCallsPerTool {
		return false
	}
	b.Calls[tool]++
	b.Total++
	return true
}

// Spend adds n tokens.
func (b *Budget) Spend(n int) { b.Tokens += n }

// TokensLeft is what the token budget still allows (0 when spent).
func (b *Budget) TokensLeft() int { return max(0, b.Limits.MaxTokens-b.Tokens) }
