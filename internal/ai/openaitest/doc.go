// Package openaitest is an OpenAI-compatible HTTP server for tests and demos.
//
// It speaks the wire protocol the official SDK (github.com/openai/openai-go)
// uses: POST /v1/chat/completions (plain, json_schema structured output and
// SSE streaming), POST /v1/embeddings (batched input, dimensions, float and
// base64 encodings, usage in the model's encoding — cl100k_base for
// OpenAI's embedding models — and their 8191-token limit per input) and
// GET /v1/models, with Bearer authentication and
// OpenAI's error body {"error":{"message","type","param","code"}}.
//
// Unscripted requests are answered by a pluggable Backend ai.Provider: the
// json_schema name of a chat request is mapped back to its ai.Task (the ai
// package's tasks, plus those registered WithTask), the user message (the
// JSON of the typed task input) is decoded into that task's input type —
// for the graph tasks, the parts gds keeps out of the JSON are read back
// from the context tables, as a model reads them — and Backend.Structured,
// Stream or Embed produces the answer. A structured reply is checked
// against the request's schema (Validate) before it is sent. A backend that
// is an ai.ToolCaller plays a tool-using model: a request offering tools
// gets its calls (numbered by the server) or its text, and the next
// request must echo the calls unchanged (internal/ai/openaitest/gdsmodel
// is the model gds's tests play). A chat whose last user message holds
// images (image_url parts with data: URLs, as gds's OCR through the model
// sends them) is answered from WithImageTexts, a fixture keyed by each
// image's SHA-256 (ImageHash); an image without an entry is a 400. Tests
// may instead
// script replies (per task, per path, or in order) and inject faults: HTTP
// status sequences with Retry-After headers, latency, malformed JSON,
// truncated streams and dropped connections. A scripted reply may call
// tools (Reply.ToolCalls, sent verbatim, so malformed arguments and unknown
// tools can be scripted), streamed as OpenAI streams them (tool_calls
// deltas split across chunks) or not. Tools, tool_choice,
// parallel_tool_calls and the tool-call structure of the messages (each
// call answered by one tool message) are validated as OpenAI does. Every
// request is recorded (without its credentials) for assertions, chat
// requests with their messages and tools.
package openaitest
