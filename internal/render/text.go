package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render/alfred"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/termsafe"
)

// SearchText prints the end of a search for a terminal or a pipe: the
// results (name, folder and date, summary, link; names are OSC 8 links when
// hyperlinks is set), or the seed's end messages. With verbose, every
// round's keywords, filters, hit count and branch come first.
func SearchText(w io.Writer, out search.Outcome, verbose, hyperlinks bool, lang string) {
	s := out.State
	if verbose {
		for _, r := range s.Rounds {
			fmt.Fprintln(w, termsafe.String(i18n.T(lang, "search.round", r.Loop, KeywordsText(r.Conditions), alfred.FiltersText(r.Conditions.Filters, lang), r.Hits, string(r.Branch))))
		}
		fmt.Fprintln(w, i18n.T(lang, "search.provider", out.Provider))
	}
	switch s.End {
	case search.EndNotFound:
		fmt.Fprintln(w, i18n.T(lang, i18n.NoFilesFound))
		for _, n := range NotFoundNotices(s, lang) {
			fmt.Fprintln(w, termsafe.String(n))
		}
		return
	case search.EndLoopCap:
		fmt.Fprintln(w, i18n.T(lang, i18n.LoopLimitReached, s.MaxLoops))
		return
	}
	for _, n := range OutcomeNotices(out, lang) {
		fmt.Fprintln(w, termsafe.String(n))
	}
	labels := sourceLabels(out.Results)
	for i, r := range out.Results {
		f := r.File
		// Names, folders, summaries and links come from the files: shown
		// safe for a terminal (termsafe).
		name, link := termsafe.String(f.Name), termsafe.String(f.WebLink)
		if hyperlinks && f.WebLink != "" {
			name = "\x1b]8;;" + link + "\x1b\\" + name + "\x1b]8;;\x1b\\"
		}
		meta := f.ModifiedAt.Local().Format("2006-01-02")
		if f.Path != "" {
			meta = termsafe.String(f.Path) + " · " + meta
		}
		meta = withSource(labels, i, meta)
		fmt.Fprintf(w, "%2d. %s  (%s)\n", i+1, name, meta)
		if f.Summary != "" {
			fmt.Fprintf(w, "    %s\n", oneLine(f.Summary))
		}
		if f.NameOnly() {
			fmt.Fprintf(w, "    %s\n", i18n.T(lang, "result.name_only", oneLine(f.SkipReason)))
		}
		if f.OCR != "" {
			fmt.Fprintf(w, "    %s\n", i18n.T(lang, "result.ocr", oneLine(f.OCR)))
		}
		if m := search.MissingText(r.Missing, lang); m != "" {
			fmt.Fprintf(w, "    %s\n", termsafe.String(m))
		}
		fmt.Fprintf(w, "    %s\n", link)
	}
}

// KeywordsText lists keywords, required ones marked with "+".
func KeywordsText(c search.Conditions) string {
	parts := append([]string{}, c.Keywords...)
	for _, r := range c.Required {
		parts = append(parts, "+"+r)
	}
	return strings.Join(parts, ", ")
}

// oneLine is s on one line, safe for a terminal.
func oneLine(s string) string {
	return termsafe.String(strings.Join(strings.Fields(s), " "))
}

// DegradedText prints one line per degraded step of a search (to stderr,
// so the results on stdout keep their form).
func DegradedText(w io.Writer, notices []budget.Notice, lang string) {
	for _, n := range notices {
		fmt.Fprintln(w, i18n.T(lang, "budget.notice_prefix")+n.Text(lang))
	}
}

// ResultNotices are the lines said above a search's results, in order: the
// words no file contains, then each condition loosened — or, when the
// results are the full-text last resort, that notice alone (a loosened
// condition's "showing other months" would claim a match the fallback
// says there is not).
func ResultNotices(s search.State, lang string) []string {
	out := WordNotices(s, lang)
	if s.FullText {
		return append(out, i18n.T(lang, "search.fulltext_fallback"))
	}
	for _, l := range s.Loosened {
		out = append(out, l.Text(lang))
	}
	return out
}

// NotFoundNotices are the lines said under "No files found": the words no
// file contains, else the words that were searched for.
func NotFoundNotices(s search.State, lang string) []string {
	if ws := WordNotices(s, lang); len(ws) > 0 {
		return ws
	}
	if len(s.Rounds) > 0 {
		if kws := s.Rounds[0].Conditions.Keywords; len(kws) > 0 {
			return []string{i18n.T(lang, "search.tried", search.QuoteWords(kws, lang))}
		}
	}
	return nil
}

// OutcomeNotices are ResultNotices followed by the weak-match notice of a
// partial match (search.Outcome.Partial).
func OutcomeNotices(out search.Outcome, lang string) []string {
	ns := ResultNotices(out.State, lang)
	if t := search.PartialText(out.Partial, lang); t != "" {
		ns = append(ns, t)
	}
	return ns
}

// WordNotices are the lines about the query's own words, said first
// wherever a search ends (results, not found, a question): the query the
// search ran instead of the one typed and the way back (did you mean),
// then the words no file contains.
func WordNotices(s search.State, lang string) []string {
	out := search.CorrectedText(s, lang)
	if t := search.UnmatchedText(s.Unmatched, lang); t != "" {
		out = append(out, t)
	}
	return out
}
