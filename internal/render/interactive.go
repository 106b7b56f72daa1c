package render

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"github.com/pterm/pterm"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/render/alfred"
	"github.com/gds-cli/gds/internal/render/textwidth"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/termsafe"
)

// LineReader reads one line of user input. ReadLine returns the line
// without its line ending, io.EOF when the input ended (Ctrl-D on a
// terminal) and ctx's error when ctx ends first.
type LineReader interface {
	ReadLine(ctx context.Context) (string, error)
}

// Lines is a LineReader over an io.Reader that can be abandoned: a read
// cancelled by its context stays in flight, and the next ReadLine gets its
// line. So a prompt interrupted by Ctrl-C never loses or duplicates input,
// and several prompts (REPL, clarifying question) share one terminal.
// ReadLine must not be called concurrently.
type Lines struct {
	r       *bufio.Reader
	pending chan lineResult // the read in flight, if any
}

type lineResult struct {
	line string
	err  error
}

// NewLines returns a Lines reading from r.
func NewLines(r io.Reader) *Lines { return &Lines{r: bufio.NewReader(r)} }

// ReadLine implements LineReader.
func (l *Lines) ReadLine(ctx context.Context) (string, error) {
	if l.pending == nil {
		ch := make(chan lineResult, 1)
		l.pending = ch
		go func() {
			s, err := l.r.ReadString('\n')
			ch <- lineResult{s, err}
		}()
	}
	select {
	case res := <-l.pending:
		l.pending = nil
		if res.err != nil && res.line == "" {
			return "", res.err
		}
		return strings.TrimRight(res.line, "\r\n"), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// Spinner shows that a step is running, on one line that is replaced.
type Spinner interface {
	// Update replaces the text.
	Update(text string)
	// Stop removes the spinner line.
	Stop()
}

// PtermSpinner starts a pterm spinner with text on w (a terminal).
func PtermSpinner(w io.Writer, text string) Spinner {
	sp, err := pterm.DefaultSpinner.WithWriter(w).WithRemoveWhenDone(true).WithShowTimer(false).Start(text)
	if err != nil {
		return noSpinner{}
	}
	return ptermSpinner{sp}
}

type ptermSpinner struct{ sp *pterm.SpinnerPrinter }

func (p ptermSpinner) Update(text string) { p.sp.UpdateText(text) }
func (p ptermSpinner) Stop()              { _ = p.sp.Stop() }

type noSpinner struct{}

func (noSpinner) Update(string) {}
func (noSpinner) Stop()         {}

// Interactive renders a search on a terminal: a spinner naming each step
// and, with Verbose, every round as it completes, on Err; the clarifying
// question as a prompt on Err read from Lines; the results as a readable
// list on Out. Use Step as search.Loop.OnStep and the Interactive itself
// as the loop's search.Asker; call Begin before and Finish (or Stop) after
// each search. It is not safe for concurrent searches.
type Interactive struct {
	Out   io.Writer // results
	Err   io.Writer // spinners, verbose rounds, the question
	Lines LineReader
	Lang  string
	// Verbose prints each round's keywords, required keywords, filters,
	// hit count and branch as the round completes.
	Verbose bool
	// Hyperlinks makes names and links OSC 8 hyperlinks.
	Hyperlinks bool
	// Color styles the output with ANSI SGR codes (bold names, dim meta).
	Color bool
	// Width is the terminal width in columns; summaries wrap to it (≤ 0: 80).
	Width int
	// Drive says the keyword search runs against Google Drive (the spinner
	// says "Searching Google Drive") rather than the local index.
	Drive bool
	// StartSpinner starts a spinner on Err; nil shows no spinner.
	StartSpinner func(w io.Writer, text string) Spinner

	mu      sync.Mutex
	spin    Spinner
	printed int  // rounds already printed by Verbose
	named   bool // the query's unmatched words were said before a question
}

var _ search.Asker = (*Interactive)(nil)

// NewInteractive builds the renderer of a search on ios: results on
// stdout, with its colours and hyperlinks, wrapped at its width when it is
// a terminal; steps, rounds (verbose) and the question on stderr, read
// from stdin; spinners (PtermSpinner) when both stdout and stderr are
// terminals.
func NewInteractive(ios iostreams.IOStreams, verbose bool) *Interactive {
	r := &Interactive{Out: ios.Stdout, Err: ios.Stderr, Lines: NewLines(ios.Stdin), Lang: ios.Lang, Verbose: verbose,
		Hyperlinks: ios.Hyperlinks, Color: ios.Color}
	if ios.StdoutTTY {
		r.Width = ios.Width
		if ios.StderrTTY {
			r.StartSpinner = PtermSpinner
		}
	}
	return r
}

// Begin resets the per-search state.
func (r *Interactive) Begin() {
	r.Stop()
	r.mu.Lock()
	r.printed = 0
	r.named = false
	r.mu.Unlock()
}

// Step reports the start of a step of the loop (search.Loop.OnStep).
func (r *Interactive) Step(st search.Step, s search.State) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.flushRounds(s)
	if st == search.StepAsk {
		// The question takes over the line.
		r.stopLocked()
		return
	}
	text := StepText(st, s, r.Drive, r.Lang)
	switch {
	case r.StartSpinner == nil:
	case r.spin == nil:
		r.spin = r.StartSpinner(r.Err, text)
	default:
		r.spin.Update(text)
	}
}

// StepText is the spinner text of a step: the loop number and what runs.
func StepText(st search.Step, s search.State, drive bool, lang string) string {
	key := "interactive.step." + string(st)
	if st == search.StepSearch && drive {
		key += ".drive"
	}
	loop := max(s.Loop, 1) // search() counts the round before StepSearch
	if st == search.StepNarrow {
		loop = s.Loop + 1 // a narrowing is a round of its own
	}
	return i18n.T(lang, "interactive.loop", min(loop, s.MaxLoops), s.MaxLoops) + i18n.T(lang, i18n.Key(key))
}

// flushRounds prints the rounds of s not printed yet (Verbose only).
func (r *Interactive) flushRounds(s search.State) {
	if !r.Verbose {
		return
	}
	for ; r.printed < len(s.Rounds); r.printed++ {
		line := r.style(dim, termsafe.String(RoundText(s.Rounds[r.printed], r.Lang)))
		if r.spin != nil {
			// pterm clears the spinner line first; the spinner redraws below.
			pterm.Fprintln(r.Err, line)
		} else {
			fmt.Fprintln(r.Err, line)
		}
	}
}

// RoundText describes one round for --verbose.
func RoundText(rd search.Round, lang string) string {
	req := i18n.T(lang, "search.filters.none")
	if len(rd.Conditions.Required) > 0 {
		req = strings.Join(rd.Conditions.Required, ", ")
	}
	kw := strings.Join(rd.Conditions.Keywords, ", ")
	br := "…"
	if rd.Branch != "" {
		br = i18n.T(lang, i18n.Key("interactive.branch."+string(rd.Branch)))
	}
	return i18n.T(lang, "interactive.round", rd.Loop, kw, req, alfred.FiltersText(rd.Conditions.Filters, lang), rd.Hits, br)
}

// Stop removes the spinner, if any.
func (r *Interactive) Stop() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.stopLocked()
}

