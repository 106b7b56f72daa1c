package offline

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
)

// TestStructuredOutputsMatchSchemas checks every structured task, with
// value and pointer inputs, against the keys its schema requires.
func TestStructuredOutputsMatchSchemas(t *testing.T) {
	p := New()
	hits := []ai.HitInfo{{ID: "a", Name: "x.pdf", MimeType: "application/pdf", Modified: "2025-01-02"},
		{ID: "b", Name: "y", MimeType: "application/vnd.google-apps.presentation", Modified: "2026-01-02"}}
	cases := []struct {
		task   ai.Task
		schema *ai.Schema
		value  any
		ptr    any
	}{
		{ai.TaskAnalyzeQuery, ai.SchemaQueryAnalysis(), ai.QueryInput{Query: "先月の議事録", Now: testNow}, &ai.QueryInput{Query: "x"}},
		{ai.TaskSummarize, ai.SchemaDocSummary(), ai.DocInput{Name: "a.txt", Text: "Hello world. Second.", MaxLength: 50}, &ai.DocInput{Name: "b"}},
		{ai.TaskClarify, ai.SchemaQuestion(), ai.ClarifyInput{Query: "q", Hits: hits, Total: 200}, &ai.ClarifyInput{}},
		{ai.TaskRefine, ai.SchemaRefinement(), ai.RefineInput{Answer: "PDF", Now: testNow}, &ai.RefineInput{Answer: "x"}},
		{ai.TaskRelax, ai.SchemaRelaxation(), ai.RelaxInput{Keywords: []string{"a", "b"}}, &ai.RelaxInput{}},
		{ai.TaskRerank, ai.SchemaRerank(), ai.RerankInput{Query: "x", Candidates: hits}, &ai.RerankInput{}},
	}
	for _, c := range cases {
		for _, in := range []any{c.value, c.ptr} {
			raw, err := p.Structured(context.Background(), ai.Request{Task: c.task, Schema: c.schema, Input: in})
			if err != nil {
				t.Fatalf("%s %T: %v", c.task, in, err)
			}
			checkSchema(t, string(c.task), c.schema.Schema, raw)
		}
	}
}

// checkSchema verifies that raw has exactly the schema's properties, with
// the right JSON types, recursively, and that enums hold.
func checkSchema(t *testing.T, where string, schema map[string]any, raw json.RawMessage) {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("%s: %v", where, err)
	}
	checkValue(t, where, schema, v)
}

func checkValue(t *testing.T, where string, schema map[string]any, v any) {
	t.Helper()
	switch schema["type"] {
	case "object":
		obj, ok := v.(map[string]any)
		if !ok {
			t.Fatalf("%s: %T, want object", where, v)
		}
		props := schema["properties"].(map[string]any)
		if len(obj) != len(props) {
			t.Errorf("%s: keys %v, want %v", where, obj, props)
		}
		for k, ps := range props {
			val, ok := obj[k]
			if !ok {
				t.Errorf("%s: missing %q", where, k)
				continue
			}
			checkValue(t, where+"."+k, ps.(map[string]any), val)
		}
	case "array":
		arr, ok := v.([]any)
		if !ok {
			t.Fatalf("%s: %T, want array (null is not an array)", where, v)
		}
		for i, e := range arr {
			checkValue(t, where+"[]", schema["items"].(map[string]any), e)
			_ = i
		}
	case "string":
		s, ok := v.(string)
		if !ok {
			t.Fatalf("%s: %T, want string", where, v)
		}
		if enum, ok := schema["enum"].([]string); ok && !slices.Contains(enum, s) {
			t.Errorf("%s: %q not in %q", where, s, enum)
		}
	}
}

func TestUnsupportedAndBadInput(t *testing.T) {
	p := New()
	ctx := context.Background()
	if _, err := p.Structured(ctx, ai.Request{Task: ai.TaskAnswer, Input: ai.AnswerInput{}}); !errors.Is(err, ai.ErrUnsupportedTask) {
		t.Errorf("answer as structured: %v", err)
	}
	if _, err := p.Structured(ctx, ai.Request{Task: "nope"}); !errors.Is(err, ai.ErrUnsupportedTask) {
		t.Errorf("unknown task: %v", err)
	}
	if err := ai.StreamText(ctx, p, ai.Request{Task: ai.TaskSummarize, Input: ai.DocInput{}}, func(string) error { return nil }); !errors.Is(err, ai.ErrUnsupportedTask) {
		t.Errorf("summarize as stream: %v", err)
	}
	if _, err := p.Structured(ctx, ai.Request{Task: ai.TaskRelax, Input: ai.QueryInput{}}); !errors.Is(err, ai.ErrInputType) {
		t.Errorf("wrong input type: %v", err)
	}
	if _, err := p.Structured(ctx, ai.Request{Task: ai.TaskRelax, Input: (*ai.RelaxInput)(nil)}); !errors.Is(err, ai.ErrInputType) {
		t.Error("nil pointer input accepted")
	}
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := p.Structured(cancelled, ai.Request{Task: ai.TaskRelax, Input: ai.RelaxInput{}}); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
	if p.Name() != "offline" {
		t.Errorf("name %q", p.Name())
	}
}

// TestQueryPathDoesNotLoadDictionary: every task of the search loop runs
// without loading the 0.7 s morphological dictionary.
func TestQueryPathDoesNotLoadDictionary(t *testing.T) {
	p := New()
	ctx := context.Background()
	hits := []ai.HitInfo{{ID: "a", Name: "議事録", Summary: "先月の定例会議の議事録", MimeType: "application/pdf", Modified: "2026-10-02"},
		{ID: "b", Name: "設計書", Summary: "システム設計", MimeType: "text/plain", Modified: "2025-10-02"}}
	if _, err := ai.AnalyzeQuery(ctx, p, ai.QueryInput{Query: "先月の議事録PDFでプロジェクトアルファの設計書", Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if _, err := ai.Clarify(ctx, p, ai.ClarifyInput{Query: "議事録", Hits: hits, Lang: "ja"}); err != nil {
		t.Fatal(err)
	}
	if _, err := ai.Refine(ctx, p, ai.RefineInput{Answer: "顧客管理システムの件", Now: testNow}); err != nil {
		t.Fatal(err)
	}
	if _, err := ai.Relax(ctx, p, ai.RelaxInput{Keywords: []string{"議事録"}}); err != nil {
		t.Fatal(err)
	}
	if _, err := ai.Rerank(ctx, p, ai.RerankInput{Query: "議事録", Candidates: hits}); err != nil {
		t.Fatal(err)
	}
	if _, err := p.Embed(ctx, []string{"先月の議事録"}); err != nil {
		t.Fatal(err)
	}
	if err := ai.Answer(ctx, p, ai.AnswerInput{Question: "議事録は？", Contexts: []ai.AnswerContext{{Ref: 1, Text: "議事録は共有フォルダにある。"}}, Lang: "ja"},
		func(string) error { return nil }); err != nil {
		t.Fatal(err)
	}
	if p.ja.tok != nil {
		t.Fatal("the query path loaded the Japanese dictionary")
	}
	if _, err := ai.Summarize(ctx, p, ai.DocInput{Name: "a", Text: "先月の議事録です。", MaxLength: 50}); err != nil {
		t.Fatal(err)
	}
	if p.ja.tok == nil {
		t.Fatal("a Japanese summary did not use the dictionary")
	}
}

// testNow is a Saturday: 2026-11-21 10:00 in Japan.
var testNow = time.Date(2026, 11, 21, 10, 0, 0, 0, time.FixedZone("JST", 9*3600))
