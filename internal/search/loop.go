package search

import (
	"slices"
	"strings"
	"time"
	"unicode"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
)

// Hit-count thresholds of the loop's branches.
const (
	// ClarifyAt is the hit count from which a clarifying question is asked.
	ClarifyAt = 101
	// NarrowAt is the hit count from which vector search narrows the hits.
	NarrowAt = 11
	// Keep is how many candidates vector search keeps.
	Keep = 10
	// NoAnswerKeep is how many top keyword hits the no-answer policy keeps
	// before narrowing: when nobody answers a clarifying question (eval,
	// scripts), the loop continues with the 100 best-ranked keyword hits.
	NoAnswerKeep = 100
)

// Conditions are what one keyword search looks for.
type Conditions struct {
	// Keywords are matched as alternatives (any of them), best first; hits
	// are ranked by relevance. Relaxation drops the last one.
	Keywords []string `json:"keywords"`
	// Required are keywords every hit must contain: the refinements taken
	// from answers to clarifying questions.
	Required []string   `json:"required,omitempty"`
	Filters  ai.Filters `json:"filters"`
	// Sources are the sources searched (State.Sources; none: all). They are
	// the search's scope, never relaxed.
	Sources []string `json:"sources,omitempty"`
}

// Empty reports whether the conditions select nothing at all.
func (c Conditions) Empty() bool {
	return len(c.Keywords) == 0 && len(c.Required) == 0 && c.Filters.IsZero()
}

// Branch is the decision taken on a round's hit count.
type Branch string

// Branches of the loop.
const (
	BranchClarify  Branch = "clarify"   // ≥ 101: ask a question
	BranchNarrow   Branch = "narrow"    // 11–100: vector search, keep 10
	BranchRerank   Branch = "rerank"    // 2–10: rerank and show
	BranchSingle   Branch = "single"    // 1: show it
	BranchRelax    Branch = "relax"     // 0: drop a keyword or loosen a filter
	BranchNotFound Branch = "not_found" // 0 with nothing left to relax
	BranchLoopCap  Branch = "loop_cap"  // ≥ 11 at the loop limit
	BranchNoAnswer Branch = "no_answer" // ≥ 101 and nobody answered: keep the top 100
)

// Round records one loop: the conditions searched, the hit count and the
// branch taken.
type Round struct {
	Loop       int        `json:"loop"`
	Conditions Conditions `json:"conditions"`
	Hits       int        `json:"hits"`
	Branch     Branch     `json:"branch"`
}

// End says how a search ended.
type End string

// Ends of a search.
const (
	EndNone     End = ""          // still running or waiting for an answer
	EndResults  End = "results"   // 1–10 files to show
	EndNotFound End = "not_found" // 「見つかりませんでした」
	EndLoopCap  End = "loop_cap"  // the loop limit was reached with ≥ 11 hits
)

// State is everything the loop knows. It is plain data: it can be saved in
// a token and resumed by another process (--state, Alfred).
type State struct {
	Query    string    `json:"query"`
	Lang     string    `json:"lang"`
	Now      time.Time `json:"now"`
	MaxLoops int       `json:"max_loops"`
	// Scope limits every keyword search to a folder and its subfolders
	// (`gds search --folder`); answers may narrow it, relaxation never
	// leaves it. "" searches everything indexed.
	Scope string `json:"scope,omitempty"`
	// Sources limits every keyword search to the files of these sources
	// (store.Filter.Sources: source keys, a bare kind for all of a kind;
	// `gds search --source`); none searches every source.
	Sources []string `json:"sources,omitempty"`

	Loop     int          `json:"loop"` // keyword searches (and narrowings) done
	Cond     Conditions   `json:"conditions"`
	Rounds   []Round      `json:"rounds"`
	Hits     []string     `json:"hits,omitempty"` // ranked hits of the current round (at most NoAnswerKeep)
	Question *ai.Question `json:"question,omitempty"`
	Answer   string       `json:"answer,omitempty"` // last free-text answer
	End      End          `json:"end,omitempty"`
	Results  []string     `json:"results,omitempty"` // final file IDs, best first
	// FullText is set when no search condition matched and the results
	// are the last resort: the files ranked by the question's own words
	// (full text), shown labelled as such, never as a match.
	FullText bool `json:"full_text,omitempty"`
	// Loosened lists, in order, every condition the search loosened
	// without being asked (relaxation, the full-text last resort): the
	// front ends tell the user each one.
	Loosened []Loosening `json:"loosened,omitempty"`
	// Words are the query's words checked against the index (QueryWords);
	// Unmatched those no indexed file contains, which every front end
	// names. Both are empty when the index could not be asked.
	Words     []string    `json:"words,omitempty"`
	Unmatched []Unmatched `json:"unmatched,omitempty"`
}