func (r *Interactive) stopLocked() {
	if r.spin != nil {
		r.spin.Stop()
		r.spin = nil
	}
}

// Ask implements search.Asker: the question and its numbered choices on
// Err, one line from Lines. A number picks a choice, other text is a
// free-text answer; an empty line or the end of input (Ctrl-D) is no
// answer (the loop's no-answer policy), a cancelled ctx ends the search.
func (r *Interactive) Ask(ctx context.Context, q ai.Question, s search.State) (search.Answer, error) {
	r.Stop()
	r.mu.Lock()
	if !r.named {
		// The words no file contains are said before the question, once.
		for _, n := range WordNotices(s, r.Lang) {
			fmt.Fprintln(r.Err, r.style(yellow, termsafe.String(n)))
			r.named = true
		}
	}
	r.mu.Unlock()
	// A question may quote the index (folder names, keywords): terminal-safe.
	fmt.Fprintln(r.Err, r.style(bold, termsafe.String(q.Question)))
	for i, c := range q.Choices {
		fmt.Fprintf(r.Err, "  %s %s\n", r.style(cyan, fmt.Sprintf("%d)", i+1)), termsafe.String(c.Label))
	}
	prompt := i18n.T(r.Lang, "interactive.prompt.free")
	if len(q.Choices) > 0 {
		prompt = i18n.T(r.Lang, "interactive.prompt.choice", len(q.Choices))
	}
	for {
		fmt.Fprint(r.Err, r.style(bold, prompt))
		line, err := r.Lines.ReadLine(ctx)
		if err != nil {
			fmt.Fprintln(r.Err)
			if ctx.Err() != nil {
				return search.Answer{}, ctx.Err()
			}
			return search.Answer{}, search.ErrNoAnswer
		}
		line = strings.TrimSpace(line)
		if line == "" {
			return search.Answer{}, search.ErrNoAnswer
		}
		if outOfRange(line, len(q.Choices)) {
			// A typo on a terminal: ask again rather than search for "7".
			fmt.Fprintln(r.Err, i18n.T(r.Lang, "interactive.bad_choice", len(q.Choices)))
			continue
		}
		return search.ParseAnswer(q, line), nil
	}
}

// outOfRange reports whether line is a choice number outside 1..n of a
// question that has choices.
func outOfRange(line string, n int) bool {
	k, err := strconv.Atoi(strings.TrimPrefix(line, "#"))
	return err == nil && n > 0 && (k < 1 || k > n)
}

