package render

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"atomicgo.dev/keyboard/keys"
	"github.com/pterm/pterm"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/setup"
	"github.com/gds-cli/gds/internal/termsafe"
)

// InitSummary is what `gds init` did (app.InitResult, as the renderer
// needs it).
type InitSummary struct {
	EnvFile    string
	Set        []setup.Setting // secrets already masked
	Overridden map[string]string
	Problem    string
	Changed    bool
	Crawled    bool
	Cancelled  bool
	// OfferAccount adds how to add a second Google account (the sources
	// read one account's Drive).
	OfferAccount bool
	// Model: a model is configured; the next step estimates the crawl's
	// cost first.
	Model bool
}

// InitResult prints what `gds init` wrote and the next step; warnings go
// to errw.
func InitResult(w, errw io.Writer, r InitSummary, lang string) {
	t := func(k i18n.Key, args ...any) string { return i18n.T(lang, k, args...) }
	if r.Problem != "" {
		fmt.Fprintln(errw, r.Problem)
	}
	if r.Cancelled {
		fmt.Fprintln(w, t("init.out.cancelled"))
		return
	}
	if r.Changed {
		fmt.Fprintln(w, t("init.out.wrote", r.EnvFile))
	} else {
		fmt.Fprintln(w, t("init.out.unchanged", r.EnvFile))
	}
	for _, st := range r.Set {
		fmt.Fprintf(w, "  %s=%s\n", st.Name, st.Value)
	}
	names := make([]string, 0, len(r.Overridden))
	for n := range r.Overridden {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		fmt.Fprintln(errw, t("init.out.overridden", n, r.Overridden[n]))
	}
	switch {
	case r.Crawled:
		fmt.Fprintln(w, t("init.out.next_search"))
	case r.Model:
		fmt.Fprintln(w, t("init.out.next_estimate"))
	default:
		fmt.Fprintln(w, t("init.out.next_crawl"))
	}
	if r.OfferAccount {
		fmt.Fprintln(w, t("init.out.second_account"))
	}
}

// InitPrompter asks the questions of `gds init`'s wizard: with pterm's
// interactive prompts on a terminal (Pterm), otherwise as numbered menus
// read line by line from In (scripts and tests).
type InitPrompter struct {
	In    *Lines
	Out   io.Writer
	Lang  string
	Pterm bool
}

// questionKind is how a question is answered.
type questionKind int

const (
	qChoose questionKind = iota
	qMulti
	qText
	qSecret
	qConfirm
)

// initOption is one choice of a menu; when Text is set, choosing it asks
// for a text (a path, a name) that completes Event.
type initOption struct {
	Label string
	Event setup.Event
	Text  string
}

// initQuestion is a wizard question, built from the state and action by
// initQuestionFor and shown by the prompter.
type initQuestion struct {
	Kind    questionKind
	Title   string
	Notes   []string
	Options []initOption
	Default []int  // default option(s)
	DefText string // qText default
	DefYes  bool   // qConfirm default
	// OnText / OnMulti / OnYes turn an answer into the event.
	OnText  func(string) setup.Event
	OnMulti func([]int) setup.Event
}

