package server

import (
	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/gds-cli/gds/internal/agent"
	"github.com/gds-cli/gds/internal/app"
)

// agentStream runs the agent and streams its events as server-sent events
// whose `event:` name is the event type and whose data is the event's JSON
// (the same objects `gds ask --mode agentic --json` prints). An error
// before the first event is an ordinary problem+json response; after it,
// an `event: error` frame carries the problem.
func (s *Server) agentStream(b ChatRequest, folder string) *huma.StreamResponse {
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		r, w := humago.Unwrap(hctx)
		sse := newSSEWriter(w)
		rctx := r.Context()
		_, err := s.d.WithLang(langOf(rctx)).Agent(rctx, app.AgentRequest{
			Question: b.Question, Folder: folder,
			Emit: func(ev agent.Event) error { return sse.Send(ev.Type, ev) },
		})
		if err != nil {
			p := s.problem(rctx, err)
			if !sse.Started() {
				writeProblem(w, p)
				return
			}
			_ = sse.Send("error", p)
		}
	}}
}