// NewState starts a search for query.
func NewState(query, lang string, now time.Time, maxLoops int) State {
	return State{Query: query, Lang: lang, Now: now, MaxLoops: max(maxLoops, 1)}
}

// Done reports whether the search has ended.
func (s State) Done() bool { return s.End != EndNone }

// Waiting reports whether the search waits for an answer to s.Question.
func (s State) Waiting() bool { return s.End == EndNone && s.Question != nil }

// EventKind names what happened.
type EventKind int

// Events fed to Next.
const (
	EvStart     EventKind = iota // begin
	EvAnalyzed                   // Analysis holds the query analysis, Check what the index holds of its words
	EvSearched                   // Hits (ranked, indexed only) and Total
	EvClarified                  // Question holds the clarifying question
	EvAnswered                   // Answer holds the user's answer
	EvNoAnswer                   // nobody will answer (non-interactive)
	EvRefined                    // Refinement holds what the answer yielded
	EvRelaxed                    // Relaxation holds the looser conditions
	EvNarrowed                   // Hits holds the ≤ 10 vector-search survivors
	EvReranked                   // Hits holds the candidates in rerank order
)

// Answer is a user's reply to a clarifying question: a choice index into
// Question.Choices, or free text.
type Answer struct {
	Choice int    `json:"choice"` // -1: free text
	Text   string `json:"text,omitempty"`
}

// Event is an input of Next.
type Event struct {
	Kind     EventKind
	Analysis ai.QueryAnalysis
	// Check is what the index holds of the query's words (EvAnalyzed);
	// nil when they were not looked up.
	Check      *WordCheck
	Hits       []string
	Total      int
	Question   ai.Question
	Answer     Answer
	Refinement ai.Refinement
	Relaxation ai.Relaxation
}

// ActionKind names what the executor must do next.
type ActionKind int

// Actions returned by Next.
const (
	ActAnalyze ActionKind = iota // analyse State.Query
	ActSearch                    // keyword search Cond → EvSearched
	ActClarify                   // ask the AI for a question about Hits → EvClarified
	ActAsk                       // ask the user Question → EvAnswered or EvNoAnswer
	ActRefine                    // turn Answer.Text into a refinement → EvRefined
	ActNarrow                    // vector search restricted to IDs → EvNarrowed
	ActRerank                    // rerank IDs → EvReranked
	ActRelax                     // loosen Cond → EvRelaxed
	ActStop                      // the search ended (State.End) — nothing to do
)

// Action is an output of Next.
type Action struct {
	Kind     ActionKind
	Cond     Conditions
	IDs      []string
	Question *ai.Question
	Answer   string
}

