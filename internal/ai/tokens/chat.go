package tokens

import (
	"encoding/json"
	"math"
)

// Billing of a chat request the way OpenAI counts its prompt_tokens for
// the o200k_base models (the method of OpenAI's cookbook,
// "How to count tokens with tiktoken"): every message costs PerMessage
// tokens of framing plus its role and content, and the reply is primed with
// ReplyPriming tokens. A JSON schema of structured output and the tool
// definitions are part of the prompt too: they are counted as their JSON
// text. Both the OpenAI emulator (the usage it reports) and gds's estimate
// (internal/ai/counting) count with these functions, so the two cannot
// drift apart.
const (
	PerMessage   = 3
	ReplyPriming = 3
	// PerToolCall is the framing of one tool call an assistant message
	// carries, beside its name and arguments.
	PerToolCall = 3
)

// Message is one chat message as it is billed.
type Message struct {
	Role    string
	Content string
	// ToolCalls are the name and arguments of each call an assistant
	// message carries, in pairs.
	ToolCalls [][2]string
	// Images are the input tokens of the images the message holds
	// (ImageTokens each).
	Images int
}

// Prompt returns the prompt tokens of a chat request: its messages, the
// JSON of its response schema ("" for none) and of its tools ("" for none).
func Prompt(msgs []Message, schemaJSON, toolsJSON string) int {
	n := ReplyPriming
	for _, m := range msgs {
		n += PerMessage + Count(m.Role) + Count(m.Content) + m.Images
		for _, tc := range m.ToolCalls {
			n += PerToolCall + Count(tc[0]) + Count(tc[1])
		}
	}
	return n + Count(schemaJSON) + Count(toolsJSON)
}

// Completion returns the completion tokens of a reply: its text and the
// name and arguments of each tool call.
func Completion(text string, toolCalls [][2]string) int {
	n := Count(text)
	for _, tc := range toolCalls {
		n += Count(tc[0]) + Count(tc[1])
	}
	return n
}

// Image tiling of the gpt-4o family at detail "high" (OpenAI's vision
// pricing): the image is scaled to fit in 2048 × 2048, then so that its
// short side is at most 768 px; each 512 px tile costs ImageTileTokens,
// and every image ImageBaseTokens.
const (
	ImageBaseTokens = 85
	ImageTileTokens = 170
)

// ImageTokens returns the input tokens of a width × height image sent at
// detail "high". A size it does not know (0) is billed as a portrait page:
// six tiles.
func ImageTokens(width, height int) int {
	if width <= 0 || height <= 0 {
		return ImageBaseTokens + 6*ImageTileTokens
	}
	w, h := float64(width), float64(height)
	if s := 2048 / math.Max(w, h); s < 1 {
		w, h = w*s, h*s
	}
	if s := 768 / math.Min(w, h); s < 1 {
		w, h = w*s, h*s
	}
	tiles := math.Ceil(w/512) * math.Ceil(h/512)
	return ImageBaseTokens + int(tiles)*ImageTileTokens
}

// Tool is one tool definition of a chat request as it is billed.
type Tool struct {
	Name        string         `json:"name"`
	Description string         `json:"description,omitempty"`
	Parameters  map[string]any `json:"parameters,omitempty"`
}

// ToolsJSON is the text Prompt counts for tools: their definitions as one
// JSON array ("" for none).
func ToolsJSON(tools []Tool) string {
	if len(tools) == 0 {
		return ""
	}
	b, err := json.Marshal(tools)
	if err != nil {
		return ""
	}
	return string(b)
}

// SchemaJSON is the text Prompt counts for a structured-output schema: its
// name and the schema as JSON (map keys sorted, so the same schema always
// gives the same text).
func SchemaJSON(name string, schema map[string]any) string {
	if schema == nil {
		return ""
	}
	b, err := json.Marshal(schema)
	if err != nil {
		return name
	}
	return name + " " + string(b)
}
