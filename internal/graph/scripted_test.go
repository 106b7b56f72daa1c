package graph_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/ai/openaitest"
	"github.com/gds-cli/gds/internal/ai/tokens"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/store"
)

func js(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The real OpenAI client against the test server, with scripted
// structured answers: extraction (and the gleaning pass), reports, map
// points (one malformed), the streamed reduce, DRIFT steps and a local
// answer.
func TestScriptedOpenAI(t *testing.T) {
	ctx := context.Background()
	srv := openaitest.NewServer(t, openaitest.WithAPIKey("sk-test"))
	prov, err := openai.New(openai.Config{APIKey: "sk-test", BaseURL: srv.URL, ChatModel: "gpt-4o-mini",
		EmbeddingModel: "text-embedding-3-small", EmbeddingDim: openaitest.DefaultSimpleDim, Timeout: 10 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	s := backends(t)["sqlite"](t)
	// Three one-chunk files; the store's embedding space is the test server's.
	if err := s.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: "text-embedding-3-small", Dim: openaitest.DefaultSimpleDim}); err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	for i, name := range []string{"alpha.txt", "beta.txt", "gamma.txt"} {
		id := fmt.Sprintf("f%d", i)
		names[id] = name
		text := fmt.Sprintf("Document %s about group %d.", name, i)
		emb := make([]float32, openaitest.DefaultSimpleDim)
		emb[0] = 1
		if err := s.UpsertFile(ctx, store.File{ID: id, Name: name, Text: text, Embedding: emb, WebLink: "file:///docs/" + name, IndexedAt: time.Now()},
			[]store.Chunk{{Ordinal: 0, Text: text, Embedding: emb}}); err != nil {
			t.Fatal(err)
		}
	}
	// Chunks are extracted in scan order (f0, f1, f2) with one call in
	// flight: each gets three connected entities, and the gleaning pass
	// adds nothing.
	for g := range 3 {
		ex := ai.GraphExtraction{}
		for k := range 3 {
			ex.Entities = append(ex.Entities, ai.GraphEntity{Name: fmt.Sprintf("Group%d Member%d", g, k), Type: "person", Description: fmt.Sprintf("Member %d of group %d.", k, g)})
		}
		for k := range 3 {
			ex.Relationships = append(ex.Relationships, ai.GraphRelationship{Source: ex.Entities[k].Name, Target: ex.Entities[(k+1)%3].Name, Description: "works with", Strength: 5})
		}
		srv.Enqueue(openaitest.Reply{Task: ai.TaskGraphExtract, Content: js(t, ex)},
			openaitest.Reply{Task: ai.TaskGraphExtract, Content: `{"entities":[],"relationships":[]}`})
	}
	long := strings.Repeat("The group works on the shared project and meets every week. ", 25)
	srv.ScriptTask(ai.TaskGraphReport, openaitest.Reply{Content: js(t, ai.GraphReport{Title: "A working group", Summary: long, Rating: 7,
		RatingExplanation: "central", Findings: []ai.GraphFinding{{Summary: "meets weekly", Explanation: "every week"}}})})

	b := &graph.Builder{Index: s, Graph: s, Provider: prov, Counter: tokens.O200k, Concurrency: 1}
	st, err := b.Build(ctx, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Entities != 9 || st.Relationships != 9 || st.Communities != 3 || st.ExtractCalls != 6 || st.ReportCalls != 3 {
		t.Fatalf("build: %+v", st)
	}
	var extracts, gleanings int
	for _, r := range srv.RequestsTo(openaitest.PathChat) {
		if r.Task == ai.TaskGraphExtract {
			if !r.Strict || r.Schema != ai.SchemaGraphExtraction().Name {
				t.Errorf("extraction request schema %q strict %v", r.Schema, r.Strict)
			}
			if strings.Contains(r.Messages[len(r.Messages)-1].Content, `"previous"`) {
				gleanings++
			} else {
				extracts++
			}
		}
	}
	if extracts != 3 || gleanings != 3 {
		t.Fatalf("%d extraction and %d gleaning requests, want 3 and 3", extracts, gleanings)
	}

	// Global: every map call answers with one point citing report 0, but
	// the first one is malformed (score 0, as GraphRAG does).
	srv.Reset()
	srv.Enqueue(openaitest.Reply{Task: ai.TaskGraphMap, Content: "Sorry, I cannot produce JSON today."})
	srv.ScriptTask(ai.TaskGraphMap, openaitest.Reply{Content: `{"points":[{"description":"The groups meet weekly [Data: Reports (0, 1)]","score":70},{"description":"noise","score":0}]}`})
	srv.ScriptTask(ai.TaskGraphAnswer, openaitest.Reply{Content: "The groups meet every week [Data: Reports (0, 1)]."})
	se := &graph.Searcher{Graph: s, Index: s, Provider: prov, Counter: tokens.O200k, Lang: "en", Concurrency: 2}
	q := graph.Query{Question: "How often do the groups meet?", Params: graph.DefaultParams(), NoData: "NO DATA"}
	q.MaxContextTokens = 700 // two reports at most per batch
	q.ResponseType = "list"
	var streamed strings.Builder
	q.OnText = func(s string) error { streamed.WriteString(s); return nil }
	res, err := se.Run(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if res.Batches < 2 || res.Calls.Map != res.Batches || res.Calls.MapParseFailures != 1 || res.Calls.Answer != 1 {
		t.Fatalf("global: %d batches, calls %+v; want one map call per batch, one parse failure", res.Batches, res.Calls)
	}
	if streamed.String() != "The groups meet every week [Data: Reports (0, 1)]." || res.Answer != streamed.String() || res.Extractive {
		t.Fatalf("answer %q streamed %q extractive %v", res.Answer, streamed.String(), res.Extractive)
	}
	var reduce *openaitest.Recorded
	maps := 0
	for _, r := range srv.RequestsTo(openaitest.PathChat) {
		switch r.Task {
		case ai.TaskGraphAnswer:
			reduce = &r
		case ai.TaskGraphMap:
			maps++
			if !strings.Contains(r.Messages[len(r.Messages)-1].Content, `id|title|occurrence weight|content|rank`) {
				t.Errorf("map request without the report table")
			}
		}
	}
	if maps != res.Batches || reduce == nil || !reduce.Stream {
		t.Fatalf("%d map requests, reduce %v", maps, reduce)
	}
	user := reduce.Messages[len(reduce.Messages)-1].Content
	if !strings.Contains(user, `Importance Score: 70`) || !strings.Contains(user, `----Analyst `) || strings.Contains(user, "noise") || !strings.Contains(user, `"response_type":"list"`) {
		t.Fatalf("reduce input = %s", user)
	}
	if len(res.References.Reports) != 2 || res.References.Reports[0].ID != "0" || len(res.References.Documents) != 2 {
		t.Fatalf("references = %+v", res.References)
	}
	checkChain(t, res, names)

	// Every map point scores 0: the fixed reply, no reduce call.
	srv.Reset()
	srv.ScriptTask(ai.TaskGraphMap, openaitest.Reply{Content: `{"points":[{"description":"nothing","score":0}]}`})
	res, err = se.Run(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	if !res.NoData || res.Answer != "NO DATA" || res.Calls.Answer != 0 {
		t.Fatalf("all zero scores: %+v", res)
	}

	// DRIFT: the primer folds, one follow-up (the same one every time, asked once), the reduce.
	srv.Reset()
	srv.ScriptTask(ai.TaskGraphDrift, openaitest.Reply{Content: `{"response":"They meet weekly.","score":60,"follow_up_queries":["Who leads group 1?"]}`})
	srv.ScriptTask(ai.TaskGraphAnswer, openaitest.Reply{Content: "Weekly."})
	q.Mode, q.OnText = graph.ModeDrift, nil
	res, err = se.Run(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	// Three reports make three primer folds.
	if res.Answer != "Weekly." || len(res.Steps) != 4 || res.Steps[3].Query != "Who leads group 1?" || res.Steps[3].Depth != 1 || res.Calls.Drift != 4 {
		t.Fatalf("drift: answer %q steps %+v", res.Answer, res.Steps)
	}
	// Local: the context holds the entity table and the chunk text.
	srv.Reset()
	srv.ScriptTask(ai.TaskGraphAnswer, openaitest.Reply{Content: "Member 1."})
	q.Mode = graph.ModeLocal
	res, err = se.Run(ctx, q)
	if err != nil {
		t.Fatal(err)
	}
	var local string
	for _, r := range srv.RequestsTo(openaitest.PathChat) {
		local = r.Messages[len(r.Messages)-1].Content
	}
	if res.Answer != "Member 1." || !strings.Contains(local, "-----Entities-----") || !strings.Contains(local, "Document alpha.txt about group 0.") && !strings.Contains(local, "about group") {
		t.Fatalf("local: answer %q context %s", res.Answer, local)
	}
	checkChain(t, res, names)

	// Queried with another embedding model (the offline one, 512
	// dimensions), local search refuses rather than ranking by noise.
	se.Provider = offline.New()
	if _, err := se.Run(ctx, q); !errors.Is(err, apperr.Index) || !strings.Contains(err.Error(), "gds graph build --full") {
		t.Fatalf("local with another embedding model: %v, want an index error naming gds graph build --full", err)
	}
}
