package eval

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/tokenize"
)

// HonestOutcome is what one search told the user, as the honest-search
// figures read it.
type HonestOutcome struct {
	Files     []string
	End       string
	Unmatched []search.Unmatched
	FullText  bool
	Partial   bool
	// TopMissing are the query's keywords the first result lacks.
	TopMissing []string
	// Missing are every result's missing keywords; Terms and DocFreq what
	// the weak-match judgement read (search.Weakness), for --details.
	Missing [][]string
	Terms   []string
	DocFreq map[string]int
	Indexed int // indexed files, the weights' reference
}

// SaysWeak reports whether the output says the match is weak or names
// words no file holds: "No files found", a word no file contains, a weak
// (partial) match, or the full-text last resort.
func (o HonestOutcome) SaysWeak() bool {
	return o.End == string(search.EndNotFound) || len(o.Unmatched) > 0 || o.Partial || o.FullText
}

// Names reports whether the output names word as one no file contains
// (with or without a suggestion).
func (o HonestOutcome) Names(word string) bool {
	w := tokenize.Normalize(word)
	for _, u := range o.Unmatched {
		if tokenize.Normalize(u.Word) == w || strings.Contains(tokenize.Normalize(u.Word), w) {
			return true
		}
	}
	return false
}

// Corrects reports whether the output corrected word to original.
func (o HonestOutcome) Corrects(word, original string) bool {
	for _, u := range o.Unmatched {
		if strings.EqualFold(u.Word, word) && u.Suggestion != "" &&
			tokenize.Join(u.Suggestion) == tokenize.Join(original) {
			return true
		}
	}
	return false
}

// HonestLoop runs a query through the hybrid loop as `gds search` does
// without a terminal and reports what it told the user.
type HonestLoop struct {
	Loop     *search.Loop
	Lang     string
	MaxLoops int
	Now      func() time.Time
}

// Search runs one query.
func (h HonestLoop) Search(ctx context.Context, query string) (HonestOutcome, error) {
	now := time.Now
	if h.Now != nil {
		now = h.Now
	}
	out, err := h.Loop.Run(ctx, search.NewState(query, h.Lang, now(), h.MaxLoops))
	if err != nil {
		return HonestOutcome{}, err
	}
	if out.Pending != nil {
		return HonestOutcome{}, fmt.Errorf("the loop left a question pending; eval needs an asker that never answers")
	}
	o := HonestOutcome{End: string(out.State.End), Unmatched: out.State.Unmatched, FullText: out.State.FullText, Partial: len(out.Partial) > 0}
	for i, r := range out.Results {
		o.Files = append(o.Files, r.File.Name)
		o.Missing = append(o.Missing, r.Missing)
		if i == 0 {
			o.TopMissing = r.Missing
		}
	}
	o.Terms, o.DocFreq, o.Indexed = out.Weakness.Terms, out.Weakness.DocFreq, out.Weakness.Files
	return o, nil
}

// HonestFigures are the figures of one derived set. Only the ones that
// apply to the set are set.
type HonestFigures struct {
	Questions int     `json:"questions"`
	R1        float64 `json:"recall_at_1,omitempty"`
	R10       float64 `json:"recall_at_10,omitempty"`
	// CleanR1 and CleanR10 are the same questions' recall as asked
	// (invented-word and one-typo sets: the pair the change is judged by).
	CleanR1  float64 `json:"clean_recall_at_1,omitempty"`
	CleanR10 float64 `json:"clean_recall_at_10,omitempty"`
	// SaysWeak is the share of outputs that say the match is weak or name
	// words no file holds (HonestOutcome.SaysWeak): the target on
	// unanswerable questions, false alarms on clean ones.
	SaysWeak float64 `json:"says_weak"`
	// Named is the share of invented-word outputs naming the word.
	Named float64 `json:"named,omitempty"`
	// Corrected is the share of one-typo outputs that corrected the word
	// to the original.
	Corrected float64 `json:"corrected,omitempty"`
	// NotFound, Unmatched, Partial and FullText break SaysWeak down (one
	// output may count in several).
	NotFound  float64 `json:"not_found"`
	Unmatched float64 `json:"unmatched"`
	Partial   float64 `json:"partial"`
	FullText  float64 `json:"full_text"`
	// TopMissing is the share whose first result lacks a keyword.
	TopMissing float64 `json:"top_missing"`
}

// HonestReport is the report of gds eval --mode honest.
type HonestReport struct {
	Provider     string        `json:"provider"`
	Seed         uint64        `json:"seed"`
	Removed      int           `json:"removed_files"`
	Clean        HonestFigures `json:"clean"`
	Invented     HonestFigures `json:"invented"`
	Typo         HonestFigures `json:"typo"`
	Unanswerable HonestFigures `json:"unanswerable"`
}

