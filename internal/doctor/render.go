package doctor

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/gds-cli/gds/internal/i18n"
)

var marks = map[Level]string{OK: "✓", Skip: "-", Warn: "!", Fail: "✗"}

// WriteText prints the report: one line per check, the fix indented under
// each problem, and a summary line.
func WriteText(w io.Writer, r Report, lang string) error {
	width := 0
	for _, c := range r.Checks {
		width = max(width, displayWidth(c.Title))
	}
	var b strings.Builder
	for _, c := range r.Checks {
		pad := strings.Repeat(" ", width-displayWidth(c.Title))
		fmt.Fprintf(&b, "%s %s%s  %s\n", marks[c.Level], c.Title, pad, c.Detail)
		if c.Fix != "" && (c.Level == Fail || c.Level == Warn) {
			fmt.Fprintf(&b, "  %s%s  %s\n", strings.Repeat(" ", width), i18n.T(lang, "doctor.fix"), c.Fix)
		}
	}
	fails, warns := r.Counts()
	if r.Healthy && warns == 0 {
		b.WriteString(i18n.T(lang, "doctor.summary.ok") + "\n")
	} else {
		b.WriteString(i18n.T(lang, "doctor.summary", fails, warns) + "\n")
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

// displayWidth counts East Asian wide characters as two columns.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		if r >= 0x1100 && (r <= 0x115f || (r >= 0x2e80 && r <= 0xa4cf) || (r >= 0xac00 && r <= 0xd7a3) || (r >= 0xf900 && r <= 0xfaff) || (r >= 0xff00 && r <= 0xff60) || (r >= 0xffe0 && r <= 0xffe6)) {
			n += 2
		} else {
			n++
		}
	}
	return n
}
