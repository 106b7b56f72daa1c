package openaitest

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/gds-cli/gds/internal/ai"
)

func isToolCaller(p ai.Provider) bool {
	_, ok := p.(ai.ToolCaller)
	return ok
}

// errAnswered marks a request playTools has already answered (with an
// error body).
var errAnswered = errors.New("answered")

// playTools answers an unscripted chat that offers tools with the
// backend's model (an ai.ToolCaller): text, or tool calls that the server
// numbers. The conversation must be the model's own: every tool call of
// an assistant message is one this server sent, echoed with its id, name
// and arguments unchanged (else 400, naming the message). What the model
// returns is checked against the request as OpenAI's models keep it: no
// call under tool_choice "none", at least one under "required", only the
// forced function when one is named, only offered tools, arguments that
// satisfy the tool's parameters; a model that breaks this is a backend
// bug, answered 500.
func (h *Handler) playTools(x *exchange, c *chatRequest, system string, msgs []ai.Message) ([]ai.ToolCall, string, error) {
	for i, m := range c.Messages {
		for _, tc := range m.ToolCalls {
			h.mu.Lock()
			sent, ok := h.issued[tc.ID]
			h.mu.Unlock()
			switch {
			case !ok:
				x.badRequest(fmt.Sprintf("openaitest: messages.[%d] carries tool call %q, which this server never sent: send back the assistant's tool_calls as they came", i, tc.ID),
					fmt.Sprintf("messages.[%d].tool_calls", i))
				return nil, "", errAnswered
			case sent.Name != tc.Function.Name || sent.Arguments != tc.Function.Arguments:
				x.badRequest(fmt.Sprintf("openaitest: messages.[%d] changes tool call %q (sent %s %s, got back %s %s): send back the assistant's tool_calls as they came",
					i, tc.ID, sent.Name, sent.Arguments, tc.Function.Name, tc.Function.Arguments), fmt.Sprintf("messages.[%d].tool_calls", i))
				return nil, "", errAnswered
			}
		}
	}
	choice, _ := c.toolChoice()
	tools := c.recordedTools()
	tc := h.backend.(ai.ToolCaller)
	rep, err := tc.CallTools(x.r.Context(), ai.Request{Task: ai.TaskAnswer, System: system, Messages: msgs, Tools: tools, ToolChoice: ai.ToolChoice(choice)})
	if err == nil {
		err = checkPlayed(rep, tools, choice)
	}
	if err != nil {
		x.apiError(http.StatusInternalServerError, "server_error", "", "openaitest backend: "+err.Error(), "")
		return nil, "", errAnswered
	}
	calls := make([]ai.ToolCall, len(rep.ToolCalls))
	for i, call := range rep.ToolCalls {
		call.ID = h.nextID("call")
		calls[i] = call
	}
	return calls, rep.Text, nil
}

// checkPlayed checks a played turn against the request's tools and
// tool_choice.
func checkPlayed(rep ai.Reply, tools []ai.Tool, choice string) error {
	switch {
	case choice == string(ai.ToolChoiceNone) && len(rep.ToolCalls) > 0:
		return fmt.Errorf("the model called %s under tool_choice none", rep.ToolCalls[0].Name)
	case choice == string(ai.ToolChoiceRequired) && len(rep.ToolCalls) == 0:
		return errors.New("the model called no tool under tool_choice required")
	case len(rep.ToolCalls) == 0 && rep.Text == "":
		return errors.New("the model wrote nothing and called no tool")
	}
	for _, call := range rep.ToolCalls {
		if choice != "" && choice != "auto" && choice != "none" && choice != "required" && call.Name != choice {
			return fmt.Errorf("the model called %s, but tool_choice forces %s", call.Name, choice)
		}
		i := slices.IndexFunc(tools, func(t ai.Tool) bool { return t.Name == call.Name })
		if i < 0 {
			return fmt.Errorf("the model called %s, which the request does not offer", call.Name)
		}
		var args any
		if err := json.Unmarshal([]byte(call.Arguments), &args); err != nil {
			return fmt.Errorf("the model's arguments for %s are not JSON: %w", call.Name, err)
		}
		if err := Validate(tools[i].Parameters, args); err != nil {
			return fmt.Errorf("the model's arguments for %s break its parameters: %w", call.Name, err)
		}
	}
	return nil
}

// remember notes the tool calls sent, for the echo check of playTools.
func (h *Handler) remember(calls []ai.ToolCall) {
	if len(calls) == 0 {
		return
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, c := range calls {
		h.issued[c.ID] = c
	}
}
