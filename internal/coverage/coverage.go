// Package coverage compares, for one crawl source, the files the source
// lists now with the files the index holds, and names every difference by
// its reason: a type gds does not read, a file over the size limit, a file
// indexed by name only (with the stored reason), a file the last crawl
// failed to index (with the failure's kind and message), a file listed
// but not in the index yet, a file changed since it was indexed, and a file the index
// holds that the source no longer lists. Compare is pure; the listing and
// the index are read by the caller (internal/app).
package coverage

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/i18n"
)

// Reason names one kind of difference between a source and the index.
type Reason string

// The reasons, in the order a report lists them.
const (
	// SkippedType: indexed by name only because gds does not read the
	// file's type (an archive, a video, an image without OCR).
	SkippedType Reason = "skipped_type"
	// TooLarge: indexed by name only because the file is over the size
	// limit of what is read.
	TooLarge Reason = "too_large"
	// NameOnly: the content could not be read (malformed, no text, a
	// parser over its time limit, a scan without OCR); Detail of each
	// example is the stored reason.
	NameOnly Reason = "name_only"
	// Failed: the last crawl to try the file could not index it (its
	// download, export or reading failed after the retries, or the model
	// refused it); Kind and Detail of each example are the failure's
	// apperr kind and message. The next crawl tries it again.
	Failed Reason = "failed"
	// NotCrawled: listed by the source, not in the index, no crawl tried
	// it yet (new since the last crawl, or a crawl was interrupted).
	NotCrawled Reason = "not_crawled"
	// Changed: in the index, but the source's copy was modified after.
	Changed Reason = "changed"
	// Gone: in the index, no longer listed by the source (deleted, moved
	// out of the folders, or access lost).
	Gone Reason = "gone"
)

// Reasons is every reason in report order.
var Reasons = []Reason{SkippedType, TooLarge, NameOnly, Failed, NotCrawled, Changed, Gone}

// MaxExamples is the number of example files a Group keeps.
const MaxExamples = 3

// Listed is a file as the source lists it.
type Listed struct {
	ID         string
	Name       string
	Path       string
	MimeType   string
	Size       int64
	ModifiedAt time.Time
}

// Indexed is a file as the index holds it.
type Indexed struct {
	ID         string
	Name       string
	Path       string
	MimeType   string
	Size       int64
	ModifiedAt time.Time
	// SkipReason is set on a name-only entry (store.File.SkipReason).
	SkipReason string
}

// Failure is a listed file the last crawl failed to index
// (store.Failure).
type Failure struct {
	ID string
	// Kind is the apperr kind's code ("unavailable", "error", …).
	Kind     string
	Message  string
	Attempts int
}

// Rules are what the crawl reads, so a name-only entry is told apart by
// its cause without reading its stored reason's text.
type Rules struct {
	// ReadsType reports whether the crawl reads the content of a MIME
	// type; nil reads every type.
	ReadsType func(mimeType string) bool
	// MaxBytes is the size limit of a file read (<= 0: none).
	MaxBytes int64
}

// Example is one file of a Group.
type Example struct {
	Name string `json:"name"`
	Path string `json:"path,omitempty"`
	// Detail is the stored reason of a name-only entry, the message of a
	// failed file.
	Detail string `json:"detail,omitempty"`
	// Kind is the apperr kind's code of a failed file's failure.
	Kind string `json:"kind,omitempty"`
	// Attempts is the number of crawls in a row that failed the file.
	Attempts int `json:"attempts,omitempty"`
}

// Group is the files of one reason.
type Group struct {
	Reason   Reason    `json:"reason"`
	Count    int       `json:"count"`
	Examples []Example `json:"examples"`
	// Kinds counts the failed files by their failure's kind (Failed
	// only).
	Kinds map[string]int `json:"kinds,omitempty"`
}

// Result is the coverage of one source.
type Result struct {
	Listed  int `json:"listed"`  // files the source lists
	Indexed int `json:"indexed"` // files the index holds for the source
	// Complete counts listed files indexed with their content and
	// unchanged since.
	Complete int     `json:"complete"`
	Groups   []Group `json:"differences"`
}

// Count returns the number of files of reason r.
func (r Result) Count(reason Reason) int {
	for _, g := range r.Groups {
		if g.Reason == reason {
			return g.Count
		}
	}
	return 0
}

// Actionable reports whether a crawl would change something: files that
// failed (tried again), not crawled yet, changed or gone. (Skipped types,
// large files and name-only entries stay as they are until the file
// changes.)
func (r Result) Actionable() bool {
	return r.Count(Failed)+r.Count(NotCrawled)+r.Count(Changed)+r.Count(Gone) > 0
}

// sameTime compares modification times at the second, as Drive and file
// systems round them differently.
func sameTime(a, b time.Time) bool {
	return a.Truncate(time.Second).Equal(b.Truncate(time.Second))
}

