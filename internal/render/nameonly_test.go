package render

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// A name-only entry is marked in --json (name_only, skip_reason) and in the
// terminal (a marker line with the reason, in the user's language); a file
// with content carries neither.
func TestNameOnlyMarked(t *testing.T) {
	photo := store.File{ID: "p", Name: "team-photo-2024.png", MimeType: "image/png", WebLink: "file:///p",
		ModifiedAt: time.Date(2026, 1, 2, 0, 0, 0, 0, time.UTC), SkipReason: "unsupported file type image/png"}
	doc := store.File{ID: "d", Name: "notes.txt", Summary: "team notes", MimeType: "text/plain", WebLink: "file:///d"}
	st := search.NewState("team photo", "en", time.Now(), 5)
	st.End = search.EndResults
	out := search.Outcome{State: st, Results: []search.Result{{File: photo, Score: 1}, {File: doc, Score: 0.5}}}

	var buf bytes.Buffer
	if err := WriteJSON(&buf, NewSearchDoc(out, "", 0, "en")); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Results []map[string]any `json:"results"`
	}
	if err := json.Unmarshal(buf.Bytes(), &got); err != nil || len(got.Results) != 2 {
		t.Fatalf("json: %v, %s", err, buf.String())
	}
	if got.Results[0]["name_only"] != true || got.Results[0]["skip_reason"] != photo.SkipReason {
		t.Errorf("name-only result = %v, want name_only true and its skip_reason", got.Results[0])
	}
	if _, ok := got.Results[1]["name_only"]; ok {
		t.Errorf("content result carries name_only: %v", got.Results[1])
	}

	for lang, marker := range map[string]string{"en": "[name only]", "ja": "[名前のみ]"} {
		buf.Reset()
		SearchText(&buf, out, false, false, lang)
		text := buf.String()
		if strings.Count(text, marker) != 1 || !strings.Contains(text, photo.SkipReason) {
			t.Errorf("%s terminal output:\n%s\nwant one %q line with the reason", lang, text, marker)
		}
	}
}
