package agent

import "encoding/json"

// Event types, the same names in the terminal, JSON Lines and SSE.
const (
	TypeToolCall   = "tool_call"
	TypeToolResult = "tool_result"
	TypeChunk      = "chunk"
	TypeEvidence   = "evidence"
	TypeDone       = "done"
)

// Evidence is one passage an answer rests on: a real chunk of the index.
type Evidence struct {
	FileID  string `json:"file_id"`
	Name    string `json:"name"`
	ChunkID string `json:"chunk_id"`
	Page    int    `json:"page,omitempty"`
	Text    string `json:"text"`
	Link    string `json:"link"`
}

// Event is one step of a run. Type says which fields are set:
//
//	tool_call   {tool, args, target}
//	tool_result {tool, summary, error}
//	chunk       {content}
//	evidence    {evidence, ref}
//	done        {result_id, answer, provider, extractive, stopped_by, message, steps, tool_calls}
type Event struct {
	Type     string          `json:"type"`
	Tool     string          `json:"tool,omitempty"`
	Args     json.RawMessage `json:"args,omitempty"`
	Target   string          `json:"target,omitempty"` // tool_call: the name of the document it reads, when known
	Summary  string          `json:"summary,omitempty"`
	Error    bool            `json:"error,omitempty"` // tool_result: the call failed (the model was told why)
	Content  string          `json:"content,omitempty"`
	Evidence *Evidence       `json:"evidence,omitempty"`
	Ref      int             `json:"ref,omitempty"` // evidence: the number [n] that cites it in the answer

	ResultID string `json:"result_id,omitempty"`
	Answer   string `json:"answer,omitempty"`
	Provider string `json:"provider,omitempty"`
	// Extractive is true when the answer is sentences quoted from the
	// evidence (the offline provider), not text a model wrote.
	Extractive bool `json:"extractive,omitempty"`
	// StoppedBy names the budget that ended the run early ("steps",
	// "tokens", "time"); Message says so in the user's language.
	StoppedBy string `json:"stopped_by,omitempty"`
	Message   string `json:"message,omitempty"`
	Steps     int    `json:"steps,omitempty"`
	ToolCalls int    `json:"tool_calls,omitempty"`
}

// argsJSON returns the arguments as the event shows them: the JSON object
// the model wrote, or, when it is not valid JSON, the text as a JSON string.
func argsJSON(s string) json.RawMessage {
	if s == "" {
		return json.RawMessage("{}")
	}
	if json.Valid([]byte(s)) {
		return json.RawMessage(s)
	}
	b, _ := json.Marshal(s)
	return b
}