// Compare returns the coverage of one source from its listing, the
// index's records of it and the failures of its last crawls. refused are
// files the source lists but never offers to a crawl (the Drive source's
// refused types: images, video, archives…): each is a SkippedType. A
// listed file with a failure that the index does not hold as listed is
// Failed; a failure of a file no longer listed is not reported (the next
// crawl forgets it). Examples are the first MaxExamples of each reason by
// path and name, so a report is stable.
func Compare(listed, refused []Listed, indexed []Indexed, failures []Failure, rules Rules) Result {
	byID := make(map[string]Indexed, len(indexed))
	for _, f := range indexed {
		byID[f.ID] = f
	}
	failed := make(map[string]Failure, len(failures))
	for _, f := range failures {
		failed[f.ID] = f
	}
	res := Result{Listed: len(listed) + len(refused), Indexed: len(indexed)}
	groups := map[Reason][]Example{}
	add := func(r Reason, name, path, detail string) {
		groups[r] = append(groups[r], Example{Name: name, Path: path, Detail: detail})
	}
	var kinds map[string]int
	seen := make(map[string]bool, len(listed)+len(refused))
	for _, l := range refused {
		seen[l.ID] = true
		add(SkippedType, l.Name, l.Path, "")
	}
	for _, l := range listed {
		seen[l.ID] = true
		f, ok := byID[l.ID]
		current := ok && sameTime(f.ModifiedAt, l.ModifiedAt) && f.Name == l.Name && f.Path == l.Path
		if fl, bad := failed[l.ID]; bad && !current {
			groups[Failed] = append(groups[Failed], Example{Name: l.Name, Path: l.Path, Detail: fl.Message, Kind: fl.Kind, Attempts: fl.Attempts})
			if kinds == nil {
				kinds = map[string]int{}
			}
			kinds[fl.Kind]++
			continue
		}
		switch {
		case !ok:
			add(NotCrawled, l.Name, l.Path, "")
		case !current:
			add(Changed, l.Name, l.Path, "")
		case f.SkipReason == "":
			res.Complete++
		case rules.ReadsType != nil && !rules.ReadsType(f.MimeType):
			add(SkippedType, f.Name, f.Path, f.MimeType)
		case rules.MaxBytes > 0 && f.Size > rules.MaxBytes:
			add(TooLarge, f.Name, f.Path, "")
		default:
			add(NameOnly, f.Name, f.Path, f.SkipReason)
		}
	}
	for _, f := range indexed {
		if !seen[f.ID] {
			add(Gone, f.Name, f.Path, "")
		}
	}
	for _, r := range Reasons {
		ex := groups[r]
		if len(ex) == 0 {
			continue
		}
		slices.SortFunc(ex, func(a, b Example) int {
			if a.Path != b.Path {
				if a.Path < b.Path {
					return -1
				}
				return 1
			}
			if a.Name < b.Name {
				return -1
			}
			if a.Name > b.Name {
				return 1
			}
			return 0
		})
		g := Group{Reason: r, Count: len(ex), Examples: ex[:min(len(ex), MaxExamples)]}
		if r == Failed {
			g.Kinds = kinds
		}
		res.Groups = append(res.Groups, g)
	}
	return res
}

// Source is the coverage of one configured source, as gds doctor and gds
// db status report it.
type Source struct {
	Source string `json:"source"` // the source key (config.CrawlSource.Key)
	Result
	// Fix is the command that brings the index up to the source ("" when
	// a crawl would change nothing), or, when the source could not be
	// listed because its Google account's sign-in failed, that account's
	// login.
	Fix string `json:"fix,omitempty"`
	// Skipped is set when the source was not listed (a Drive source under
	// --offline).
	Skipped bool `json:"skipped,omitempty"`
	// Error says why the source or its records could not be read.
	Error string `json:"error,omitempty"`
	Err   error  `json:"-"`
}

// Fix is the command that brings the index of source key up to its
// listing: a crawl for files failed, not crawled, changed or gone (a
// failed file is tried again); a full crawl to
// read again the files indexed by name only; "" when a crawl would change
// nothing (skipped types and large files stay as they are).
func Fix(key string, r Result) string {
	switch {
	case r.Actionable():
		return "gds crawl --source " + shellQuote(key)
	case r.Count(NameOnly) > 0:
		return "gds crawl --full --source " + shellQuote(key)
	}
	return ""
}

// shellQuote quotes s for a POSIX shell unless it holds only letters,
// digits and -_./:@,=+.
func shellQuote(s string) string {
	safe := s != ""
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("-_./:@,=+", r)) {
			safe = false
			break
		}
	}
	if safe {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// Describe is a one-line account of r's groups in lang: per reason,
// the count and the example names (a name-only file with its stored
// reason, a failed file with its failure's kind and message).
func Describe(r Result, lang string) string {
	parts := make([]string, 0, len(r.Groups))
	for _, g := range r.Groups {
		names := make([]string, 0, len(g.Examples)+1)
		for _, e := range g.Examples {
			n := e.Name
			if e.Path != "" {
				n = e.Path + "/" + e.Name
			}
			switch {
			case g.Reason == Failed:
				n += ": " + FailureKind(e.Kind, lang)
				if e.Detail != "" {
					n += " — " + shorten(e.Detail, describeDetailMax)
				}
			case e.Detail != "" && g.Reason == NameOnly:
				n += ": " + e.Detail
			}
			names = append(names, n)
		}
		if more := g.Count - len(g.Examples); more > 0 {
			names = append(names, fmt.Sprintf("+%d", more))
		}
		parts = append(parts, i18n.T(lang, i18n.Key("coverage."+string(g.Reason)), g.Count, strings.Join(names, ", ")))
	}
	return strings.Join(parts, i18n.T(lang, "doctor.coverage.sep"))
}

// describeDetailMax is the longest failure message Describe quotes.
const describeDetailMax = 120

// shorten cuts s to at most n runes, ending with "…" when cut.
func shorten(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return strings.TrimSpace(string(r[:n-1])) + "…"
}

// FailureKind names the kind of a failure (an apperr kind's code) in
// lang: "kept failing to answer", "rate limit", …; a kind without a name of
// its own is named as an error.
func FailureKind(code, lang string) string {
	switch code {
	case "unavailable", "rate_limited", "auth", "too_complex", "too_large", "not_found", "index":
		return i18n.T(lang, i18n.Key("coverage.failure."+code))
	}
	return i18n.T(lang, "coverage.failure.error")
}
