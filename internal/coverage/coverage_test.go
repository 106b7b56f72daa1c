package coverage

import (
	"strings"
	"testing"
	"time"
)

func TestCompare(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	rules := Rules{ReadsType: func(m string) bool { return strings.HasPrefix(m, "text/") || m == "application/pdf" }, MaxBytes: 100}
	l := func(id, name string) Listed {
		return Listed{ID: id, Name: name, MimeType: "text/plain", Size: 10, ModifiedAt: t0}
	}
	ix := func(id, name, mime string, size int64, reason string) Indexed {
		return Indexed{ID: id, Name: name, MimeType: mime, Size: size, ModifiedAt: t0, SkipReason: reason}
	}
	tests := []struct {
		name     string
		listed   []Listed
		refused  []Listed
		indexed  []Indexed
		failures []Failure
		complete int
		want     map[Reason][]string // reason → example names
		details  map[string]string   // example name → detail
	}{
		{name: "empty"},
		{
			name:     "all indexed",
			listed:   []Listed{l("a", "a.txt"), l("b", "b.txt")},
			indexed:  []Indexed{ix("a", "a.txt", "text/plain", 10, ""), ix("b", "b.txt", "text/plain", 10, "")},
			complete: 2,
		},
		{
			name:     "every reason",
			listed:   []Listed{l("ok", "ok.txt"), l("zip", "a.zip"), l("big", "big.pdf"), l("bad", "bad.pdf"), l("new", "new.txt"), l("chg", "chg.txt")},
			indexed:  []Indexed{ix("ok", "ok.txt", "text/plain", 10, ""), ix("zip", "a.zip", "application/zip", 10, "file type is not indexed"), ix("big", "big.pdf", "application/pdf", 500, "too large"), ix("bad", "bad.pdf", "application/pdf", 50, "malformed PDF"), {ID: "chg", Name: "chg.txt", ModifiedAt: t0.Add(-time.Hour)}, ix("old", "old.txt", "text/plain", 10, "")},
			complete: 1,
			want:     map[Reason][]string{SkippedType: {"a.zip"}, TooLarge: {"big.pdf"}, NameOnly: {"bad.pdf"}, NotCrawled: {"new.txt"}, Changed: {"chg.txt"}, Gone: {"old.txt"}},
			details:  map[string]string{"bad.pdf": "malformed PDF", "a.zip": "application/zip"},
		},
		{
			name:     "refused files are skipped types, never gone",
			listed:   []Listed{l("a", "a.txt")},
			refused:  []Listed{{ID: "p", Name: "photo.jpg", MimeType: "image/jpeg"}},
			indexed:  []Indexed{ix("a", "a.txt", "text/plain", 10, ""), ix("p", "photo.jpg", "image/jpeg", 10, "refused")},
			complete: 1,
			want:     map[Reason][]string{SkippedType: {"photo.jpg"}},
		},
		{
			name:    "renamed counts as changed",
			listed:  []Listed{l("a", "b.txt")},
			indexed: []Indexed{ix("a", "a.txt", "text/plain", 10, "")},
			want:    map[Reason][]string{Changed: {"b.txt"}},
		},
		{
			name:     "sub-second time difference is the same time",
			listed:   []Listed{{ID: "a", Name: "a", ModifiedAt: t0.Add(300 * time.Millisecond)}},
			indexed:  []Indexed{{ID: "a", Name: "a", ModifiedAt: t0}},
			complete: 1,
		},
		{
			name:     "a failed file is failed, new or changed, with its reason",
			listed:   []Listed{l("n", "new.pdf"), l("c", "chg.pdf"), l("ok", "ok.txt"), l("f", "fresh.txt")},
			indexed:  []Indexed{{ID: "c", Name: "chg.pdf", ModifiedAt: t0.Add(-time.Hour)}, ix("ok", "ok.txt", "text/plain", 10, "")},
			failures: []Failure{{ID: "n", Kind: "unavailable", Message: "download new.pdf: gave up after 3 tries", Attempts: 2}, {ID: "c", Kind: "error", Message: "read: is a directory", Attempts: 1}, {ID: "ok", Kind: "error", Message: "stale"}, {ID: "gone", Kind: "error"}},
			complete: 1,
			want:     map[Reason][]string{Failed: {"chg.pdf", "new.pdf"}, NotCrawled: {"fresh.txt"}},
			details:  map[string]string{"new.pdf": "download new.pdf: gave up after 3 tries", "chg.pdf": "read: is a directory"},
		},
		{
			name:   "examples are capped and sorted",
			listed: []Listed{l("5", "e"), l("4", "d"), l("3", "c"), l("2", "b"), l("1", "a")},
			want:   map[Reason][]string{NotCrawled: {"a", "b", "c"}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Compare(tt.listed, tt.refused, tt.indexed, tt.failures, rules)
			if r.Listed != len(tt.listed)+len(tt.refused) || r.Indexed != len(tt.indexed) || r.Complete != tt.complete {
				t.Errorf("listed %d indexed %d complete %d, want %d %d %d", r.Listed, r.Indexed, r.Complete, len(tt.listed)+len(tt.refused), len(tt.indexed), tt.complete)
			}
			if len(r.Groups) != len(tt.want) {
				t.Errorf("groups %+v, want %v", r.Groups, tt.want)
			}
			for _, g := range r.Groups {
				var names []string
				for _, e := range g.Examples {
					names = append(names, e.Name)
					if d, ok := tt.details[e.Name]; ok && e.Detail != d {
						t.Errorf("%s: detail %q, want %q", e.Name, e.Detail, d)
					}
				}
				if got, want := strings.Join(names, ","), strings.Join(tt.want[g.Reason], ","); got != want {
					t.Errorf("%s: examples %s, want %s", g.Reason, got, want)
				}
			}
			if tt.name == "examples are capped and sorted" && r.Count(NotCrawled) != 5 {
				t.Errorf("count %d, want 5", r.Count(NotCrawled))
			}
		})
	}
}