// initQuestionFor is the question of action a in state s.
func initQuestionFor(s setup.State, a setup.Action, lang string) initQuestion {
	t := func(k i18n.Key, args ...any) string { return i18n.T(lang, k, args...) }
	var q initQuestion
	if s.Problem != "" {
		q.Notes = append(q.Notes, t(s.Problem, s.ProblemArgs...))
	}
	switch a.Kind {
	case setup.AskSources:
		q.Kind, q.Title = qMulti, t("init.q.sources")
		q.Options = []initOption{{Label: t("init.opt.drive")}, {Label: t("init.opt.local")}}
		if s.Cur.Mirror != "" {
			q.Options = append(q.Options, initOption{Label: t("init.opt.mirror", s.Cur.Mirror)})
		}
		for i, on := range []bool{s.UseDrive, s.UseLocal, s.UseMirror && s.Cur.Mirror != ""} {
			if on {
				q.Default = append(q.Default, i)
			}
		}
		q.OnMulti = func(idx []int) setup.Event {
			ev := setup.Event{Kind: setup.EvSources}
			for _, i := range idx {
				switch i {
				case 0:
					ev.Drive = true
				case 1:
					ev.Local = true
				case 2:
					ev.Mirror = true
				}
			}
			return ev
		}
	case setup.AskFolder:
		q.Kind = qChoose
		switch here := s.Here(); {
		case s.Searching != "":
			q.Title = t("init.q.folder_search", termsafe.String(s.Searching))
		case here == nil:
			q.Title = t("init.q.folder_top")
		default:
			names := make([]string, len(s.Path))
			for i, f := range s.Path {
				names[i] = termsafe.String(f.Name)
			}
			q.Title = t("init.q.folder_in", strings.Join(names, " / "))
		}
		if s.Account != "" {
			q.Notes = append(q.Notes, t("init.note.account", s.Account))
		}
		picked := s.Picked()
		if len(picked) > 0 {
			labels := make([]string, len(picked))
			for i, d := range picked {
				labels[i] = termsafe.String(d.Label())
			}
			q.Notes = append(q.Notes, t("init.note.chosen", strings.Join(labels, ", ")))
		}
		if here := s.Here(); here != nil && s.Searching == "" && here.ID != "" {
			key := i18n.Key("init.opt.use_folder")
			if s.Chosen(here.ID) {
				key = "init.opt.unuse_folder"
			}
			q.Options = append(q.Options, initOption{Label: t(key, termsafe.String(here.Name)), Event: setup.Event{Kind: setup.EvToggle, Folder: *here}})
		}
		for _, f := range s.Listing {
			label := "▸ " + termsafe.String(f.Name) // Drive names: terminal-safe
			if f.SharedDrive {
				label += " " + t("init.opt.shared_drive")
			}
			if s.Chosen(f.ID) {
				label += " ✓"
			}
			q.Options = append(q.Options, initOption{Label: label, Event: setup.Event{Kind: setup.EvOpen, Folder: f}})
		}
		q.Options = append(q.Options, initOption{Label: t("init.opt.search"), Event: setup.Event{Kind: setup.EvSearch}, Text: t("init.q.search")})
		if s.Here() != nil || s.Searching != "" {
			q.Options = append(q.Options, initOption{Label: t("init.opt.up"), Event: setup.Event{Kind: setup.EvUp}})
		}
		q.Options = append(q.Options, initOption{Label: i18n.N(lang, "init.opt.folders_done", len(picked)), Event: setup.Event{Kind: setup.EvFoldersDone}})
		if len(picked) > 0 {
			q.Default = []int{len(q.Options) - 1}
		}
	case setup.AskAccount:
		q.Kind, q.Title = qText, t("init.q.account")
		q.OnText = func(v string) setup.Event { return setup.Event{Kind: setup.EvAccount, Account: strings.TrimSpace(v)} }
	case setup.AskLocal:
		q.Kind, q.Title = qChoose, t("init.q.local")
		q.Options = []initOption{{Label: t("init.opt.add_local"), Event: setup.Event{Kind: setup.EvLocalPath}, Text: t("init.q.local_path")}}
		for _, l := range s.Local {
			q.Options = append(q.Options, initOption{Label: t("init.opt.remove_local", l.Path), Event: setup.Event{Kind: setup.EvLocalRemove, Path: l.Path}})
		}
		q.Options = append(q.Options, initOption{Label: i18n.N(lang, "init.opt.local_done", len(s.Local)), Event: setup.Event{Kind: setup.EvLocalDone}})
		if len(s.Local) > 0 {
			q.Default = []int{len(q.Options) - 1}
		}
	case setup.AskProvider:
		q.Kind, q.Title = qChoose, t("init.q.provider")
		q.Options = []initOption{
			{Label: t("init.opt.offline"), Event: setup.Event{Kind: setup.EvProvider, Provider: setup.ProviderOffline}},
			{Label: t("init.opt.openai"), Event: setup.Event{Kind: setup.EvProvider, Provider: setup.ProviderOpenAI}},
		}
		if s.Provider == setup.ProviderOpenAI {
			q.Default = []int{1}
		}
	case setup.AskKey:
		q.Kind, q.Title = qSecret, t("init.q.key")
		if s.Cur.HasKey {
			q.Title = t("init.q.key_keep")
		}
		q.OnText = func(v string) setup.Event { return setup.Event{Kind: setup.EvKey, Key: strings.TrimSpace(v)} }
	case setup.AskCrawl:
		q.Kind, q.Title, q.DefYes = qConfirm, t("init.q.crawl"), true
	case setup.AskSchedule:
		q.Kind, q.Title = qConfirm, t("init.q.schedule")
	}
	if len(q.Default) == 0 && len(q.Options) > 0 && q.Kind == qChoose {
		q.Default = []int{0}
	}
	return q
}

