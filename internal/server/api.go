package server

import (
	"context"
	"errors"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humago"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/search"
)

// RootBody is GET /.
type RootBody struct {
	Message string `json:"message"`
	Version string `json:"version"`
	Docs    string `json:"docs" doc:"the API reference (Swagger UI)"`
	Redoc   string `json:"redoc" doc:"the API reference (ReDoc)"`
	OpenAPI string `json:"openapi" doc:"the OpenAPI 3.1 document"`
	UI      string `json:"ui" doc:"the web UI"`
}

// HealthBody is GET /health.
type HealthBody struct {
	Status     string            `json:"status" enum:"healthy,unhealthy"`
	Components map[string]string `json:"components" doc:"ok, or what failed"`
}

// SearchFilter narrows a search.
type SearchFilter struct {
	Tags        []string `json:"tags,omitempty" doc:"only documents with any of these tags"`
	DocumentIDs []string `json:"document_ids,omitempty" doc:"only these documents"`
}

// SearchRequest is POST /api/v1/search.
type SearchRequest struct {
	Query          string        `json:"query" minLength:"1" maxLength:"2000"`
	TopK           int           `json:"top_k,omitempty" minimum:"1" maximum:"100" default:"5"`
	ScoreThreshold float64       `json:"score_threshold,omitempty" minimum:"0" maximum:"1" default:"0"`
	Filter         *SearchFilter `json:"filter,omitempty"`
}

// ResultMetadata describes the document of a search result.
type ResultMetadata struct {
	Filename   string   `json:"filename"`
	Title      string   `json:"title"`
	PageNumber *int     `json:"page_number"`
	Tags       []string `json:"tags"`
	Account    string   `json:"account,omitempty" doc:"only for a Google Drive file: the Google account it was crawled with (\"default\", or the NAME of gds auth login --account NAME)"`
}

// SearchResult is one chunk found.
type SearchResult struct {
	DocumentID string         `json:"document_id"`
	ChunkID    string         `json:"chunk_id"`
	ChunkIndex int            `json:"chunk_index"`
	Content    string         `json:"content"`
	Score      float64        `json:"score" doc:"fused 0–1 score of full-text and vector retrieval"`
	Metadata   ResultMetadata `json:"metadata"`
	Missing    []string       `json:"missing" doc:"the query's keywords the chunk's document does not contain, in query order (a Japanese compound by its parts); [] when it holds them all"`
}

// SearchResponse is the answer of POST /api/v1/search.
type SearchResponse struct {
	Results []SearchResult `json:"results"`
	Total   int            `json:"total"`
	Query   string         `json:"query"`
	// Unmatched are the query's words no indexed file contains.
	Unmatched []UnmatchedWord `json:"unmatched" doc:"the words of the query no indexed file contains, in query order; [] when every word is found. A query none of whose words any file holds finds nothing."`
	// Corrected says words no file contains were searched as close terms
	// of the index (did you mean); absent otherwise.
	Corrected *Corrected `json:"corrected,omitempty" doc:"only when the search replaced words no file contains by close terms of the index (did you mean)"`
	// Partial says the match is weak; absent otherwise.
	Partial *Partial `json:"partial,omitempty" doc:"only when the match is weak: even the best of the first three results' documents holds less than 60 % of the query's keyword weight (each keyword weighs its inverse document frequency)"`
}

// UnmatchedWord is a word of the query no indexed file contains.
type UnmatchedWord struct {
	Word       string `json:"word"`
	Suggestion string `json:"suggestion,omitempty" doc:"only when there is one: the index's close term searched in the word's place (corrected says so)"`
}

// Corrected is a search whose words no file contains were replaced by
// close terms of the index, with the way back.
type Corrected struct {
	Query   string `json:"query" doc:"the query searched"`
	Instead string `json:"instead" doc:"the query that searches the words as typed (each corrected word in double quotes, which is never corrected): send it as the next query"`
	Message string `json:"message" doc:"the notice in the request's language (Showing results for: … / Search instead for: …), one line each"`
}

// Partial is a weak match.
type Partial struct {
	Words   []string `json:"words" doc:"the keywords the best result's document lacks"`
	Message string   `json:"message" doc:"the notice in the request's language (Weak match: even the best files lack …)"`
}

// ChatMessage is one earlier turn of the conversation.
type ChatMessage struct {
	Role    string `json:"role" enum:"user,assistant"`
	Content string `json:"content" maxLength:"20000"`
}

