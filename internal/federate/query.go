package federate

import (
	"strings"
	"unicode/utf8"
)

// Terms are what a question asks for, independent of any syntax: groups of
// interchangeable words (a keyword and its synonyms, OR-ed), and an
// optional lower date bound (YYYY-MM-DD).
type Terms struct {
	Groups [][]string `json:"groups"`
	After  string     `json:"after"`
}

// Query is the search one service runs.
type Query struct {
	Server string `json:"server"`
	Kind   string `json:"kind"`
	Query  string `json:"query"`
	// By says who wrote it: "llm" or "rules" (offline keyword rules, or the
	// host's fallback when the model's query was unusable).
	By string `json:"by"`
}

// MaxQueryLen bounds a query (GitHub refuses longer ones).
const MaxQueryLen = 256

// maxGitHubOr is GitHub search's limit of OR operators per query.
const maxGitHubOr = 5

// BuildQuery writes terms in the syntax of a service kind:
//
//	drive   the first word of each group (gds's own loop expands them)
//	slack   the first word of each group (Slack search has no OR), after:DATE
//	github  (a OR b) (c OR d) with at most 5 ORs, created:>=DATE
//	files   a glob on the first word, lower-cased: **/*word*
//
// qualifiers are appended as given (they come from servers.yaml).
func BuildQuery(kind string, t Terms, qualifiers string) string {
	groups := cleanGroups(t.Groups)
	var parts []string
	switch kind {
	case KindFiles:
		if len(groups) == 0 {
			return ""
		}
		return "**/*" + globSafe(strings.ToLower(groups[0][0])) + "*"
	case KindSlack:
		for _, g := range groups {
			parts = append(parts, quoteIfSpaced(g[0]))
		}
		if t.After != "" {
			parts = append(parts, "after:"+t.After)
		}
	case KindGitHub:
		ors := 0
		for _, g := range groups {
			var alts []string
			for i, w := range g {
				if i > 0 && ors >= maxGitHubOr {
					break
				}
				if i > 0 {
					ors++
				}
				alts = append(alts, quoteIfSpaced(w))
			}
			if len(alts) == 1 {
				parts = append(parts, alts[0])
			} else {
				parts = append(parts, "("+strings.Join(alts, " OR ")+")")
			}
		}
		if t.After != "" {
			parts = append(parts, "created:>="+t.After)
		}
	default: // drive: gds's loop analyses and expands the words itself
		for _, g := range groups {
			parts = append(parts, g[0])
		}
	}
	if q := strings.TrimSpace(qualifiers); q != "" && kind != KindDrive {
		parts = append(parts, q)
	}
	return cut(strings.Join(parts, " "), MaxQueryLen)
}

// cleanGroups drops empty words and groups, syntax characters a user or a
// model may have put in a word, and duplicate words.
func cleanGroups(groups [][]string) [][]string {
	seen := map[string]bool{}
	var out [][]string
	for _, g := range groups {
		var ws []string
		for _, w := range g {
			w = strings.TrimSpace(strings.Map(func(r rune) rune {
				switch r {
				case '"', '(', ')', ':', '*', '?', '[', ']', '{', '}', '\\':
					return ' '
				}
				return r
			}, w))
			w = strings.Join(strings.Fields(w), " ")
			if w == "" || strings.EqualFold(w, "or") || strings.EqualFold(w, "and") || seen[strings.ToLower(w)] {
				continue
			}
			seen[strings.ToLower(w)] = true
			ws = append(ws, w)
		}
		if len(ws) > 0 {
			out = append(out, ws)
		}
	}
	return out
}

func quoteIfSpaced(w string) string {
	if strings.ContainsAny(w, " \t") {
		return `"` + w + `"`
	}
	return w
}

func globSafe(w string) string { return strings.ReplaceAll(w, " ", "*") }

// cut shortens s to at most n bytes on a word boundary where possible.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := strings.LastIndexByte(s[:n], ' ')
	if i <= 0 {
		i = n
		for i > 0 && !utf8.RuneStart(s[i]) {
			i--
		}
	}
	return strings.TrimSpace(s[:i])
}

// PlanQueries gives every server its query: the model's own query for the
// server when it is usable (non-empty, not too long, no control
// characters), else one built from terms by the server's syntax.
func PlanQueries(servers []Server, t Terms, llm map[string]string) []Query {
	out := make([]Query, 0, len(servers))
	for _, s := range servers {
		q := Query{Server: s.Name, Kind: s.Kind}
		if m, ok := llm[s.Name]; ok && usable(m) && s.Kind != KindFiles {
			q.Query, q.By = m, "llm"
			if qs := strings.TrimSpace(s.Qualifiers); qs != "" && s.Kind != KindDrive && !strings.Contains(m, qs) {
				q.Query = cut(m+" "+qs, MaxQueryLen)
			}
		} else {
			q.Query, q.By = BuildQuery(s.Kind, t, s.Qualifiers), "rules"
		}
		out = append(out, q)
	}
	return out
}

func usable(q string) bool {
	q = strings.TrimSpace(q)
	if q == "" || len(q) > MaxQueryLen {
		return false
	}
	for _, r := range q {
		if r < 0x20 {
			return false
		}
	}
	return true
}

// Suggest proposes alternative queries after a search found nothing
// (FR-SR-04; they are shown, never run automatically): without the date
// bound, with fewer words (the last group dropped), and with only the
// first word.
func Suggest(kind string, t Terms, qualifiers string) []string {
	cur := BuildQuery(kind, t, qualifiers)
	var out []string
	add := func(tt Terms) {
		q := BuildQuery(kind, tt, qualifiers)
		if q != "" && q != cur && !contains(out, q) {
			out = append(out, q)
		}
	}
	g := cleanGroups(t.Groups)
	if t.After != "" {
		add(Terms{Groups: g})
	}
	if len(g) > 1 {
		add(Terms{Groups: g[:len(g)-1]})
	}
	if len(g) > 0 {
		add(Terms{Groups: [][]string{{g[0][0]}}})
	}
	return out
}

func contains(xs []string, x string) bool {
	for _, y := range xs {
		if y == x {
			return true
		}
	}
	return false
}

// Variants are the offline OR-expansion of a keyword: its other English
// number (design ↔ designs, policy ↔ policies) for a lower-case Latin
// word of 4 letters or more (a capitalised word is likely a name: Alpha).
// Nothing is invented for other words; a model brings real synonyms.
func Variants(w string) []string {
	if len(w) < 4 || w[0] >= 'A' && w[0] <= 'Z' {
		return nil
	}
	for _, r := range w {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z') {
			return nil
		}
	}
	lw := strings.ToLower(w)
	switch {
	case strings.HasSuffix(lw, "ies") && len(w) > 4:
		return []string{w[:len(w)-3] + "y"}
	case strings.HasSuffix(lw, "ss"), strings.HasSuffix(lw, "us"), strings.HasSuffix(lw, "is"):
		return nil
	case strings.HasSuffix(lw, "s"):
		return []string{w[:len(w)-1]}
	case strings.HasSuffix(lw, "y") && !strings.ContainsAny(lw[len(lw)-2:len(lw)-1], "aeiou"):
		return []string{w[:len(w)-1] + "ies"}
	case strings.HasSuffix(lw, "x"), strings.HasSuffix(lw, "ch"), strings.HasSuffix(lw, "sh"):
		return []string{w + "es"}
	}
	return []string{w + "s"}
}
