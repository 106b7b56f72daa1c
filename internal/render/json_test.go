package render

import (
	"bytes"
	"encoding/json"
	"flag"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render/rendertest"
	"github.com/gds-cli/gds/internal/search"
)

// updateGolden rewrites testdata/*.golden: go test ./internal/render -update
var updateGolden = flag.Bool("update", false, "rewrite the golden files in testdata")

// golden compares got with testdata/name, or rewrites it with -update.
func golden(t *testing.T, name string, got []byte) {
	t.Helper()
	rendertest.Golden(t, "./internal/render", name, got, *updateGolden)
}

// The shared fixtures (internal/render/rendertest).
var (
	fQ3       = rendertest.FQ3
	outcomes  = rendertest.Outcomes
	fakeToken = rendertest.FakeToken
)

func TestSearchJSONGolden(t *testing.T) {
	for name, out := range outcomes() {
		for _, lang := range []string{i18n.En, i18n.Ja} {
			t.Run(name+"-"+lang, func(t *testing.T) {
				var buf bytes.Buffer
				if err := WriteJSON(&buf, NewSearchDoc(out, fakeToken, 10, lang)); err != nil {
					t.Fatal(err)
				}
				golden(t, "search-"+name+"-"+lang+".json.golden", buf.Bytes())
			})
		}
	}
}

func TestSearchJSONShape(t *testing.T) {
	outs := outcomes()
	doc := NewSearchDoc(outs["results"], fakeToken, 1, i18n.En)
	if len(doc.Results) != 1 || doc.Results[0].ID != fQ3.ID || doc.State != "" || doc.Question != nil {
		t.Fatalf("limit 1 results doc = %+v", doc)
	}
	if doc.Results[0].ModifiedTime != "2026-03-14T09:26:53Z" || doc.Results[0].Score != 0.8765 {
		t.Fatalf("result = %+v", doc.Results[0])
	}
	q := NewSearchDoc(outs["question"], fakeToken, 10, i18n.En)
	if q.End != JSONEndQuestion || q.State != fakeToken || len(q.Question.Choices) != 3 || q.Question.Choices[2].Number != 3 || q.Question.Choices[2].Keyword != "budget" {
		t.Fatalf("question doc = %+v", q)
	}
	nf := NewSearchDoc(outs["not_found"], fakeToken, 10, i18n.Ja)
	if nf.End != JSONEndNotFound || nf.Message != "見つかりませんでした" || nf.State != "" {
		t.Fatalf("not found doc = %+v", nf)
	}
	lc := NewSearchDoc(outs["loop_cap"], "", 10, i18n.En)
	if lc.End != JSONEndLoopCap || lc.Message != i18n.T(i18n.En, i18n.LoopLimitReached, 5) {
		t.Fatalf("loop cap doc = %+v", lc)
	}
	// A full-text fallback says so in fallback and message, in the user's language.
	fb := outs["results"]
	fb.State.FullText = true
	if d := NewSearchDoc(fb, "", 10, i18n.Ja); d.End != JSONEndResults || d.Fallback != JSONFallbackFullText || d.Message != i18n.T(i18n.Ja, "search.fulltext_fallback") || len(d.Results) == 0 {
		t.Fatalf("full-text fallback doc = %+v", d)
	}
	if doc.Fallback != "" || doc.Message != "" {
		t.Fatalf("plain results carry a fallback: %+v", doc)
	}
	// Every documented top-level field is always present (stable schema).
	var m map[string]any
	b, _ := json.Marshal(nf)
	json.Unmarshal(b, &m)
	for _, k := range []string{"provider", "query", "end", "message", "results", "rounds"} {
		if _, ok := m[k]; !ok {
			t.Errorf("field %q missing from %s", k, b)
		}
	}
	if _, ok := m["question"]; ok {
		t.Errorf("question present without a pending question: %s", b)
	}
}

func TestErrorJSONGolden(t *testing.T) {
	var buf bytes.Buffer
	doc := ErrorDoc{Error: JSONError{Code: "no_index", Message: "the index is empty: run `gds crawl` first", Hint: "run `gds doctor` to check your setup"}}
	if err := WriteJSON(&buf, doc); err != nil {
		t.Fatal(err)
	}
	golden(t, "search-error.json.golden", buf.Bytes())
	var back ErrorDoc
	if err := json.Unmarshal(buf.Bytes(), &back); err != nil || !reflect.DeepEqual(back, doc) {
		t.Fatalf("round trip: %v %+v", err, back)
	}
}

// A degraded outcome lists its notices under "degraded"; a healthy one
// has no such field (the document is unchanged).
func TestSearchDocDegraded(t *testing.T) {
	out := search.Outcome{State: search.State{Query: "q", End: search.EndNotFound}}
	b, _ := json.Marshal(NewSearchDoc(out, "", 10, i18n.En))
	if strings.Contains(string(b), "degraded") {
		t.Errorf("healthy document has a degraded field: %s", b)
	}
	out.Degraded = []budget.Notice{{Service: budget.Drive, Reason: budget.CauseTimeout, Fallback: budget.FallbackIndex, Limit: 2 * time.Second}}
	doc := NewSearchDoc(out, "", 10, i18n.En)
	if len(doc.Degraded) != 1 || doc.Degraded[0] != (JSONDegraded{Service: "drive", Reason: "timeout", Fallback: "local_index",
		Message: "Drive did not answer within 2s; searched the local index"}) {
		t.Errorf("degraded = %+v", doc.Degraded)
	}
}