// ChatRequest is POST /api/v1/chat and /api/v1/chat/stream.
type ChatRequest struct {
	Question       string        `json:"question" minLength:"1" maxLength:"2000"`
	ChatHistory    []ChatMessage `json:"chat_history,omitempty" maxItems:"50"`
	TopK           int           `json:"top_k,omitempty" minimum:"1" maximum:"20" default:"5"`
	ScoreThreshold float64       `json:"score_threshold,omitempty" minimum:"0" maximum:"1" default:"0"`
	// Mode "agentic" (stream only) runs the agent over Folder: SSE frames
	// named by event type (tool_call, tool_result, chunk, evidence, done).
	Mode   string `json:"mode,omitempty" enum:"rag,agentic" default:"rag" doc:"rag: retrieve passages, then answer; agentic (chat/stream only): an agent investigates the folder's documents, streaming every step as named SSE events"`
	Folder string `json:"folder,omitempty" maxLength:"1000" doc:"only the documents in this folder and its subfolders (a path as GET /api/v1/folders lists it; case does not matter); agentic: the folder to investigate. An unknown folder is a 404 naming the closest folders."`
}

// ChatSource is a chunk an answer rests on.
type ChatSource struct {
	DocumentID   string  `json:"document_id"`
	ChunkID      string  `json:"chunk_id"`
	Filename     string  `json:"filename"`
	Title        string  `json:"title"`
	ChunkContent string  `json:"chunk_content"`
	PageNumber   *int    `json:"page_number"`
	Score        float64 `json:"score"`
	Ref          int     `json:"ref" doc:"the [n] citing it in the answer"`
	Quote        string  `json:"quote,omitempty" doc:"the sentence of the chunk the answer cites, with its neighbours"`
}

// ChatResponse is the answer of POST /api/v1/chat.
type ChatResponse struct {
	Answer   string       `json:"answer"`
	Sources  []ChatSource `json:"sources" doc:"the chunks the answer cites"`
	NoAnswer bool         `json:"no_answer" doc:"the answer cites no chunk: none of those retrieved answers the question"`
	Closest  []ChatSource `json:"closest,omitempty" doc:"with no_answer, the chunks retrieved (not sources of the answer)"`
	Question string       `json:"question"`
	// Extractive is true when the answer is quoted from the sources (the
	// offline provider), not written by a model.
	Extractive bool `json:"extractive"`
}

// StreamEvent is one `data:` frame of POST /api/v1/chat/stream.
type StreamEvent struct {
	Content string       `json:"content"`
	Done    bool         `json:"done"`
	Sources []ChatSource `json:"sources"`
	// NoAnswer and Closest are set on the last frame when the answer cites
	// no chunk (ChatResponse).
	NoAnswer bool         `json:"no_answer,omitempty"`
	Closest  []ChatSource `json:"closest,omitempty"`
	// Error is set on the last frame when the answer failed after it began.
	Error *Problem `json:"error,omitempty"`
	// Extractive is set on the last frame when the answer was quoted from
	// the sources (the offline provider), not written by a model.
	Extractive bool `json:"extractive,omitempty"`
}

type bodyOut[T any] struct{ Body T }

type healthOut struct {
	Status int
	Body   HealthBody
}

type chatIn struct{ Body ChatRequest }

var errorStatuses = []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusUnprocessableEntity, http.StatusInternalServerError}

