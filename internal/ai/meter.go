package ai

import "sync"

// CallKind is the kind of a model call, as a cost estimate counts them.
type CallKind string

// The kinds of model call.
const (
	CallChat      CallKind = "chat"       // a chat completion: structured output, tools or text
	CallEmbedding CallKind = "embeddings" // one embeddings request (a batch of texts)
	CallVision    CallKind = "vision"     // a chat completion that reads an image (OCR)
)

// CallKinds lists the kinds in display order.
var CallKinds = []CallKind{CallChat, CallEmbedding, CallVision}

// Tally is what calls of one kind took.
type Tally struct {
	Calls        int `json:"calls"`
	InputTokens  int `json:"input_tokens"`
	OutputTokens int `json:"output_tokens"`
}

// Add returns the sum of t and u.
func (t Tally) Add(u Tally) Tally {
	return Tally{Calls: t.Calls + u.Calls, InputTokens: t.InputTokens + u.InputTokens, OutputTokens: t.OutputTokens + u.OutputTokens}
}

// Sub returns t minus u.
func (t Tally) Sub(u Tally) Tally {
	return Tally{Calls: t.Calls - u.Calls, InputTokens: t.InputTokens - u.InputTokens, OutputTokens: t.OutputTokens - u.OutputTokens}
}

// Meter adds up the calls a provider made and the tokens the server
// reported for them (the usage of each response). It is safe for
// concurrent use; the zero Meter is ready.
type Meter struct {
	mu sync.Mutex
	by map[CallKind]Tally
}

// Add records one call of kind with its token counts.
func (m *Meter) Add(kind CallKind, input, output int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.by == nil {
		m.by = map[CallKind]Tally{}
	}
	m.by[kind] = m.by[kind].Add(Tally{Calls: 1, InputTokens: input, OutputTokens: output})
}

// AddTally records t (several calls, or tokens without a call) under kind.
func (m *Meter) AddTally(kind CallKind, t Tally) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.by == nil {
		m.by = map[CallKind]Tally{}
	}
	m.by[kind] = m.by[kind].Add(t)
}

// Totals returns a copy of the tallies so far, by kind.
func (m *Meter) Totals() map[CallKind]Tally {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := make(map[CallKind]Tally, len(m.by))
	for k, v := range m.by {
		out[k] = v
	}
	return out
}

// Since returns the tallies recorded after before (an earlier Totals).
func (m *Meter) Since(before map[CallKind]Tally) map[CallKind]Tally {
	out := m.Totals()
	for k, v := range before {
		out[k] = out[k].Sub(v)
	}
	for k, v := range out {
		if v == (Tally{}) {
			delete(out, k)
		}
	}
	return out
}

// Metered is a provider that keeps a Meter of its calls.
type Metered interface {
	Meter() *Meter
}