// errCancelled ends a question when the user gives up.
var errCancelled = errors.New("cancelled")

// Ask implements app.InitUI.
func (p *InitPrompter) Ask(ctx context.Context, s setup.State, a setup.Action) (setup.Event, error) {
	q := initQuestionFor(s, a, p.Lang)
	for _, n := range q.Notes {
		fmt.Fprintln(p.Out, "! "+n)
	}
	ev, err := p.ask(ctx, q)
	if errors.Is(err, errCancelled) || errors.Is(err, io.EOF) {
		return setup.Event{Kind: setup.EvCancel}, nil
	}
	return ev, err
}

func (p *InitPrompter) ask(ctx context.Context, q initQuestion) (setup.Event, error) {
	switch q.Kind {
	case qMulti:
		idx, err := p.multi(ctx, q)
		if err != nil {
			return setup.Event{}, err
		}
		return q.OnMulti(idx), nil
	case qText, qSecret:
		v, err := p.text(ctx, q.Title, q.DefText, q.Kind == qSecret)
		if err != nil {
			return setup.Event{}, err
		}
		return q.OnText(v), nil
	case qConfirm:
		yes, err := p.confirm(ctx, q.Title, q.DefYes)
		if err != nil {
			return setup.Event{}, err
		}
		if yes {
			return setup.Event{Kind: setup.EvYes}, nil
		}
		return setup.Event{Kind: setup.EvNo}, nil
	}
	i, err := p.choose(ctx, q)
	if err != nil {
		return setup.Event{}, err
	}
	opt := q.Options[i]
	ev := opt.Event
	if opt.Text != "" {
		v, err := p.text(ctx, opt.Text, "", false)
		if err != nil {
			return setup.Event{}, err
		}
		v = strings.TrimSpace(v)
		if v == "" && ev.Kind == setup.EvLocalPath {
			return setup.Event{}, nil // nothing typed: the wizard asks again
		}
		if ev.Kind == setup.EvSearch {
			ev.Query = v
		} else {
			ev.Path = v
		}
	}
	return ev, nil
}

// labels numbers the options, which also makes them unique for pterm.
func labels(q initQuestion) []string {
	out := make([]string, len(q.Options))
	for i, o := range q.Options {
		out[i] = fmt.Sprintf("%d) %s", i+1, o.Label)
	}
	return out
}

func (p *InitPrompter) choose(ctx context.Context, q initQuestion) (int, error) {
	ls := labels(q)
	def := 0
	if len(q.Default) > 0 {
		def = q.Default[0]
	}
	if p.Pterm {
		cancelled := false
		got, err := pterm.DefaultInteractiveSelect.WithOptions(ls).WithDefaultOption(ls[def]).
			WithMaxHeight(15).WithOnInterruptFunc(func() { cancelled = true }).Show(q.Title)
		if err != nil {
			return 0, err
		}
		if cancelled {
			return 0, errCancelled
		}
		for i, l := range ls {
			if l == got {
				return i, nil
			}
		}
		return def, nil
	}
	for {
		fmt.Fprintln(p.Out, q.Title)
		for _, l := range ls {
			fmt.Fprintln(p.Out, "  "+l)
		}
		fmt.Fprintf(p.Out, "[%d]> ", def+1)
		line, err := p.In.ReadLine(ctx)
		if err != nil {
			return 0, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			return def, nil
		}
		if n, err := strconv.Atoi(line); err == nil && n >= 1 && n <= len(ls) {
			return n - 1, nil
		}
		fmt.Fprintln(p.Out, i18n.T(p.Lang, "init.q.pick_number", len(ls)))
	}
}