// Next is the hybrid search loop as a pure function: given the state
// and what just happened, it returns the new state and what to do next. It
// performs no I/O, so every branch is tested with plain values.
func Next(s State, ev Event) (State, Action) {
	switch ev.Kind {
	case EvStart:
		return s, Action{Kind: ActAnalyze}

	case EvAnalyzed:
		s.Cond = Conditions{Keywords: slices.Clone(ev.Analysis.Keywords), Filters: ev.Analysis.Filters}
		if ev.Check != nil {
			s = applyCheck(s, *ev.Check)
			if s.NothingMatched() {
				// No file holds any word of the query: nothing to search
				// for (a filter alone would list files the words ruled out).
				s.End = EndNotFound
				return s, Action{Kind: ActStop}
			}
		}
		if s.Cond.Empty() {
			// Nothing to search by: fall back to the raw query as one keyword.
			if q := strings.TrimSpace(s.Query); q != "" {
				s.Cond.Keywords = []string{q}
			}
		}
		return search(s)

	case EvSearched:
		return branch(s, ev.Hits, ev.Total)

	case EvClarified:
		q := ev.Question
		s.Question = &q
		return s, Action{Kind: ActAsk, Question: s.Question}

	case EvAnswered:
		if s.Question == nil {
			return s, Action{Kind: ActStop}
		}
		a := ev.Answer
		if a.Choice >= 0 && a.Choice < len(s.Question.Choices) {
			c := s.Question.Choices[a.Choice]
			return refine(s, ai.Refinement{AddKeyword: c.Keyword, Filters: c.Filters}, c.Label)
		}
		text := strings.TrimSpace(a.Text)
		if text == "" {
			return Next(s, Event{Kind: EvNoAnswer})
		}
		s.Answer = text
		return s, Action{Kind: ActRefine, Answer: text}

	case EvRefined:
		return refine(s, ev.Refinement, ai.Truncate(s.Answer, 40))

	case EvNoAnswer:
		// Documented policy: keep the best-ranked hits and narrow them.
		s.Question = nil
		s.markLast(BranchNoAnswer)
		ids := s.Hits[:min(len(s.Hits), NoAnswerKeep)]
		return s, Action{Kind: ActNarrow, IDs: slices.Clone(ids)}

	case EvRelaxed:
		next := Conditions{Keywords: ev.Relaxation.Keywords, Required: s.Cond.Required, Filters: ev.Relaxation.Filters}
		if !looser(s.Cond, next) {
			// The relaxation made no progress; force one: drop the last
			// keyword, else the filters.
			next = forceRelax(s.Cond)
		}
		if !looser(s.Cond, next) {
			s.End = EndNotFound
			return s, Action{Kind: ActStop}
		}
		s.Loosened = append(s.Loosened, Loosenings(s.Cond, next)...)
		s.Cond = next
		return search(s)

	case EvNarrowed:
		// After a vector narrowing the ≤ 10 candidates are the next loop's hit count.
		s.Loop++
		s.Hits = slices.Clone(ev.Hits)
		s.Rounds = append(s.Rounds, Round{Loop: s.Loop, Conditions: s.within(s.Cond), Hits: len(ev.Hits)})
		return decide(s, len(ev.Hits))

	case EvReranked:
		s.Results = slices.Clone(ev.Hits)
		s.End = EndResults
		return s, Action{Kind: ActStop}
	}
	return s, Action{Kind: ActStop}
}

// search starts the next keyword search.
func search(s State) (State, Action) {
	s.Loop++
	s.Question = nil
	return s, Action{Kind: ActSearch, Cond: s.within(s.Cond)}
}

// branch records a keyword search's result and decides.
func branch(s State, hits []string, total int) (State, Action) {
	total = max(total, len(hits))
	s.Hits = slices.Clone(hits[:min(len(hits), NoAnswerKeep)])
	s.Rounds = append(s.Rounds, Round{Loop: s.Loop, Conditions: s.within(s.Cond), Hits: total})
	return decide(s, total)
}

// decide picks the branch for n hits, with the loop cap.
func decide(s State, n int) (State, Action) {
	atCap := s.Loop >= s.MaxLoops
	switch {
	case n >= NarrowAt && atCap:
		s.markLast(BranchLoopCap)
		s.End = EndLoopCap
		return s, Action{Kind: ActStop}
	case n >= ClarifyAt:
		s.markLast(BranchClarify)
		return s, Action{Kind: ActClarify, IDs: slices.Clone(s.Hits)}
	case n >= NarrowAt:
		s.markLast(BranchNarrow)
		return s, Action{Kind: ActNarrow, IDs: slices.Clone(s.Hits)}
	case n >= 2:
		s.markLast(BranchRerank)
		return s, Action{Kind: ActRerank, IDs: slices.Clone(s.Hits[:min(len(s.Hits), Keep)])}
	case n == 1:
		s.markLast(BranchSingle)
		s.Results = slices.Clone(s.Hits[:1])
		s.End = EndResults
		return s, Action{Kind: ActStop}
	}
	// No hits.
	if !atCap && !relaxable(s.Cond) {
		// Relaxation has run out: a last keyword that is a compound
		// (フランス最大都市, 日本経済) is searched as its parts.
		if c, ok := splitLastKeyword(s.Cond); ok {
			s.markLast(BranchRelax)
			s.Cond = c
			return search(s)
		}
	}
	if atCap || !relaxable(s.Cond) {
		s.markLast(BranchNotFound)
		s.End = EndNotFound
		return s, Action{Kind: ActStop}
	}
	s.markLast(BranchRelax)
	return s, Action{Kind: ActRelax, Cond: s.Cond}
}