// HonestSearcher runs one query (HonestLoop).
type HonestSearcher interface {
	Search(ctx context.Context, query string) (HonestOutcome, error)
}

// HonestDetail is one line of gds eval --mode honest --details: one
// question of a derived set and what the search told the user.
type HonestDetail struct {
	Set      string   `json:"set"` // clean, invented, typo, unanswerable
	ID       string   `json:"id"`
	Query    string   `json:"query"`
	Word     string   `json:"word,omitempty"`
	Original string   `json:"original,omitempty"`
	Relevant []string `json:"relevant"`
	Rank     int      `json:"rank"`
	HonestOutcome
}

// HonestSetNames name the derived sets in details.
var HonestSetNames = [4]string{"clean", "invented", "typo", "unanswerable"}

// RunHonest runs every derived set through s and returns the figures and
// every question's detail.
func RunHonest(ctx context.Context, s HonestSearcher, sets HonestSets, opts Options) (HonestReport, []HonestDetail, error) {
	type item struct {
		set      int // 0 clean, 1 invented, 2 typo, 3 unanswerable; 4, 5: an invented-word or typo question as asked
		q        Query
		word     string
		original string
	}
	var items []item
	for _, q := range sets.Clean {
		items = append(items, item{set: 0, q: q})
	}
	for _, v := range sets.Invented {
		items = append(items, item{set: 1, q: v.Query, word: v.Word})
	}
	for _, v := range sets.Typo {
		items = append(items, item{set: 2, q: v.Query, word: v.Word, original: v.Original})
	}
	for _, q := range sets.Unanswerable {
		items = append(items, item{set: 3, q: q})
	}
	// The changed questions as asked (sets 4 and 5 pair with 1 and 2).
	for _, v := range sets.Invented {
		q := v.Query
		q.Query = v.Asked
		items = append(items, item{set: 4, q: q})
	}
	for _, v := range sets.Typo {
		q := v.Query
		q.Query = v.Asked
		items = append(items, item{set: 5, q: q})
	}
	qs := make([]Query, len(items))
	for i, it := range items {
		qs[i] = it.q
	}
	outs := make([]HonestOutcome, len(items))
	err := forEachQuery(ctx, qs, opts.Workers, opts.Progress, func(ctx context.Context, i int) error {
		o, err := s.Search(ctx, items[i].q.Query)
		outs[i] = o
		return err
	})
	if err != nil {
		return HonestReport{}, nil, err
	}
	var details []HonestDetail
	var figs [4]HonestFigures
	for i, it := range items {
		if it.set >= 4 { // a pair's question as asked
			f := &figs[it.set-3]
			f.CleanR1 += RecallAt(outs[i].Files, it.q.Relevant, 1)
			f.CleanR10 += RecallAt(outs[i].Files, it.q.Relevant, TopK)
			continue
		}
		details = append(details, HonestDetail{Set: HonestSetNames[it.set], ID: it.q.ID, Query: it.q.Query, Word: it.word, Original: it.original,
			Relevant: it.q.Relevant, Rank: Rank(outs[i].Files, it.q.Relevant), HonestOutcome: outs[i]})
	}
	for i, it := range items {
		if it.set >= 4 {
			continue
		}
		f, o := &figs[it.set], outs[i]
		f.Questions++
		if it.set != 3 {
			f.R1 += RecallAt(o.Files, it.q.Relevant, 1)
			f.R10 += RecallAt(o.Files, it.q.Relevant, TopK)
		}
		if o.SaysWeak() {
			f.SaysWeak++
		}
		if it.set == 1 && o.Names(it.word) {
			f.Named++
		}
		if it.set == 2 && o.Corrects(it.word, it.original) {
			f.Corrected++
		}
		if o.End == string(search.EndNotFound) {
			f.NotFound++
		}
		if len(o.Unmatched) > 0 {
			f.Unmatched++
		}
		if o.Partial {
			f.Partial++
		}
		if o.FullText {
			f.FullText++
		}
		if len(o.TopMissing) > 0 {
			f.TopMissing++
		}
	}
	for i := range figs {
		f := &figs[i]
		if f.Questions == 0 {
			continue
		}
		n := float64(f.Questions)
		for _, x := range []*float64{&f.R1, &f.R10, &f.CleanR1, &f.CleanR10, &f.SaysWeak, &f.Named, &f.Corrected, &f.NotFound, &f.Unmatched, &f.Partial, &f.FullText, &f.TopMissing} {
			*x = round4(*x / n)
		}
	}
	return HonestReport{Removed: len(sets.Removed), Clean: figs[0], Invented: figs[1], Typo: figs[2], Unanswerable: figs[3]}, details, nil
}