func (p *InitPrompter) multi(ctx context.Context, q initQuestion) ([]int, error) {
	ls := labels(q)
	if p.Pterm {
		var defs []string
		for _, i := range q.Default {
			defs = append(defs, ls[i])
		}
		cancelled := false
		// Space ticks, Enter confirms (pterm's default is Enter to tick and
		// Tab to confirm, which a first-time user does not guess).
		got, err := pterm.DefaultInteractiveMultiselect.WithOptions(ls).WithDefaultOptions(defs).
			WithFilter(false).WithKeySelect(keys.Space).WithKeyConfirm(keys.Enter).
			WithOnInterruptFunc(func() { cancelled = true }).Show(q.Title)
		if err != nil {
			return nil, err
		}
		if cancelled {
			return nil, errCancelled
		}
		var idx []int
		for i, l := range ls {
			for _, g := range got {
				if g == l {
					idx = append(idx, i)
				}
			}
		}
		return idx, nil
	}
	defs := make([]string, len(q.Default))
	for i, d := range q.Default {
		defs[i] = strconv.Itoa(d + 1)
	}
	for {
		fmt.Fprintln(p.Out, q.Title)
		for _, l := range ls {
			fmt.Fprintln(p.Out, "  "+l)
		}
		fmt.Fprintf(p.Out, "%s [%s]> ", i18n.T(p.Lang, "init.q.numbers"), strings.Join(defs, ","))
		line, err := p.In.ReadLine(ctx)
		if err != nil {
			return nil, err
		}
		line = strings.TrimSpace(line)
		if line == "" {
			return q.Default, nil
		}
		var idx []int
		ok := true
		for _, f := range strings.FieldsFunc(line, func(r rune) bool { return r == ',' || r == ' ' }) {
			n, err := strconv.Atoi(f)
			if err != nil || n < 1 || n > len(ls) {
				ok = false
				break
			}
			idx = append(idx, n-1)
		}
		if ok {
			return idx, nil
		}
		fmt.Fprintln(p.Out, i18n.T(p.Lang, "init.q.pick_number", len(ls)))
	}
}

func (p *InitPrompter) text(ctx context.Context, title, def string, secret bool) (string, error) {
	if p.Pterm {
		cancelled := false
		in := pterm.DefaultInteractiveTextInput.WithDefaultValue(def).WithOnInterruptFunc(func() { cancelled = true })
		if secret {
			in = in.WithMask("*")
		}
		v, err := in.Show(title)
		if err == nil && cancelled {
			err = errCancelled
		}
		return v, err
	}
	fmt.Fprintf(p.Out, "%s: ", title)
	line, err := p.In.ReadLine(ctx)
	if err != nil {
		return "", err
	}
	if line == "" {
		return def, nil
	}
	return line, nil
}

func (p *InitPrompter) confirm(ctx context.Context, title string, def bool) (bool, error) {
	if p.Pterm {
		cancelled := false
		yes, err := pterm.DefaultInteractiveConfirm.WithDefaultValue(def).WithOnInterruptFunc(func() { cancelled = true }).Show(title)
		if err == nil && cancelled {
			err = errCancelled
		}
		return yes, err
	}
	hint := "y/N"
	if def {
		hint = "Y/n"
	}
	for {
		fmt.Fprintf(p.Out, "%s [%s]: ", title, hint)
		line, err := p.In.ReadLine(ctx)
		if err != nil {
			return false, err
		}
		switch strings.ToLower(strings.TrimSpace(line)) {
		case "":
			return def, nil
		case "y", "yes", "はい":
			return true, nil
		case "n", "no", "いいえ":
			return false, nil
		}
	}
}
