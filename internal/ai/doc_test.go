package ai

import (
	"context"
	"encoding/json"
	"iter"
	"testing"
)

// scripted is a Provider that returns canned JSON per task.
type scripted map[Task]string

func (s scripted) Name() string { return "scripted" }
func (s scripted) Structured(_ context.Context, r Request) (json.RawMessage, error) {
	return json.RawMessage(s[r.Task]), nil
}
func (s scripted) Stream(context.Context, Request) iter.Seq2[Event, error] {
	return func(func(Event, error) bool) {}
}
func (s scripted) Embed(context.Context, []string) ([][]float32, error) { return nil, nil }
func (s scripted) EmbeddingModel(context.Context) EmbeddingModel        { return EmbeddingModel{} }

func TestTaskOutputsAreSanitised(t *testing.T) {
	ctx := context.Background()
	p := scripted{
		TaskAnalyzeQuery: `{"keywords":[" 議事録 ","議事録","a","b","c","d","e"],"filters":{"modified_after":"2024-13-01","modified_before":"2025-01-01","file_type":"PDF"}}`,
		TaskRerank:       `{"order":["b","zzz","b"]}`,
		TaskSummarize:    `{"summary":"あいうえおかきくけこ","keywords":["x"]}`,
		TaskRelax:        `{"keywords":["a","b","c"],"filters":{"modified_after":"2025-01-01","modified_before":"2024-01-01","file_type":""}}`,
		TaskClarify:      `{"question":"  ","choices":[]}`,
	}
	qa, err := AnalyzeQuery(ctx, p, QueryInput{Query: "q"})
	if err != nil {
		t.Fatal(err)
	}
	if len(qa.Keywords) != 5 || qa.Keywords[0] != "議事録" || qa.Keywords[1] != "a" {
		t.Errorf("keywords = %q", qa.Keywords)
	}
	if qa.Filters != (Filters{ModifiedBefore: "2025-01-01", FileType: FileTypePDF}) {
		t.Errorf("filters = %+v", qa.Filters)
	}
	order, err := Rerank(ctx, p, RerankInput{Candidates: []HitInfo{{ID: "a"}, {ID: "b"}, {ID: "c"}}})
	if err != nil || len(order) != 3 || order[0] != "b" || order[1] != "a" || order[2] != "c" {
		t.Errorf("rerank = %q, %v", order, err)
	}
	sum, err := Summarize(ctx, p, DocInput{MaxLength: 5})
	if err != nil || sum.Summary != "あいうえ…" {
		t.Errorf("summary = %q, %v", sum.Summary, err)
	}
	rel, err := Relax(ctx, p, RelaxInput{Keywords: []string{"a", "b"}})
	if err != nil || len(rel.Keywords) != 2 || !rel.Filters.IsZero() {
		t.Errorf("relax = %+v, %v", rel, err)
	}
	if _, err := Clarify(ctx, p, ClarifyInput{}); err == nil {
		t.Error("empty question accepted")
	}
}

func TestMimeTypes(t *testing.T) {
	for _, ft := range FileTypes {
		mts := MimeTypesFor(ft)
		if len(mts) == 0 {
			t.Fatalf("no MIME types for %s", ft)
		}
		for _, mt := range mts {
			if FileTypeOf(mt) != ft {
				t.Errorf("FileTypeOf(%s) = %q, want %q", mt, FileTypeOf(mt), ft)
			}
		}
	}
}