// Finish stops the spinner and prints the end of a search: the rounds not
// printed yet (Verbose), then the results (at most limit when limit > 0)
// or the seed's end messages.
func (r *Interactive) Finish(out search.Outcome, limit int) {
	r.mu.Lock()
	r.stopLocked()
	r.flushRounds(out.State)
	r.mu.Unlock()
	if r.Verbose {
		fmt.Fprintln(r.Err, r.style(dim, i18n.T(r.Lang, "search.provider", out.Provider)))
	}
	switch out.State.End {
	case search.EndNotFound:
		fmt.Fprintln(r.Out, r.style(yellow, i18n.T(r.Lang, i18n.NoFilesFound)))
		for _, n := range NotFoundNotices(out.State, r.Lang) {
			fmt.Fprintln(r.Out, r.style(yellow, termsafe.String(n)))
		}
		return
	case search.EndLoopCap:
		fmt.Fprintln(r.Out, r.style(yellow, i18n.T(r.Lang, i18n.LoopLimitReached, out.State.MaxLoops)))
		return
	}
	r.mu.Lock()
	named := r.named
	r.mu.Unlock()
	notices := OutcomeNotices(out, r.Lang)
	if named {
		notices = notices[len(WordNotices(out.State, r.Lang)):]
	}
	for _, n := range notices {
		fmt.Fprintln(r.Out, r.style(yellow, termsafe.String(n)))
	}
	res := out.Results
	if limit > 0 && len(res) > limit {
		res = res[:limit]
	}
	width := r.Width
	if width <= 0 {
		width = 80
	}
	labels := sourceLabels(res)
	for i, rs := range res {
		f := rs.File
		// From the files: shown safe for a terminal (termsafe).
		webLink := termsafe.String(f.WebLink)
		name := r.style(bold, termsafe.String(f.Name))
		if r.Hyperlinks && f.WebLink != "" {
			name = osc8(webLink, name)
		}
		fmt.Fprintf(r.Out, "%2d. %s\n", i+1, name)
		meta := f.ModifiedAt.Local().Format("2006-01-02")
		if f.Path != "" {
			meta = termsafe.String(f.Path) + " · " + meta
		}
		meta = withSource(labels, i, meta)
		fmt.Fprintf(r.Out, "    %s\n", r.style(dim, meta))
		for _, l := range Wrap(oneLine(f.Summary), width-4) {
			fmt.Fprintf(r.Out, "    %s\n", l)
		}
		if f.NameOnly() {
			fmt.Fprintf(r.Out, "    %s\n", r.style(dim, i18n.T(r.Lang, "result.name_only", oneLine(f.SkipReason))))
		}
		if f.OCR != "" {
			fmt.Fprintf(r.Out, "    %s\n", r.style(dim, i18n.T(r.Lang, "result.ocr", oneLine(f.OCR))))
		}
		if m := search.MissingText(rs.Missing, r.Lang); m != "" {
			fmt.Fprintf(r.Out, "    %s\n", r.style(dim, termsafe.String(m)))
		}
		if f.WebLink != "" {
			link := r.style(cyan, webLink)
			if r.Hyperlinks {
				link = osc8(webLink, link)
			}
			fmt.Fprintf(r.Out, "    %s\n", link)
		}
		if i < len(res)-1 {
			fmt.Fprintln(r.Out)
		}
	}
}

// SGR styles.
const (
	bold   = "\x1b[1m"
	dim    = "\x1b[2m"
	cyan   = "\x1b[36m"
	yellow = "\x1b[33m"
	reset  = "\x1b[0m"
)

func (r *Interactive) style(sgr, s string) string {
	if !r.Color || s == "" {
		return s
	}
	return sgr + s + reset
}

// osc8 makes text a hyperlink to url.
func osc8(url, text string) string {
	return "\x1b]8;;" + url + "\x1b\\" + text + "\x1b]8;;\x1b\\"
}

// Wrap breaks s into lines of at most width display columns (wide CJK
// characters count two). It breaks at spaces, and inside a word only when
// the word alone is wider than a line (Japanese text has no spaces).
func Wrap(s string, width int) []string {
	width = max(width, 4)
	var lines []string
	var cur strings.Builder
	curW := 0
	flush := func() {
		if curW > 0 {
			lines = append(lines, cur.String())
		}
		cur.Reset()
		curW = 0
	}
	for _, word := range strings.Fields(s) {
		ww := textwidth.String(word)
		switch {
		case curW > 0 && curW+1+ww <= width:
			cur.WriteByte(' ')
			cur.WriteString(word)
			curW += 1 + ww
			continue
		case curW > 0:
			flush()
		}
		if ww <= width {
			cur.WriteString(word)
			curW = ww
			continue
		}
		for _, rn := range word {
			rw := textwidth.Rune(rn)
			if curW+rw > width {
				flush()
			}
			cur.WriteRune(rn)
			curW += rw
		}
	}
	flush()
	return lines
}
