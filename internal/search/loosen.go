package search

import (
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
)

// LoosenKind names the condition a loosening changed.
type LoosenKind string

// Kinds of loosening.
const (
	LoosenPeriod   LoosenKind = "period"    // the period filter dropped or widened
	LoosenFileType LoosenKind = "file_type" // the file-type filter dropped
	LoosenFolder   LoosenKind = "folder"    // the folder filter dropped or widened
	LoosenKeyword  LoosenKind = "keyword"   // a keyword dropped
	LoosenRequired LoosenKind = "required"  // a required keyword (from an answer) dropped
)

// Loosening is one condition the search loosened without being asked to:
// a filter read from the query that matched nothing, or a keyword dropped.
// The user is told each one (the loop's relaxation is otherwise silent).
type Loosening struct {
	Kind LoosenKind `json:"kind"`
	// From is the original value: the keyword, the file type, the folder,
	// or the period as "AFTER..BEFORE" (YYYY-MM-DD, after inclusive and
	// before exclusive, either may be empty).
	From string `json:"from"`
	// To is the looser value in the same form; "" when the condition was
	// dropped.
	To string `json:"to,omitempty"`
	// FileType is the file-type filter still in force when the period was
	// loosened ("no 2025 PDFs; showing other years"); "" otherwise.
	FileType string `json:"file_type,omitempty"`
}

// Loosenings lists what b drops or widens of a, in a fixed order: the
// period, the file type, the folder, the keywords, the required keywords.
// It is empty when b is not looser than a in any condition.
func Loosenings(a, b Conditions) []Loosening {
	var out []Loosening
	fa, fb := a.Filters, b.Filters
	if (fa.ModifiedAfter != "" || fa.ModifiedBefore != "") &&
		(fa.ModifiedAfter != fb.ModifiedAfter || fa.ModifiedBefore != fb.ModifiedBefore) {
		l := Loosening{Kind: LoosenPeriod, From: period(fa), FileType: fb.FileType}
		if fb.ModifiedAfter != "" || fb.ModifiedBefore != "" {
			l.To = period(fb)
		}
		out = append(out, l)
	}
	if fa.FileType != "" && fb.FileType != fa.FileType {
		out = append(out, Loosening{Kind: LoosenFileType, From: fa.FileType, To: fb.FileType})
	}
	if from := store.CleanFolder(fa.Folder); from != "" && store.CleanFolder(fb.Folder) != from {
		out = append(out, Loosening{Kind: LoosenFolder, From: from, To: store.CleanFolder(fb.Folder)})
	}
	for _, k := range a.Keywords {
		if !containsFold(b.Keywords, k) {
			out = append(out, Loosening{Kind: LoosenKeyword, From: k})
		}
	}
	for _, k := range a.Required {
		if !containsFold(b.Required, k) {
			out = append(out, Loosening{Kind: LoosenRequired, From: k})
		}
	}
	return out
}

func period(f ai.Filters) string { return f.ModifiedAfter + ".." + f.ModifiedBefore }

// Text says the loosening in the user's language, e.g. "No PDFs from
// 2025; showing other years".
func (l Loosening) Text(lang string) string {
	switch l.Kind {
	case LoosenPeriod:
		from, unit := PeriodText(l.From, lang)
		if l.To != "" {
			to, _ := PeriodText(l.To, lang)
			return i18n.T(lang, "search.loosened.period_widened", from, to)
		}
		if l.FileType != "" {
			return i18n.T(lang, "search.loosened.period_type", from, typeText(l.FileType, lang), i18n.T(lang, unit))
		}
		return i18n.T(lang, "search.loosened.period", from, i18n.T(lang, unit))
	case LoosenFileType:
		return i18n.T(lang, "search.loosened.file_type", typeText(l.From, lang))
	case LoosenFolder:
		if l.To != "" {
			return i18n.T(lang, "search.loosened.folder_widened", l.From, l.To)
		}
		return i18n.T(lang, "search.loosened.folder", l.From)
	case LoosenKeyword, LoosenRequired:
		return i18n.T(lang, "search.loosened.keyword", l.From)
	}
	return string(l.Kind) + ": " + l.From
}

// LoosenedText joins the texts of ls with "; " ("" for none).
func LoosenedText(ls []Loosening, lang string) string {
	parts := make([]string, len(ls))
	for i, l := range ls {
		parts[i] = l.Text(lang)
	}
	sep := "; "
	if lang == i18n.Ja {
		sep = " "
	}
	return strings.Join(parts, sep)
}

// PeriodText says a period "AFTER..BEFORE" in words — a calendar year
// ("2025"), a calendar month ("2025-03"), or its bounds — and the i18n key
// of its unit (other years, other months, other dates).
func PeriodText(p, lang string) (text string, unit i18n.Key) {
	after, before, _ := strings.Cut(p, "..")
	a, errA := time.Parse(ai.DateLayout, after)
	b, errB := time.Parse(ai.DateLayout, before)
	switch {
	case errA == nil && errB == nil:
		if a.Day() == 1 && a.Month() == time.January && b.Equal(a.AddDate(1, 0, 0)) {
			return i18n.T(lang, "search.period.year", a.Year()), "search.loosened.unit.year"
		}
		if a.Day() == 1 && b.Equal(a.AddDate(0, 1, 0)) {
			return i18n.T(lang, "search.period.month", a.Year(), int(a.Month())), "search.loosened.unit.month"
		}
		return i18n.T(lang, "search.period.range", after, b.AddDate(0, 0, -1).Format(ai.DateLayout)), "search.loosened.unit.date"
	case errA == nil:
		return i18n.T(lang, "search.period.after", after), "search.loosened.unit.date"
	case errB == nil:
		return i18n.T(lang, "search.period.before", before), "search.loosened.unit.date"
	}
	return p, "search.loosened.unit.date"
}

// typeText names a file type for a sentence ("PDFs", "spreadsheets").
func typeText(t, lang string) string {
	k := i18n.Key("search.loosened.type." + t)
	if s := i18n.T(lang, k); s != string(k) {
		return s
	}
	return t
}