func TestActionable(t *testing.T) {
	for _, tt := range []struct {
		r    Reason
		want bool
	}{{SkippedType, false}, {TooLarge, false}, {NameOnly, false}, {Failed, true}, {NotCrawled, true}, {Changed, true}, {Gone, true}} {
		if got := (Result{Groups: []Group{{Reason: tt.r, Count: 1}}}).Actionable(); got != tt.want {
			t.Errorf("%s: actionable %v, want %v", tt.r, got, tt.want)
		}
	}
}

func TestFix(t *testing.T) {
	gone := Result{Groups: []Group{{Reason: Gone, Count: 1}}}
	nameOnly := Result{Groups: []Group{{Reason: NameOnly, Count: 1}}}
	failed := Result{Groups: []Group{{Reason: Failed, Count: 1}, {Reason: NameOnly, Count: 1}}}
	skipped := Result{Groups: []Group{{Reason: SkippedType, Count: 2}, {Reason: TooLarge, Count: 1}}}
	for _, tt := range []struct {
		key  string
		r    Result
		want string
	}{
		{"drive", gone, "gds crawl --source drive"},
		{"drive@work:1AbC", gone, "gds crawl --source drive@work:1AbC"},
		{"local:/data/My Docs", gone, "gds crawl --source 'local:/data/My Docs'"},
		{"local:/data/it's", gone, `gds crawl --source 'local:/data/it'\''s'`},
		{"drive", nameOnly, "gds crawl --full --source drive"},
		{"drive", failed, "gds crawl --source drive"},
		{"drive", skipped, ""},
		{"drive", Result{}, ""},
	} {
		if got := Fix(tt.key, tt.r); got != tt.want {
			t.Errorf("Fix(%q, %+v) = %q, want %q", tt.key, tt.r.Groups, got, tt.want)
		}
	}
}

// A failed file's group counts the failures by kind, keeps each example's
// kind, message and attempts, and is described by kind (in the user's
// language) and message, a long message shortened.
func TestFailedGroup(t *testing.T) {
	t0 := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	long := strings.Repeat("x", 400)
	listed := []Listed{{ID: "a", Name: "a.pdf", Path: "Reports", ModifiedAt: t0}, {ID: "b", Name: "b.pdf", ModifiedAt: t0}, {ID: "c", Name: "c.pdf", ModifiedAt: t0}}
	failures := []Failure{{ID: "a", Kind: "unavailable", Message: "download a.pdf: gave up after 3 tries", Attempts: 3}, {ID: "b", Kind: "unavailable", Message: long}, {ID: "c", Kind: "rate_limited"}}
	r := Compare(listed, nil, nil, failures, Rules{})
	if len(r.Groups) != 1 || r.Groups[0].Reason != Failed || r.Groups[0].Count != 3 {
		t.Fatalf("groups %+v, want 3 failed", r.Groups)
	}
	g := r.Groups[0]
	if g.Kinds["unavailable"] != 2 || g.Kinds["rate_limited"] != 1 || len(g.Kinds) != 2 {
		t.Errorf("kinds %v, want unavailable 2, rate_limited 1", g.Kinds)
	}
	if e := g.Examples[0]; e.Name != "b.pdf" || g.Examples[2].Name != "a.pdf" || g.Examples[2].Kind != "unavailable" || g.Examples[2].Attempts != 3 {
		t.Errorf("examples %+v", g.Examples)
	}
	en := Describe(r, "en")
	for _, want := range []string{"3 failed in the last crawl", "Reports/a.pdf: the source kept failing to answer — download a.pdf: gave up after 3 tries", "c.pdf: rate limited"} {
		if !strings.Contains(en, want) {
			t.Errorf("English %q lacks %q", en, want)
		}
	}
	if strings.Contains(en, long[:describeDetailMax]) || !strings.Contains(en, "…") {
		t.Errorf("a long message is not shortened: %q", en)
	}
	ja := Describe(r, "ja")
	for _, want := range []string{"前回のクロールで失敗 3 件", "ソースが応答に失敗し続けた", "レート制限"} {
		if !strings.Contains(ja, want) {
			t.Errorf("Japanese %q lacks %q", ja, want)
		}
	}
	if got := FailureKind("busy", "en"); got != "error" {
		t.Errorf("a kind without a name: %q, want error", got)
	}
}
