// Package agent is gds's agentic search: a main agent
// that plans, lists and picks the documents of one folder, has a sub-agent
// read a whole document (investigate_document), cross-checks with the chunk
// retrieval of `gds ask` (search_evidence), and answers — streaming every
// step as an Event (tool_call, tool_result, chunk, evidence, done).
//
// The package is pure: everything it reads goes through Engine (implemented
// by internal/app over the index) and ai.Provider. Its decision parts are
// separate functions with table tests: Budget (steps, calls per tool,
// tokens, wall clock) and Plan (the offline provider's deterministic
// planner, which runs the same tools in the seed's order and answers with
// an extract of the evidence, labelled as such). With a provider that is an
// ai.ToolCaller the model chooses the tools; tool errors, malformed
// arguments and unknown tools go back to the model as tool results.
package agent