// refine applies what an answer yielded and searches again. An answer that
// yields nothing usable becomes a required keyword itself.
func refine(s State, r ai.Refinement, fallback string) (State, Action) {
	next := s.Cond
	next.Required = slices.Clone(next.Required)
	kw := strings.TrimSpace(r.AddKeyword)
	f := mergeFilters(next.Filters, r.Filters)
	if kw == "" && f == next.Filters {
		kw = strings.TrimSpace(fallback)
	}
	if kw != "" && !containsFold(next.Keywords, kw) && !containsFold(next.Required, kw) {
		next.Required = append(next.Required, kw)
	}
	next.Filters = f
	s.Cond = next
	return search(s)
}

// mergeFilters sets the non-empty fields of add on base.
func mergeFilters(base, add ai.Filters) ai.Filters {
	if add.ModifiedAfter != "" || add.ModifiedBefore != "" {
		base.ModifiedAfter, base.ModifiedBefore = add.ModifiedAfter, add.ModifiedBefore
	}
	if add.FileType != "" {
		base.FileType = add.FileType
	}
	if add.Folder != "" {
		base.Folder = add.Folder
	}
	return base
}

// relaxable reports whether a zero-hit search can be loosened:
// ends with one keyword left; gds also loosens filters before giving up.
func relaxable(c Conditions) bool {
	return len(c.Keywords)+len(c.Required) > 1 || !c.Filters.IsZero()
}

// looser reports whether b is a strict loosening of a: it adds nothing
// (its keywords, required keywords and filters are within a's) and drops
// something (a keyword, a filter, or widens the period).
func looser(a, b Conditions) bool {
	for _, k := range b.Keywords {
		if !containsFold(a.Keywords, k) {
			return false
		}
	}
	for _, k := range b.Required {
		if !containsFold(a.Required, k) {
			return false
		}
	}
	if b.Filters.FileType != "" && b.Filters.FileType != a.Filters.FileType {
		return false
	}
	if b.Filters.Folder != "" && !store.InFolder(a.Filters.Folder, b.Filters.Folder) {
		return false // b's folder must contain a's
	}
	if !periodWithin(a.Filters, b.Filters) {
		return false
	}
	samePeriod := a.Filters.ModifiedAfter == b.Filters.ModifiedAfter && a.Filters.ModifiedBefore == b.Filters.ModifiedBefore
	return len(b.Keywords) < len(a.Keywords) || len(b.Required) < len(a.Required) ||
		(a.Filters.FileType != "" && b.Filters.FileType == "") || !samePeriod ||
		store.CleanFolder(a.Filters.Folder) != store.CleanFolder(b.Filters.Folder)
}

// periodWithin reports whether b's period contains a's ("" is unbounded;
// dates are YYYY-MM-DD, so string order is date order).
func periodWithin(a, b ai.Filters) bool {
	lowOK := b.ModifiedAfter == "" || (a.ModifiedAfter != "" && b.ModifiedAfter <= a.ModifiedAfter)
	highOK := b.ModifiedBefore == "" || (a.ModifiedBefore != "" && b.ModifiedBefore >= a.ModifiedBefore)
	return lowOK && highOK
}

// forceRelax drops the least important keyword when there are several,
// else a filter (ai.Loosen: the period, the file type, the folder), else a
// required keyword.
func forceRelax(c Conditions) Conditions {
	kws, f, ok := ai.Loosen(c.Keywords, c.Filters)
	c.Keywords, c.Filters = kws, f
	c.Required = slices.Clone(c.Required)
	if !ok && len(c.Required) > 0 && len(c.Keywords)+len(c.Required) > 1 {
		c.Required = c.Required[:len(c.Required)-1]
	}
	return c
}

// FallBackToFullText ends a search whose conditions matched nothing with
// the last resort: ids, the files ranked by the question's own words
// within the scope only (State.Scope is never loosened). The filters the conditions still held are
// recorded as loosened (the keywords give way to the question's words,
// which State.FullText says).
func (s State) FallBackToFullText(ids []string) State {
	if len(ids) == 0 {
		return s
	}
	s.End, s.Results, s.FullText = EndResults, slices.Clone(ids), true
	s.Loosened = append(s.Loosened, Loosenings(Conditions{Filters: s.Cond.Filters}, Scoped(Conditions{}, s.Scope))...)
	return s
}

