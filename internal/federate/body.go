package federate

import (
	"encoding/csv"
	"encoding/json"
	"strings"
)

// BodyOf is the readable text of a fetch result: the text, body or
// content field of a JSON object (with its title, and comments' bodies),
// the Text column of a CSV thread, else the text as returned.
func BodyOf(out ToolOutput) string {
	raw := jsonOf(out)
	var obj map[string]any
	if json.Unmarshal(raw, &obj) == nil && obj != nil {
		var parts []string
		for _, k := range []string{"title", "name"} {
			if v, ok := obj[k].(string); ok && v != "" {
				parts = append(parts, v)
				break
			}
		}
		for _, k := range []string{"text", "body", "content"} {
			if v, ok := obj[k].(string); ok && v != "" {
				parts = append(parts, v)
				break
			}
		}
		if cs, ok := obj["comments"].([]any); ok {
			for _, c := range cs {
				if m, ok := c.(map[string]any); ok {
					if b, ok := m["body"].(string); ok {
						parts = append(parts, b)
					}
				}
			}
		}
		if len(parts) > 0 {
			return strings.Join(parts, "\n\n")
		}
	}
	text := strings.TrimSpace(out.Text)
	if first, _, _ := strings.Cut(text, "\n"); strings.Contains(first, ",") && strings.Contains(strings.ToLower(first), "text") {
		r := csv.NewReader(strings.NewReader(text))
		r.FieldsPerRecord = -1
		r.LazyQuotes = true
		if rows, err := r.ReadAll(); err == nil && len(rows) > 1 {
			col := -1
			for i, h := range rows[0] {
				if strings.EqualFold(strings.TrimSpace(h), "text") {
					col = i
				}
			}
			if col >= 0 {
				var lines []string
				for _, row := range rows[1:] {
					if col < len(row) && strings.TrimSpace(row[col]) != "" {
						lines = append(lines, strings.TrimSpace(row[col]))
					}
				}
				return strings.Join(lines, "\n")
			}
		}
	}
	return text
}
