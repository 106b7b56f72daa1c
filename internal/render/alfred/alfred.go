// Package alfred renders Alfred Script Filter responses: the items of the
// keystroke path, of a finished search loop and of a pending question, and
// the query grammar (Marker) that carries a search's state between
// keystrokes. It imports no terminal, network or store implementation. The
// Script Filter types, the grammar, messages and the prompt live in
// render/scriptfilter (aliased here), which the `gds` front binary links
// without this package and the search it renders; the full CLI (cmd/gds)
// and the keystroke server render results here.
package alfred

import (
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render/scriptfilter"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

// The Script Filter types and the query grammar live in package
// scriptfilter (which the front binary links without the search); these
// names are the same types and values.
type (
	Output  = scriptfilter.Output
	Item    = scriptfilter.Item
	Icon    = scriptfilter.Icon
	Text    = scriptfilter.Text
	Mod     = scriptfilter.Mod
	Kind    = scriptfilter.Kind
	Request = scriptfilter.Request
)

// Marker starts every query text gds writes into Alfred's box.
const Marker = scriptfilter.Marker

// Kinds of Alfred query (scriptfilter.Kind).
const (
	Typed     = scriptfilter.Typed
	Run       = scriptfilter.Run
	Pending   = scriptfilter.Pending
	Answer    = scriptfilter.Answer
	Malformed = scriptfilter.Malformed
)

// ParseQuery classifies the text in Alfred's box (scriptfilter.ParseQuery).
func ParseQuery(q string) Request { return scriptfilter.ParseQuery(q) }

// RunText is the query text that runs the full loop for query.
func RunText(query string) string { return scriptfilter.RunText(query) }

// PendingText is the query text that shows a pending question.
func PendingText(token string) string { return scriptfilter.PendingText(token) }

// AnswerText is the query text that answers a pending question.
func AnswerText(token, answer string) string { return scriptfilter.AnswerText(token, answer) }

// Message is a response of one non-actionable item (scriptfilter.Message).
func Message(title, subtitle, autocomplete string) Output {
	return scriptfilter.Message(title, subtitle, autocomplete)
}

// Write writes a Script Filter response as compact JSON.
func Write(w io.Writer, out Output) error { return scriptfilter.Write(w, out) }

func clean(s string) string { return scriptfilter.Clean(s) }

func gdsIcon() *Icon { return scriptfilter.GDSIcon() }

// ActionVar is the workflow variable that names what an actioned
// item asks for: "open" (arg is the link), "copy" (copy arg), "reveal"
// (arg is a local path to reveal in Finder), "largetype" (show arg).
const ActionVar = "gds_action"

// Variables of an item that describe it for other fronts reading the
// Script Filter JSON (the Raycast extension); the workflow ignores them.
// A file item: its folder, the search's notices its subtitle starts with
// (words no file contains, corrections, a weak match, loosened
// conditions), and the query's words the file lacks. The way back of a
// corrected search: the query as typed it runs, and the notice of what
// was searched instead.
const (
	FolderVar    = "gds_folder"
	NoticeVar    = "gds_notice"
	MissingVar   = "gds_missing"
	InsteadVar   = "gds_instead"
	CorrectedVar = "gds_corrected"
	// AccountVar is the Google account of a Drive file ("default" or the
	// name of `gds auth login --account NAME`); absent for other sources.
	AccountVar = "gds_account"
)

// Actions carried in ActionVar.
const (
	ActionOpen      = "open"
	ActionCopy      = "copy"
	ActionReveal    = "reveal"
	ActionLargeType = "largetype"
)

//
// Alfred re-runs a Script Filter with an item's autocomplete text when a
// valid:false item is actioned, so everything beyond a plain keystroke
// search travels in the query text, behind Marker ("⌕", U+2315, which
// no keyboard layout or IME produces when typing):
//
//	QUERY                 keystroke: fast search of the local index only
//	⌕ QUERY               run the full hybrid loop for QUERY
//	⌕[TOKEN] DRAFT        a question is pending: show it (and DRAFT as a free-text answer to confirm)
//	⌕[TOKEN]=ANSWER       continue the loop: N = choice N, text = free answer, "" = skip the question
//
// A query that does not start with the marker is always a keystroke search,
// whatever it contains.

// Options are what the builders need besides the data.
type Options struct {
	Lang string
	// LocalPaths maps a file ID to its local copy: the file of a local
	// source, or the file inside a Google Drive for desktop mirror.
	LocalPaths map[string]string
	// Limit is the maximum number of file items (<= 0: all).
	Limit int
	// Drive is true when the index was crawled from Google Drive (the
	// header says "Search Drive for …"; otherwise "Search for …").
	Drive bool
	// Folder is the folder the searches are limited to (--folder,
	// GDS_FOLDER); the header item names it. "" for everything.
	Folder string
	// Loosened are the conditions the keystroke search dropped because
	// they matched nothing; every file item's subtitle says so.
	Loosened []search.Loosening
	// FullText is set when the keystroke's files are its last resort
	// (search.KeystrokeResult.FullText); every file item's subtitle says so.
	FullText bool
	// Unmatched are the typed words no indexed file contains; every item
	// under the header says so.
	Unmatched []search.Unmatched
	// accounts is set when the items come from more than one Google
	// account: each Drive file's subtitle then starts with its account.
	accounts bool
}

// manyAccounts reports whether files come from more than one Google
// account.
func manyAccounts(files []store.File) bool {
	first := ""
	for _, f := range files {
		a := store.DriveAccount(f.Source)
		if a == "" {
			continue
		}
		if first == "" {
			first = a
		} else if a != first {
			return true
		}
	}
	return false
}

// Keystroke is the fast path's response: first an item that runs the
// full hybrid loop for query, then the index's best matches.
func Keystroke(query string, files []store.File, o Options) Output {
	out := Output{SkipKnowledge: true, Items: []Item{}}
	q := clean(query)
	if q == "" {
		return scriptfilter.Prompt(o.Lang)
	}
	sub := i18n.T(o.Lang, "alfred.run.sub")
	if f := clean(o.Folder); f != "" {
		sub = i18n.T(o.Lang, "alfred.run.sub.folder", f)
	}
	out.Items = append(out.Items, Item{
		Title:        i18n.T(o.Lang, runTitle(o.Drive), q),
		Subtitle:     sub,
		Autocomplete: RunText(q),
		Icon:         gdsIcon(),
	})
	o.accounts = manyAccounts(files)
	for i, f := range files {
		if o.Limit > 0 && i >= o.Limit {
			break
		}
		out.Items = append(out.Items, wordsItem(noticedItem(alfredFile(f, o), o.Loosened, o.FullText, o.Lang), o.Unmatched, o.Lang))
	}
	if len(files) == 0 {
		out.Items = append(out.Items, wordsItem(Item{Title: i18n.T(o.Lang, "alfred.fast.none.title"), Subtitle: i18n.T(o.Lang, "alfred.fast.none.sub"), Icon: gdsIcon()},
			o.Unmatched, o.Lang))
	}
	return out
}

// Outcome renders the end of a full loop: the results, the seed's
// end messages as non-actionable items, or a pending question whose
// choices continue the loop with token.
func Outcome(out search.Outcome, token string, o Options) Output {
	if out.Pending != nil {
		q := Question(*out.Pending, token, "", o)
		q.Items[0] = wordsItem(q.Items[0], out.State.Unmatched, o.Lang)
		return q
	}
	res := Output{SkipKnowledge: true, Items: []Item{}}
	switch out.State.End {
	case search.EndNotFound:
		sub := i18n.T(o.Lang, "alfred.not_found.sub")
		if t := search.UnmatchedText(out.State.Unmatched, o.Lang); t != "" {
			sub = i18n.T(o.Lang, "alfred.not_found.tried", clean(t))
		}
		res.Items = append(res.Items, Item{Title: i18n.T(o.Lang, i18n.NoFilesFound),
			Subtitle: sub, Autocomplete: clean(out.State.Query), Icon: gdsIcon()})
		return res
	case search.EndLoopCap:
		msg := i18n.T(o.Lang, i18n.LoopLimitReached, out.State.MaxLoops)
		res.Items = append(res.Items, Item{Title: i18n.T(o.Lang, "alfred.loop_cap.title"), Subtitle: msg,
			Autocomplete: clean(out.State.Query), Text: &Text{LargeType: msg}, Icon: gdsIcon()})
		return res
	}
	files := make([]store.File, len(out.Results))
	for i, r := range out.Results {
		files[i] = r.File
	}
	o.accounts = manyAccounts(files)
	for i, r := range out.Results {
		if o.Limit > 0 && i >= o.Limit {
			break
		}
		it := alfredFile(r.File, o)
		if m := search.MissingText(r.Missing, o.Lang); m != "" {
			it.Subtitle = i18n.T(o.Lang, "alfred.missing.sub", clean(m), it.Subtitle)
			it.Variables[MissingVar] = clean(strings.Join(r.Missing, i18n.T(o.Lang, "search.missing.sep")))
		}
		if len(out.Partial) > 0 {
			it.Subtitle = i18n.T(o.Lang, "alfred.missing.sub", i18n.T(o.Lang, "alfred.partial"), it.Subtitle)
			addNotice(&it, i18n.T(o.Lang, "alfred.partial"))
		}
		it = noticedItem(it, out.State.Loosened, out.State.FullText, o.Lang)
		res.Items = append(res.Items, wordsItem(it, out.State.Unmatched, o.Lang))
	}
	if len(res.Items) == 0 {
		res.Items = append(res.Items, Item{Title: i18n.T(o.Lang, i18n.NoFilesFound), Icon: gdsIcon()})
	}
	if it := insteadItem(out.State, o.Lang); it != nil {
		res.Items = append(res.Items, *it)
	}
	res.Items = append(res.Items, degradedItems(out, o)...)
	return res
}

// noticedItem puts the notices of a search's results in front of a
// result's subtitle: the conditions it dropped (no 2025 PDFs; showing
// other years), and that the results are the full-text last resort. They
// ride on every result: a separate item would take the place of the first
// result under ↩.
func noticedItem(it Item, ls []search.Loosening, fullText bool, lang string) Item {
	var notices []string
	if len(ls) > 0 && !fullText { // the full-text notice says the conditions matched nothing
		it.Subtitle = i18n.T(lang, "alfred.loosened.sub", clean(search.LoosenedText(ls, lang)), it.Subtitle)
		notices = append(notices, clean(search.LoosenedText(ls, lang)))
	}
	if fullText {
		it.Subtitle = i18n.T(lang, "alfred.fulltext_fallback.sub", it.Subtitle)
		notices = append(notices, i18n.T(lang, "alfred.fulltext_fallback.notice"))
	}
	if len(notices) > 0 {
		it.Variables[NoticeVar] = strings.Join(notices, " · ")
	}
	return it
}

// wordsItem puts the words of the query no file contains in front of an
// item's subtitle (on every result, as noticedItem does).
func wordsItem(it Item, us []search.Unmatched, lang string) Item {
	if t := search.UnmatchedText(us, lang); t != "" {
		it.Subtitle = i18n.T(lang, "alfred.unmatched.sub", clean(t), it.Subtitle)
		addNotice(&it, clean(t))
	}
	if t := search.CorrectionsText(search.State{Unmatched: us}, lang); t != "" {
		it.Subtitle = i18n.T(lang, "alfred.corrected.sub", clean(t), it.Subtitle)
		addNotice(&it, i18n.T(lang, "alfred.corrected.notice", clean(t)))
	}
	return it
}

// addNotice puts notice first in the item's NoticeVar (the notices other
// fronts show), when the item carries variables.
func addNotice(it *Item, notice string) {
	if it.Variables == nil {
		return
	}
	if prev := it.Variables[NoticeVar]; prev != "" {
		notice += " · " + prev
	}
	it.Variables[NoticeVar] = notice
}

// insteadItem is the way back of a corrected search: an item that runs the
// query with the corrected words as typed (nil when nothing was corrected).
func insteadItem(s search.State, lang string) *Item {
	instead := clean(s.InsteadQuery())
	if instead == "" {
		return nil
	}
	return &Item{Title: i18n.T(lang, "alfred.instead.title", instead), Subtitle: i18n.T(lang, "alfred.instead.sub"),
		Autocomplete: RunText(instead), Icon: gdsIcon(),
		Variables: map[string]string{InsteadVar: instead, CorrectedVar: clean(i18n.T(lang, "search.corrected", s.SearchQuery()))}}
}

// runTitle is the key of the header item by source kind.
func runTitle(drive bool) i18n.Key {
	if drive {
		return "alfred.run.title"
	}
	return "alfred.run.title.local"
}

// degradedItems are non-actionable items, after the results, saying which
// steps used a fallback (the notice is the subtitle).
func degradedItems(out search.Outcome, o Options) []Item {
	var items []Item
	for _, n := range out.Degraded {
		items = append(items, Item{Title: i18n.T(o.Lang, "alfred.degraded.title"), Subtitle: clean(n.Text(o.Lang)),
			Icon: gdsIcon()})
	}
	return items
}

// Question renders a pending question: a header, the draft answer
// being typed (if any) to confirm, one item per choice, a free-text hint
// and a skip item. Every item is valid:false; its autocomplete re-runs the
// filter with the state and the answer.
func Question(q ai.Question, token, draft string, o Options) Output {
	out := Output{SkipKnowledge: true, Items: []Item{}}
	title := clean(q.Question)
	if title == "" {
		title = i18n.T(o.Lang, "alfred.question.fallback")
	}
	out.Items = append(out.Items, Item{Title: title, Subtitle: i18n.T(o.Lang, "alfred.question.sub"),
		Autocomplete: PendingText(token), Icon: gdsIcon()})
	if d := clean(draft); d != "" {
		out.Items = append(out.Items, Item{Title: i18n.T(o.Lang, "alfred.question.draft", d),
			Subtitle: i18n.T(o.Lang, "alfred.question.draft.sub"), Autocomplete: AnswerText(token, d), Icon: gdsIcon()})
	}
	for i, c := range q.Choices {
		out.Items = append(out.Items, Item{
			Title:        fmt.Sprintf("%d. %s", i+1, clean(c.Label)),
			Subtitle:     choiceText(c, o.Lang),
			Autocomplete: AnswerText(token, strconv.Itoa(i+1)),
			Icon:         gdsIcon(),
		})
	}
	out.Items = append(out.Items,
		Item{Title: i18n.T(o.Lang, "alfred.question.free"), Subtitle: i18n.T(o.Lang, "alfred.question.free.sub"),
			Autocomplete: PendingText(token), Icon: gdsIcon()},
		Item{Title: i18n.T(o.Lang, "alfred.question.skip"), Subtitle: i18n.T(o.Lang, "alfred.question.skip.sub"),
			Autocomplete: AnswerText(token, ""), Icon: gdsIcon()},
	)
	return out
}

// alfredFile is the item of one file.
func alfredFile(f store.File, o Options) Item {
	link := clean(f.WebLink)
	name := clean(f.Name)
	if name == "" {
		name = clean(f.ID)
	}
	if name == "" {
		name = "?"
	}
	summary := clean(f.Summary)
	sub := truncateRunes(summary, subtitleMax)
	if sub == "" {
		sub = clean(f.Path)
	}
	if f.NameOnly() {
		sub = i18n.T(o.Lang, "alfred.name_only.sub", sub)
	}
	if f.OCR != "" {
		sub = i18n.T(o.Lang, "alfred.ocr.sub", sub)
	}
	large := summary
	if large == "" {
		large = name
	}
	// The local copy's path is used (Quick Look, reveal): kept true; only
	// its display is cleaned.
	local := o.LocalPaths[f.ID]
	it := Item{
		UID:          clean(f.ID),
		Title:        name,
		Subtitle:     sub,
		Arg:          link,
		Valid:        link != "",
		Icon:         &Icon{Type: "filetype", Path: UTIFor(f.MimeType)},
		QuicklookURL: link,
		Text:         &Text{Copy: link, LargeType: large},
		Variables:    map[string]string{ActionVar: ActionOpen, FolderVar: clean(f.Path)},
		Mods: map[string]Mod{
			"cmd":   {Subtitle: i18n.T(o.Lang, "alfred.mod.copy"), Arg: link, Valid: link != "", Variables: map[string]string{ActionVar: ActionCopy}},
			"shift": {Subtitle: i18n.T(o.Lang, "alfred.mod.summary"), Arg: large, Valid: true, Variables: map[string]string{ActionVar: ActionLargeType}},
		},
	}
	if a := store.DriveAccount(f.Source); a != "" {
		it.Variables[AccountVar] = a
		if o.accounts {
			it.Subtitle = clean(a) + " · " + it.Subtitle
		}
	}
	if local != "" {
		it.QuicklookURL = local
		it.Mods["alt"] = Mod{Subtitle: i18n.T(o.Lang, "alfred.mod.reveal", clean(local)), Arg: local, Valid: true,
			Variables: map[string]string{ActionVar: ActionReveal}}
	} else {
		it.Mods["alt"] = Mod{Subtitle: i18n.T(o.Lang, "alfred.mod.no_local"), Valid: false}
	}
	return it
}

// subtitleMax is the longest subtitle in runes; Alfred cuts the rest anyway.
const subtitleMax = 160

// choiceText says what a choice adds to the search.
func choiceText(c ai.Choice, lang string) string {
	var parts []string
	if k := clean(c.Keyword); k != "" {
		parts = append(parts, i18n.T(lang, "alfred.choice.keyword", k))
	}
	if !c.Filters.IsZero() {
		parts = append(parts, i18n.T(lang, "alfred.choice.filters", clean(FiltersText(c.Filters, lang))))
	}
	if len(parts) == 0 {
		return i18n.T(lang, "alfred.choice.label")
	}
	return strings.Join(parts, " · ")
}

// UTIFor maps a MIME type to the macOS uniform type identifier whose icon
// Alfred shows (icon type "filetype").
func UTIFor(mime string) string {
	switch mime {
	case "application/pdf":
		return "com.adobe.pdf"
	case "application/vnd.google-apps.document", "application/vnd.openxmlformats-officedocument.wordprocessingml.document":
		return "org.openxmlformats.wordprocessingml.document"
	case "application/msword":
		return "com.microsoft.word.doc"
	case "application/vnd.google-apps.spreadsheet", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":
		return "org.openxmlformats.spreadsheetml.sheet"
	case "application/vnd.ms-excel":
		return "com.microsoft.excel.xls"
	case "application/vnd.google-apps.presentation", "application/vnd.openxmlformats-officedocument.presentationml.presentation":
		return "org.openxmlformats.presentationml.presentation"
	case "application/vnd.ms-powerpoint":
		return "com.microsoft.powerpoint.ppt"
	case "application/vnd.google-apps.folder":
		return "public.folder"
	case "text/csv":
		return "public.comma-separated-values-text"
	case "text/markdown":
		return "net.daringfireball.markdown"
	case "text/html":
		return "public.html"
	case "application/json":
		return "public.json"
	case "image/png":
		return "public.png"
	case "image/jpeg":
		return "public.jpeg"
	}
	switch {
	case strings.HasPrefix(mime, "text/"):
		return "public.plain-text"
	case strings.HasPrefix(mime, "image/"):
		return "public.image"
	case strings.HasPrefix(mime, "video/"):
		return "public.movie"
	case strings.HasPrefix(mime, "audio/"):
		return "public.audio"
	}
	return "public.data"
}

func truncateRunes(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
