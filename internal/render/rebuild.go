package render

import (
	"fmt"
	"io"
	"sync"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/rebuild"
)

// RebuildSteps prints a rebuild's own steps on ios.Stderr, a line each
// (the crawls print theirs through CrawlProgress).
func RebuildSteps(ios iostreams.IOStreams) rebuild.Progress {
	return &rebuildSteps{w: ios.Stderr, lang: ios.Lang}
}

type rebuildSteps struct {
	mu   sync.Mutex
	w    io.Writer
	lang string
}

func (s *rebuildSteps) line(key i18n.Key, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	fmt.Fprintln(s.w, i18n.T(s.lang, key, args...))
}

func (s *rebuildSteps) SetAside(from, to string) { s.line("rebuild.set_aside", from, to) }

func (s *rebuildSteps) Uploads(n, salvaged int, err error) {
	if err != nil {
		s.line("rebuild.uploads_unsalvaged", n, apperr.Message(err, s.lang))
		return
	}
	s.line("rebuild.uploads", n, salvaged)
}

func (s *rebuildSteps) Upload(name string, i, n int, err error) {
	if err != nil {
		s.line("rebuild.upload_failed", i, n, name, apperr.Message(err, s.lang))
		return
	}
	s.line("rebuild.upload", i, n, name)
}

// RebuildSummary prints the summary of a rebuild: each source's crawl, the
// uploads and what could be read back of them, where the old index went
// and how many files the new one has.
func RebuildSummary(w io.Writer, rep *rebuild.Report, lang string) {
	t := func(k i18n.Key, args ...any) string { return i18n.T(lang, k, args...) }
	CrawlReport(w, rep.Sources, false, lang)
	u := rep.Uploads
	if u.Found > 0 {
		fmt.Fprintln(w, t("rebuild.summary.uploads", u.Indexed, u.Found))
		switch {
		case u.SalvageErr != "":
			fmt.Fprintln(w, "  "+t("rebuild.summary.meta_lost", u.SalvageErr))
		case u.Named < u.Found || u.Described < u.Found:
			fmt.Fprintln(w, "  "+t("rebuild.summary.meta_partial", u.Named, u.Described, u.Found))
		default:
			fmt.Fprintln(w, "  "+t("rebuild.summary.meta_all"))
		}
		for _, p := range u.Failed {
			fmt.Fprintf(w, "  %s (%s): %s\n", p.Name, p.Path, p.Reason)
		}
	}
	if len(u.Ignored) > 0 {
		fmt.Fprintln(w, t("rebuild.summary.ignored", len(u.Ignored)))
	}
	if len(rep.SetAside) > 0 {
		fmt.Fprintln(w, t("rebuild.summary.set_aside", rep.SetAside[len(rep.SetAside)-1]))
	}
	fmt.Fprintln(w, t("rebuild.summary.done", rep.Index, rep.Files))
}

// RebuildDoc is the --json form of a rebuild's report (docs/JSON.md).
type RebuildDoc struct {
	Index    string             `json:"index"`
	Files    int                `json:"files"`
	SetAside []string           `json:"set_aside"`
	Sources  []RebuildSourceDoc `json:"sources"`
	Uploads  RebuildUploadsDoc  `json:"uploads"`
}

// RebuildSourceDoc is one source's crawl in a RebuildDoc.
type RebuildSourceDoc struct {
	Source  string `json:"source"`
	New     int    `json:"new"`
	Skipped int    `json:"skipped"`
	Failed  int    `json:"failed"`
	Error   string `json:"error,omitempty"`
}

// RebuildUploadsDoc is the uploads of a RebuildDoc.
type RebuildUploadsDoc struct {
	Found      int                 `json:"found"`
	Indexed    int                 `json:"indexed"`
	Failed     []RebuildProblemDoc `json:"failed"`
	Ignored    []string            `json:"ignored"`
	Named      int                 `json:"names_recovered"`
	Described  int                 `json:"titles_and_tags_recovered"`
	SalvageErr string              `json:"metadata_unreadable,omitempty"`
}

// RebuildProblemDoc is an upload that could not be indexed again.
type RebuildProblemDoc struct {
	Name   string `json:"name"`
	Stored string `json:"stored_name"`
	Reason string `json:"reason"`
}

// NewRebuildDoc describes rep; lists are never null.
func NewRebuildDoc(rep *rebuild.Report, lang string) RebuildDoc {
	u := rep.Uploads
	doc := RebuildDoc{Index: rep.Index, Files: rep.Files, SetAside: append([]string{}, rep.SetAside...), Sources: []RebuildSourceDoc{},
		Uploads: RebuildUploadsDoc{Found: u.Found, Indexed: u.Indexed, Failed: []RebuildProblemDoc{}, Ignored: append([]string{}, u.Ignored...),
			Named: u.Named, Described: u.Described, SalvageErr: u.SalvageErr}}
	for _, s := range rep.Sources {
		rs := RebuildSourceDoc{Source: s.Source, New: s.Summary.New, Skipped: len(s.Summary.Skipped), Failed: len(s.Summary.Failed)}
		if s.Err != nil {
			rs.Error = apperr.Message(s.Err, lang)
		}
		doc.Sources = append(doc.Sources, rs)
	}
	for _, p := range u.Failed {
		doc.Uploads.Failed = append(doc.Uploads.Failed, RebuildProblemDoc{Name: p.Name, Stored: p.Path, Reason: p.Reason})
	}
	return doc
}

// RebuildResult prints the outcome of a rebuild on w: with asJSON the
// report document (an error document when there is no report), else the
// summary. It returns err, or the error of writing when err is nil.
func RebuildResult(w io.Writer, rep *rebuild.Report, err error, asJSON bool, lang string) error {
	var werr error
	switch {
	case asJSON && rep != nil:
		werr = WriteJSON(w, NewRebuildDoc(rep, lang))
	case asJSON:
		werr = WriteJSON(w, ErrorDoc{Error: NewJSONError(err, lang)})
	case rep != nil:
		RebuildSummary(w, rep, lang)
	}
	if err != nil {
		return err
	}
	return werr
}