func (s *Server) register() {
	secured := []map[string][]string{{"bearer": {}}}
	// / and /health need no token, and like every path they answer 421 to
	// a request for a host the server is not known by.
	public := []map[string][]string{}
	huma.Register(s.api, huma.Operation{
		OperationID: "root", Method: http.MethodGet, Path: "/", Summary: "About the API",
		Security: public, Errors: []int{http.StatusMisdirectedRequest},
	}, func(ctx context.Context, _ *struct{}) (*bodyOut[RootBody], error) {
		return &bodyOut[RootBody]{Body: RootBody{Message: s.d.WithLang(langOf(ctx)).T("serve.root_message"), Version: s.opts.Version,
			Docs: docsPath, Redoc: redocPath, OpenAPI: specPath, UI: uiPath}}, nil
	})
	huma.Register(s.api, huma.Operation{
		OperationID: "health", Method: http.MethodGet, Path: "/health", Summary: "Check the index and the AI provider",
		Security: public, Errors: []int{http.StatusMisdirectedRequest},
		Responses: map[string]*huma.Response{"503": {Description: "A component failed", Content: map[string]*huma.MediaType{"application/json": {Schema: s.api.OpenAPI().Components.Schemas.Schema(reflectType[HealthBody](), true, "")}}}},
	}, s.health)
	huma.Register(s.api, huma.Operation{
		OperationID: "search", Method: http.MethodPost, Path: "/api/v1/search", Summary: "Search the indexed documents' chunks",
		Description: "The answer also says what the index holds of the query's words, as `gds search --json` does: `unmatched` (words no file contains, each with the close term searched in its place, if any), `corrected` (did you mean, with the way back), `partial` (a weak match) and each result's `missing` keywords.",
		Tags:        []string{"search"}, Security: secured, MaxBodyBytes: MaxJSONBody, Errors: append(errorStatuses, http.StatusConflict),
	}, s.search)
	huma.Register(s.api, huma.Operation{
		OperationID: "chat", Method: http.MethodPost, Path: "/api/v1/chat", Summary: "Answer a question from the documents",
		Tags: []string{"chat"}, Security: secured, MaxBodyBytes: MaxJSONBody, Errors: append(errorStatuses, http.StatusConflict),
	}, s.chat)
	huma.Register(s.api, huma.Operation{
		OperationID: "chat-stream", Method: http.MethodPost, Path: "/api/v1/chat/stream",
		Summary:     "Answer a question, streamed as server-sent events",
		Description: "Each frame is `data: {\"content\", \"done\", \"sources\"}`; the last has done true and the sources.",
		Tags:        []string{"chat"}, Security: secured, MaxBodyBytes: MaxJSONBody, Errors: append(errorStatuses, http.StatusConflict),
		Responses: map[string]*huma.Response{"200": {Description: "A stream of answer frames", Content: map[string]*huma.MediaType{
			"text/event-stream": {Schema: s.api.OpenAPI().Components.Schemas.Schema(reflectType[StreamEvent](), true, "")},
		}}},
	}, s.chatStream)
	s.registerDocuments(secured)
	s.registerFolders(secured)
}

func (s *Server) health(ctx context.Context, _ *struct{}) (*healthOut, error) {
	out := &healthOut{Status: http.StatusOK, Body: HealthBody{Status: "healthy", Components: map[string]string{}}}
	for _, c := range s.d.Health(ctx) {
		if c.Err == nil {
			out.Body.Components[c.Name] = "ok"
			continue
		}
		out.Status, out.Body.Status = http.StatusServiceUnavailable, "unhealthy"
		out.Body.Components[c.Name] = "error: " + shorten(s.paths.redact(apperr.Message(c.Err, langOf(ctx))), maxDetail)
	}
	return out, nil
}

func (s *Server) search(ctx context.Context, in *struct{ Body SearchRequest }) (*bodyOut[SearchResponse], error) {
	d := s.d.WithLang(langOf(ctx))
	req := app.RetrieveRequest{Query: in.Body.Query, TopK: in.Body.TopK, MaxTopK: app.MaxTopK, ScoreThreshold: in.Body.ScoreThreshold}
	if f := in.Body.Filter; f != nil {
		ids, err := s.filterIDs(ctx, f)
		if err != nil {
			return nil, s.problem(ctx, err)
		}
		req.FileIDs = ids
	}
	out := &bodyOut[SearchResponse]{Body: SearchResponse{Results: []SearchResult{}, Query: in.Body.Query, Unmatched: []UnmatchedWord{}}}
	if req.FileIDs != nil && len(req.FileIDs) == 0 {
		return out, nil
	}
	found, err := d.RetrieveWords(ctx, req)
	if errors.Is(err, apperr.NoIndex) {
		return out, nil // nothing indexed yet: nothing found
	}
	if err != nil {
		return nil, s.problem(ctx, err)
	}
	lang := langOf(ctx)
	for _, u := range found.Unmatched() {
		out.Body.Unmatched = append(out.Body.Unmatched, UnmatchedWord{Word: u.Word, Suggestion: u.Suggestion})
	}
	if instead := found.Words.InsteadQuery(); instead != "" {
		out.Body.Corrected = &Corrected{Query: found.Words.SearchQuery(), Instead: instead,
			Message: strings.Join(search.CorrectedText(found.Words, lang), "\n")}
	}
	if len(found.Partial) > 0 {
		out.Body.Partial = &Partial{Words: found.Partial, Message: search.PartialText(found.Partial, lang)}
	}
	srcs := found.Sources
	meta, err := s.docMeta(ctx, srcs)
	if err != nil {
		return nil, s.problem(ctx, err)
	}
	for i, src := range srcs {
		m := meta[src.FileID]
		missing := []string{}
		if i < len(found.Missing) && found.Missing[i] != nil {
			missing = found.Missing[i]
		}
		out.Body.Results = append(out.Body.Results, SearchResult{
			DocumentID: src.FileID, ChunkID: src.ChunkID, ChunkIndex: src.Ordinal, Content: src.Text, Score: src.Score,
			Metadata: ResultMetadata{Filename: src.Name, Title: m.title(src.Name), PageNumber: page(src.Page), Tags: m.tags(), Account: src.Account},
			Missing:  missing,
		})
	}
	out.Body.Total = len(out.Body.Results)
	return out, nil
}

