package scriptfilter

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

// The front's own responses: the prompt for a query in both languages, and
// a message whose text cannot break Alfred's one-line rows.
func TestPromptAndMessage(t *testing.T) {
	for _, lang := range []string{i18n.En, i18n.Ja} {
		var b bytes.Buffer
		if err := Write(&b, Prompt(lang)); err != nil {
			t.Fatal(err)
		}
		var out struct {
			SkipKnowledge bool `json:"skipknowledge"`
			Items         []struct {
				Title string `json:"title"`
				Valid bool   `json:"valid"`
			} `json:"items"`
		}
		if err := json.Unmarshal(b.Bytes(), &out); err != nil || !out.SkipKnowledge || len(out.Items) != 1 || out.Items[0].Valid ||
			out.Items[0].Title != i18n.T(lang, "alfred.empty.title") {
			t.Errorf("%s prompt: %s (%v)", lang, b.String(), err)
		}
	}
	m := Message("", "line one\nline\u202etwo\x00", "")
	if it := m.Items[0]; it.Title != "gds" || it.Subtitle != "line one line two" || it.Text.Copy != it.Subtitle {
		t.Errorf("message item %+v", it)
	}
	var b bytes.Buffer
	if err := Write(&b, Output{}); err != nil || b.String() != "{\"skipknowledge\":false,\"items\":[]}\n" {
		t.Errorf("empty output written as %q, %v", b.String(), err)
	}
}
