package openaitest

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
)

// A model reads gds's graph prompts from their context text alone: the
// tables ("-----Entities-----" with an "id|…" header and "|" rows, newlines
// in a cell written as \n) and the blocks of analysts' points and DRIFT
// answers. withContext gives the backend the same: it fills the parts of
// a graph task's input that gds keeps out of the JSON it sends (the
// offline provider's entity lists, reports and passages) from the context,
// so the offline provider answers the emulated request as it would answer
// gds directly.
func withContext(in any) any {
	switch v := in.(type) {
	case ai.GraphReportInput:
		t := readTables(v.Context)
		for _, row := range t["Entities"] {
			v.Entities = append(v.Entities, row["entity"])
			v.Descriptions = append(v.Descriptions, row["description"])
		}
		v.Relations = len(t["Relationships"])
		return v
	case ai.GraphMapInput:
		for _, row := range readTables(v.Context)["Reports"] {
			r := ai.GraphReportText{ID: row["id"], Title: row["title"]}
			r.Weight, _ = strconv.ParseFloat(row["occurrence weight"], 64)
			r.Rank, _ = strconv.ParseFloat(row["rank"], 64)
			r.Summary, r.Findings = reportParts(row["content"])
			v.Reports = append(v.Reports, r)
		}
		return v
	case ai.GraphDriftInput:
		v.Passages = contextPassages(v.Context)
		return v
	case ai.GraphAnswerInput:
		v.Passages = contextPassages(v.Context)
		return v
	}
	return in
}

var sectionLine = regexp.MustCompile(`^-----([A-Za-z ]+)-----$`)

// readTables parses the "-----Name-----" tables of a context: per table,
// its rows as header → cell.
func readTables(context string) map[string][]map[string]string {
	out := map[string][]map[string]string{}
	var name string
	var header []string
	for _, line := range strings.Split(context, "\n") {
		if m := sectionLine.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			name, header = m[1], nil
			continue
		}
		if name == "" || strings.TrimSpace(line) == "" {
			continue
		}
		cells := strings.Split(line, "|")
		if header == nil {
			header = cells
			continue
		}
		row := map[string]string{}
		for i, h := range header {
			if i < len(cells) {
				// The last column takes any surplus cells back.
				c := cells[i]
				if i == len(header)-1 {
					c = strings.Join(cells[i:], "|")
				}
				row[h] = strings.ReplaceAll(c, `\n`, "\n")
			}
		}
		out[name] = append(out[name], row)
	}
	return out
}

// reportParts splits a report's Markdown content ("# title", the summary,
// then "## finding" headings each followed by its explanation) into its
// summary and the findings' explanations.
func reportParts(content string) (string, []string) {
	var summary string
	var findings []string
	inFinding := false
	for _, p := range strings.Split(content, "\n\n") {
		p = strings.TrimSpace(p)
		switch {
		case p == "" || strings.HasPrefix(p, "# "):
		case strings.HasPrefix(p, "## "):
			inFinding = true
		case inFinding:
			findings = append(findings, p)
			inFinding = false
		case summary == "":
			summary = p
		}
	}
	return summary, findings
}

var (
	pointBlock = regexp.MustCompile(`(?m)^----(Analyst (\d+)|Answer (\d+) \(query: .*\))----\nImportance Score: ([0-9.eE+-]+)\n`)
	dataRef    = regexp.MustCompile(`\s*\[Data:[^\]]*\]`)
	firstRepID = regexp.MustCompile(`(?i)\[Data:\s*Reports\s*\(\s*([^,)\s]+)`)
)

// contextPassages are the texts of a context as a reader quotes them: the
// analysts' points or DRIFT answers of a reduce step (scored by their
// importance), else the tables' rows — source texts first, then reports,
// entity and relationship descriptions, each kind best first.
func contextPassages(context string) []ai.GraphPassage {
	var out []ai.GraphPassage
	if ms := pointBlock.FindAllStringSubmatchIndex(context, -1); len(ms) > 0 {
		for i, m := range ms {
			end := len(context)
			if i+1 < len(ms) {
				end = ms[i+1][0]
			}
			body := strings.TrimSpace(context[m[1]:end])
			score, _ := strconv.ParseFloat(context[m[8]:m[9]], 64)
			p := ai.GraphPassage{Text: strings.TrimSpace(dataRef.ReplaceAllString(body, "")), Score: score}
			switch {
			case m[4] >= 0:
				p.Group = "analyst:" + context[m[4]:m[5]]
				if r := firstRepID.FindStringSubmatch(body); r != nil {
					p.Group = "community:" + r[1]
				}
			default:
				p.Group = "step:" + context[m[6]:m[7]]
			}
			if p.Text != "" {
				out = append(out, p)
			}
		}
		return out
	}
	t := readTables(context)
	add := func(table, column, group string, base float64, text func(map[string]string) string) {
		rows := t[table]
		for i, row := range rows {
			s := row[column]
			if text != nil {
				s = text(row)
			}
			if strings.TrimSpace(s) != "" {
				out = append(out, ai.GraphPassage{Text: s, Group: fmt.Sprintf("%s:%s", group, row["id"]),
					Score: base - float64(i)/float64(len(rows)+1)})
			}
		}
	}
	add("Sources", "text", "chunk", 4, nil)
	add("Reports", "content", "community", 3, func(row map[string]string) string {
		s, f := reportParts(row["content"])
		return strings.Join(append([]string{s}, f...), "\n\n")
	})
	add("Entities", "description", "entity", 2, nil)
	add("Relationships", "description", "relationship", 1, nil)
	return out
}