func page(p int) *int {
	if p <= 0 {
		return nil
	}
	return &p
}

// askRequest is the app's request for a chat in folder (as typed).
func askRequest(b ChatRequest, folder string) app.AskRequest {
	req := app.AskRequest{RetrieveRequest: app.RetrieveRequest{Query: b.Question, TopK: b.TopK, MaxTopK: app.MaxAskTopK,
		ScoreThreshold: b.ScoreThreshold, Folder: folder}, NoContext: "serve.no_context"}
	for _, m := range b.ChatHistory {
		req.History = append(req.History, ai.Message{Role: m.Role, Content: m.Content})
	}
	return req
}

func (s *Server) chatSources(ctx context.Context, srcs []app.Source) ([]ChatSource, error) {
	meta, err := s.docMeta(ctx, srcs)
	if err != nil {
		return nil, err
	}
	out := make([]ChatSource, 0, len(srcs))
	for _, src := range srcs {
		out = append(out, ChatSource{
			DocumentID: src.FileID, ChunkID: src.ChunkID, Filename: src.Name, Title: meta[src.FileID].title(src.Name),
			ChunkContent: src.Text, PageNumber: page(src.Page), Score: src.Score, Ref: src.Ref, Quote: src.Quote,
		})
	}
	return out, nil
}

func (s *Server) chat(ctx context.Context, in *chatIn) (*bodyOut[ChatResponse], error) {
	if in.Body.Mode == app.ModeAgentic {
		return nil, s.problem(ctx, apperr.L(apperr.Usage, "agent.stream_only"))
	}
	d := s.d.WithLang(langOf(ctx))
	// The answer resolves the folder as typed (an unknown one: a 404
	// naming the closest).
	res, err := d.Ask(ctx, askRequest(in.Body, in.Body.Folder))
	if err != nil {
		return nil, s.problem(ctx, err)
	}
	srcs, err := s.chatSources(ctx, res.Sources)
	if err != nil {
		return nil, s.problem(ctx, err)
	}
	closest, err := s.chatSources(ctx, res.Closest)
	if err != nil {
		return nil, s.problem(ctx, err)
	}
	return &bodyOut[ChatResponse]{Body: ChatResponse{Answer: res.Answer, Sources: srcs, NoAnswer: res.NoAnswer, Closest: closest,
		Question: res.Question, Extractive: res.Extractive}}, nil
}

// chatStream answers as server-sent events, one frame per piece of the
// answer, flushed at once. An error before the first frame is an ordinary
// problem+json response; after it, the last frame carries the problem.
func (s *Server) chatStream(ctx context.Context, in *chatIn) (*huma.StreamResponse, error) {
	// The folder is resolved before the stream starts: an unknown one is
	// an ordinary 404 problem.
	if _, err := s.d.WithLang(langOf(ctx)).ResolveFolder(ctx, in.Body.Folder); err != nil {
		return nil, s.problem(ctx, err)
	}
	folder := in.Body.Folder // as typed: the answer resolves it again, sources and all
	if in.Body.Mode == app.ModeAgentic {
		return s.agentStream(in.Body, folder), nil
	}
	return &huma.StreamResponse{Body: func(hctx huma.Context) {
		r, w := humago.Unwrap(hctx)
		sse := newSSEWriter(w)
		send := func(ev StreamEvent) error { return sse.Send("", ev) }
		rctx := r.Context()
		req := askRequest(in.Body, folder)
		req.OnText = func(piece string) error {
			if piece == "" {
				return nil
			}
			return send(StreamEvent{Content: piece})
		}
		res, err := s.d.WithLang(langOf(rctx)).Ask(rctx, req)
		var srcs, closest []ChatSource
		if err == nil {
			srcs, err = s.chatSources(rctx, res.Sources)
		}
		if err == nil {
			closest, err = s.chatSources(rctx, res.Closest)
		}
		if err != nil {
			p := s.problem(rctx, err)
			if !sse.Started() {
				writeProblem(w, p)
				return
			}
			_ = send(StreamEvent{Done: true, Sources: []ChatSource{}, Error: p})
			return
		}
		_ = send(StreamEvent{Done: true, Sources: srcs, NoAnswer: res.NoAnswer, Closest: closest, Extractive: res.Extractive})
	}}, nil
}
