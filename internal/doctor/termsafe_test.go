package doctor

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
)

// A check's detail and fix quote paths and errors: the text report shows
// their control characters escaped, the JSON report keeps them.
func TestWriteTextIsTerminalSafe(t *testing.T) {
	const path = "/data/evil\x1b]0;PWNED\x07\u202e"
	r := Report{Checks: []Check{{ID: "index", Level: Fail, Title: "index", Detail: "cannot open " + path, Fix: "rm " + path}}}
	var text, js bytes.Buffer
	if err := WriteText(&text, r, i18n.En); err != nil {
		t.Fatal(err)
	}
	if strings.ContainsAny(text.String(), "\x1b\x07\u202e") || !strings.Contains(text.String(), `evil\e]0;PWNED\x07\u202e`) {
		t.Errorf("text report: %q", text.String())
	}
	if err := WriteJSON(&js, r); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(js.String(), `\u001b]0;PWNED\u0007`) {
		t.Errorf("JSON report lost the true text: %s", js.String())
	}
}
