package render

import (
	"fmt"
	"io"
	"sort"
	"strings"

	"github.com/gds-cli/gds/internal/eval"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/render/textwidth"
)

// EvalProgress reports query progress on ios.Stderr: a rewritten line on
// a terminal, else a line at every tenth of the set.
func EvalProgress(ios iostreams.IOStreams) func(done, total int) {
	w, tty, lang := ios.Stderr, ios.StderrTTY, ios.Lang
	step := 0
	return func(done, total int) {
		switch {
		case tty:
			fmt.Fprintf(w, "\r%s", i18n.T(lang, "eval.progress", done, total))
			if done == total {
				fmt.Fprintln(w)
			}
		default:
			if step == 0 {
				step = max(total/10, 1)
			}
			if done%step == 0 || done == total {
				fmt.Fprintln(w, i18n.T(lang, "eval.progress", done, total))
			}
		}
	}
}

// EvalReport prints an evaluation report as a small table; corpus names
// the document set.
func EvalReport(w io.Writer, r eval.Report, corpus, lang string) {
	sys := r.System
	if r.Provider != "" {
		sys += " (" + r.Provider + ")"
	}
	fmt.Fprintln(w, i18n.T(lang, "eval.report.title", sys, r.Queries, corpus))
	rows := [][2]string{
		{"Recall@1", fmt.Sprintf("%.3f", r.RecallAt1)},
		{"Recall@10", fmt.Sprintf("%.3f", r.RecallAt10)},
		{"MRR@10", fmt.Sprintf("%.3f", r.MRRAt10)},
		{i18n.T(lang, "eval.report.zero"), fmt.Sprintf("%.3f", r.ZeroResultRate)},
		{i18n.T(lang, "eval.report.loops"), fmt.Sprintf("%.2f", r.MeanLoops)},
		{i18n.T(lang, "eval.report.results"), fmt.Sprintf("%.2f", r.MeanResults)},
		{i18n.T(lang, "eval.report.latency"), fmt.Sprintf("%.1f / %.1f / %.1f ms", r.LatencyMS.P50, r.LatencyMS.P95, r.LatencyMS.Max)},
	}
	if len(r.Ends) > 0 {
		rows = append(rows, [2]string{i18n.T(lang, "eval.report.ends"), counts(r.Ends)})
	}
	if len(r.Branches) > 0 {
		rows = append(rows, [2]string{i18n.T(lang, "eval.report.branches"), counts(r.Branches)})
	}
	table(w, rows, "  ")
}

// table prints two columns, the first padded to its widest cell in
// terminal columns (East Asian wide characters count two).
func table(w io.Writer, rows [][2]string, indent string) {
	width := 0
	for _, row := range rows {
		width = max(width, textwidth.String(row[0]))
	}
	for _, row := range rows {
		fmt.Fprintf(w, "%s%s%s  %s\n", indent, row[0], strings.Repeat(" ", width-textwidth.String(row[0])), row[1])
	}
}

// counts formats a count map as "a 3, b 1", largest first.
func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if m[keys[i]] != m[keys[j]] {
			return m[keys[i]] > m[keys[j]]
		}
		return keys[i] < keys[j]
	})
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return strings.Join(parts, ", ")
}

// EvalAnswerReport prints an answer-mode evaluation: one row per chunk
// system (context recall@5 and @1, the relevant file among the top 5,
// retrieval latency), then the share of answers holding a gold answer.
// corpus names the document set.
func EvalAnswerReport(w io.Writer, r eval.AnswerReport, corpus, lang string) {
	fmt.Fprintln(w, i18n.T(lang, "eval.answer.title", r.Queries, corpus, r.Provider))
	rows := [][]string{{
		i18n.T(lang, "eval.answer.system"), i18n.T(lang, "eval.answer.context_at5"), i18n.T(lang, "eval.answer.context_at1"),
		i18n.T(lang, "eval.answer.file_at5"), i18n.T(lang, "eval.answer.latency"),
	}}
	for _, s := range r.Systems {
		rows = append(rows, []string{s.System, fmt.Sprintf("%.3f", s.ContextRecallAt5), fmt.Sprintf("%.3f", s.ContextRecallAt1),
			fmt.Sprintf("%.3f", s.FileRecallAt5), fmt.Sprintf("%.1f / %.1f", s.LatencyMS.P50, s.LatencyMS.P95)})
	}
	columns(w, rows, "  ")
	if a := r.Answer; a != nil {
		fmt.Fprintln(w, i18n.T(lang, "eval.answer.answers", a.Provider, a.From, a.ContainsAnswer, a.ContainsAnswerGivenContext))
		fmt.Fprintln(w, i18n.T(lang, "eval.answer.shape", a.FirstSentenceContainsAnswer, a.MedianAnswerChars, a.P90AnswerChars, a.Answered, r.Queries))
	}
	fmt.Fprintln(w, i18n.T(lang, "eval.answer.normalization"))
}

// columns prints rows as a table: the first column left-aligned, the
// others right-aligned, each padded to its widest cell in terminal
// columns (East Asian wide characters count two).
func columns(w io.Writer, rows [][]string, indent string) {
	var widths []int
	for _, row := range rows {
		for i, cell := range row {
			if i == len(widths) {
				widths = append(widths, 0)
			}
			widths[i] = max(widths[i], textwidth.String(cell))
		}
	}
	for _, row := range rows {
		var b strings.Builder
		b.WriteString(indent)
		for i, cell := range row {
			pad := strings.Repeat(" ", widths[i]-textwidth.String(cell))
			if i == 0 {
				b.WriteString(cell + pad)
				continue
			}
			b.WriteString("  " + pad + cell)
		}
		fmt.Fprintln(w, b.String())
	}
}

// EvalIndexNote says on w whether the evaluation index was built or
// reused, with its file count and path.
func EvalIndexNote(w io.Writer, lang string) func(reused bool, files int, path string) {
	return func(reused bool, files int, path string) {
		key := i18n.Key("eval.index.built")
		if reused {
			key = "eval.index.reused"
		}
		fmt.Fprintln(w, i18n.T(lang, key, files, path))
	}
}