func (s *State) markLast(b Branch) {
	if n := len(s.Rounds); n > 0 {
		s.Rounds[n-1].Branch = b
	}
}

func containsFold(xs []string, x string) bool {
	return slices.ContainsFunc(xs, func(y string) bool { return strings.EqualFold(x, y) })
}

// LastBranch is the branch the last round took ("" before any round).
func (s State) LastBranch() Branch {
	if n := len(s.Rounds); n > 0 {
		return s.Rounds[n-1].Branch
	}
	return ""
}

// splitLastKeyword replaces the one keyword of c by its parts (SplitCompound)
// when it has several: the parts are alternatives, so the search can only
// find more. ok is false when there is nothing to split.
func splitLastKeyword(c Conditions) (Conditions, bool) {
	if len(c.Keywords) != 1 || len(c.Required) > 0 {
		return c, false
	}
	parts := SplitCompound(c.Keywords[0])
	if len(parts) < 2 {
		return c, false
	}
	c.Keywords = parts
	return c, true
}

// SplitCompound splits a CJK compound into the words a dictionary-free
// reading can see: at every change between kanji, katakana and Latin
// letters (digits join the run before them), and a kanji run of four or
// more characters into two-character words (the last one takes an odd
// third): フランス最大都市 → フランス, 最大, 都市; 日本経済 → 日本, 経済. Parts of
// one character are dropped. A keyword without CJK, or one that yields
// fewer than two parts, is returned whole.
func SplitCompound(k string) []string {
	type run struct {
		text  []rune
		class int
	}
	const (
		latin = iota + 1
		kanji
		katakana
	)
	classOf := func(r rune) int {
		switch {
		case r == 'ー' || unicode.Is(unicode.Katakana, r):
			return katakana
		case unicode.Is(unicode.Han, r) || r == '々':
			return kanji
		case unicode.IsLetter(r) && !unicode.Is(unicode.Hiragana, r):
			return latin
		case unicode.IsDigit(r):
			return -1 // joins the run before it
		}
		return 0
	}
	var runs []run
	hasCJK := false
	for _, r := range k {
		c := classOf(r)
		if c == kanji || c == katakana {
			hasCJK = true
		}
		switch {
		case c == 0:
			runs = append(runs, run{}) // a separator ends the run
		case c == -1 && len(runs) > 0 && len(runs[len(runs)-1].text) > 0:
			runs[len(runs)-1].text = append(runs[len(runs)-1].text, r)
		case len(runs) > 0 && runs[len(runs)-1].class == c && c != -1:
			runs[len(runs)-1].text = append(runs[len(runs)-1].text, r)
		default:
			runs = append(runs, run{text: []rune{r}, class: c})
		}
	}
	if !hasCJK {
		return []string{k}
	}
	var out []string
	for _, r := range runs {
		if r.class == kanji {
			out = append(out, splitKanji(r.text)...)
		} else if len(r.text) >= 2 {
			out = append(out, string(r.text))
		}
	}
	if len(out) < 2 {
		return []string{k}
	}
	return out
}

// splitKanji splits a kanji run (digits included) into words: a number
// stays with the 第 before it and the counter after it (第41回), and kanji of
// four or more characters are cut into two-character words (the last one
// takes an odd third). Parts of one character are dropped.
func splitKanji(t []rune) []string {
	var out []string
	pure := func(p []rune) {
		if len(p) < 4 {
			if len(p) >= 2 {
				out = append(out, string(p))
			}
			return
		}
		for len(p) >= 2 {
			n := 2
			if len(p) == 3 {
				n = 3
			}
			out = append(out, string(p[:n]))
			p = p[n:]
		}
	}
	for len(t) > 0 {
		d := slices.IndexFunc(t, unicode.IsDigit)
		if d < 0 {
			pure(t)
			break
		}
		start := d
		if start > 0 && t[start-1] == '第' {
			start--
		}
		end := d
		for end < len(t) && unicode.IsDigit(t[end]) {
			end++
		}
		if end < len(t) {
			end++ // the counter
		}
		pure(t[:start])
		out = append(out, string(t[start:end]))
		t = t[end:]
	}
	return out
}
