package doctor

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render/textwidth"
	"github.com/gds-cli/gds/internal/termsafe"
)

var marks = map[Level]string{OK: "✓", Skip: "-", Warn: "!", Fail: "✗"}

// WriteText prints the report: one line per check, the fix indented under
// each problem, and a summary line.
func WriteText(w io.Writer, r Report, lang string) error {
	width := 0
	for _, c := range r.Checks {
		width = max(width, textwidth.String(c.Title))
	}
	var b strings.Builder
	for _, c := range r.Checks {
		// Details and fixes quote paths and errors: terminal-safe.
		fmt.Fprintf(&b, "%s %s  %s\n", marks[c.Level], textwidth.PadRight(c.Title, width), termsafe.String(c.Detail))
		if c.Fix != "" && (c.Level == Fail || c.Level == Warn) {
			fmt.Fprintf(&b, "  %s%s  %s\n", strings.Repeat(" ", width), i18n.T(lang, "doctor.fix"), termsafe.String(c.Fix))
		}
	}
	fails, warns := r.Counts()
	if r.Healthy && warns == 0 {
		b.WriteString(i18n.T(lang, "doctor.summary.ok") + "\n")
	} else {
		b.WriteString(i18n.T(lang, "doctor.summary", i18n.N(lang, "doctor.n_problems", fails), i18n.N(lang, "doctor.n_warnings", warns)) + "\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON prints the report as one JSON document.
func WriteJSON(w io.Writer, r Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r); err != nil {
		return fmt.Errorf("write the doctor report: %w", err)
	}
	return nil
}
