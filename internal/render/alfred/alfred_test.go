package alfred

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"sync"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
)

var (
	schemaOnce sync.Once
	schema     *jsonschema.Schema
	schemaErr  error
)

// alfredSchema compiles testdata/alfred-scriptfilter.schema.json once.
func alfredSchema(t testing.TB) *jsonschema.Schema {
	t.Helper()
	schemaOnce.Do(func() {
		f, err := os.Open("testdata/alfred-scriptfilter.schema.json")
		if err != nil {
			schemaErr = err
			return
		}
		defer f.Close()
		doc, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			schemaErr = err
			return
		}
		c := jsonschema.NewCompiler()
		if schemaErr = c.AddResource("alfred.json", doc); schemaErr != nil {
			return
		}
		schema, schemaErr = c.Compile("alfred.json")
	})
	if schemaErr != nil {
		t.Fatal(schemaErr)
	}
	return schema
}

// validAlfred fails the test unless b is one JSON document Alfred accepts.
func validAlfred(t testing.TB, b []byte) {
	t.Helper()
	if !utf8.Valid(b) || !json.Valid(b) {
		t.Fatalf("not valid UTF-8 JSON: %q", b)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatal(err)
	}
	if err := alfredSchema(t).Validate(inst); err != nil {
		t.Fatalf("output violates the Script Filter schema: %v\n%s", err, b)
	}
}

func alfredJSON(t testing.TB, out Output) []byte {
	t.Helper()
	var buf bytes.Buffer
	if err := Write(&buf, out); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestSchemaRejectsInvalidOutput(t *testing.T) {
	// The schema is only useful if it can fail.
	for _, bad := range []string{
		`{}`,
		`{"items":[{"subtitle":"no title"}]}`,
		`{"items":[{"title":"x","valid":"yes"}]}`,
		`{"items":[{"title":"x","mods":{"command":{"subtitle":"typo"}}}]}`,
		`{"items":[{"title":"x","icon":{"type":"image","path":"a.png"}}]}`,
		`{"items":[{"title":"x","quicklook":"typo"}]}`,
		`{"items":[],"cache":{"seconds":1}}`,
	} {
		inst, err := jsonschema.UnmarshalJSON(strings.NewReader(bad))
		if err != nil {
			t.Fatal(err)
		}
		if alfredSchema(t).Validate(inst) == nil {
			t.Errorf("schema accepted %s", bad)
		}
	}
}

func alfredOpts(lang string) Options {
	return Options{Lang: lang, Limit: 9, Drive: true, LocalPaths: map[string]string{fMinutes.ID: "/Users/me/Docs/議事録 2024-05.pdf"}}
}

// TestAlfredHeaderBySourceKind: the header item names Drive only for an
// index crawled from Drive; a degraded loop adds one notice item after
// the results.
func TestAlfredHeaderBySourceKind(t *testing.T) {
	for _, tc := range []struct {
		drive bool
		lang  string
		want  string
	}{
		{true, i18n.En, "Search Drive for “Q3”"},
		{false, i18n.En, "Search for “Q3”"},
		{true, i18n.Ja, "「Q3」をドライブで検索"},
		{false, i18n.Ja, "「Q3」を検索"},
	} {
		o := alfredOpts(tc.lang)
		o.Drive = tc.drive
		if got := Keystroke("Q3", nil, o).Items[0].Title; got != tc.want {
			t.Errorf("drive=%v %s: header %q, want %q", tc.drive, tc.lang, got, tc.want)
		}
	}
	out := outcomes()["results"]
	out.Degraded = []budget.Notice{{Service: budget.Drive, Reason: budget.CauseUnreachable, Fallback: budget.FallbackIndex}}
	items := Outcome(out, "", alfredOpts(i18n.En)).Items
	last := items[len(items)-1]
	if len(items) != len(out.Results)+1 || last.Valid || !strings.Contains(last.Subtitle, "searched the local index") {
		t.Errorf("degraded outcome items: %d for %d results, last %+v", len(items), len(out.Results), last)
	}
}

func TestAlfredGolden(t *testing.T) {
	outs := outcomes()
	cases := map[string]func(lang string) Output{
		"keystroke": func(l string) Output {
			return Keystroke("roadmap", []store.File{fQ3, fMinutes}, alfredOpts(l))
		},
		"keystroke-none": func(l string) Output { return Keystroke("zzz", nil, alfredOpts(l)) },
		"keystroke-loosened": func(l string) Output {
			o := alfredOpts(l)
			o.Folder = "Sales/2025"
			o.Loosened = []search.Loosening{{Kind: search.LoosenFileType, From: "pdf"}}
			return Keystroke("roadmap pdf", []store.File{fQ3}, o)
		},
		"loosened":        func(l string) Output { return Outcome(outs["loosened"], "", alfredOpts(l)) },
		"keystroke-empty": func(l string) Output { return Keystroke("  ", nil, alfredOpts(l)) },
		"results":         func(l string) Output { return Outcome(outs["results"], "", alfredOpts(l)) },
		"not_found":       func(l string) Output { return Outcome(outs["not_found"], "", alfredOpts(l)) },
		"loop_cap":        func(l string) Output { return Outcome(outs["loop_cap"], "", alfredOpts(l)) },
		"unmatched":       func(l string) Output { return Outcome(outs["unmatched"], "", alfredOpts(l)) },
		"nothing_matched": func(l string) Output { return Outcome(outs["nothing_matched"], "", alfredOpts(l)) },
		"partial":         func(l string) Output { return Outcome(outs["partial"], "", alfredOpts(l)) },
		"corrected":       func(l string) Output { return Outcome(outs["corrected"], "", alfredOpts(l)) },
		"question":        func(l string) Output { return Outcome(outs["question"], fakeToken, alfredOpts(l)) },
		"question-draft": func(l string) Output {
			return Question(*outs["question"].Pending, fakeToken, "from Tanaka", alfredOpts(l))
		},
		"error": func(l string) Output {
			return Message(i18n.T(l, "alfred.err.no_index.title"), i18n.T(l, "alfred.err.no_index.sub"), "")
		},
	}
	for name, build := range cases {
		for _, lang := range []string{i18n.En, i18n.Ja} {
			t.Run(name+"-"+lang, func(t *testing.T) {
				b := alfredJSON(t, build(lang))
				validAlfred(t, b)
				var pretty bytes.Buffer // indented so golden diffs are readable
				if err := json.Indent(&pretty, b, "", "  "); err != nil {
					t.Fatal(err)
				}
				golden(t, "alfred-"+name+"-"+lang+".json.golden", pretty.Bytes())
			})
		}
	}
}

func TestAlfredItems(t *testing.T) {
	outs := outcomes()
	res := Outcome(outs["results"], "", alfredOpts(i18n.En))
	if len(res.Items) != 2 {
		t.Fatalf("items = %d", len(res.Items))
	}
	q3, mins := res.Items[0], res.Items[1]
	if q3.UID != fQ3.ID || q3.Arg != fQ3.WebLink || !q3.Valid || q3.Text.Copy != fQ3.WebLink || q3.QuicklookURL != fQ3.WebLink {
		t.Errorf("drive item = %+v", q3)
	}
	if q3.Subtitle != "Roadmap for Q3: launch <beta> & pricing." {
		t.Errorf("subtitle not one line: %q", q3.Subtitle)
	}
	if q3.Mods["alt"].Valid || q3.Mods["cmd"].Arg != fQ3.WebLink || q3.Mods["cmd"].Variables[ActionVar] != ActionCopy {
		t.Errorf("drive mods = %+v", q3.Mods)
	}
	if q3.Icon.Type != "filetype" || q3.Icon.Path != "org.openxmlformats.presentationml.presentation" {
		t.Errorf("icon = %+v", q3.Icon)
	}
	if alt := mins.Mods["alt"]; !alt.Valid || alt.Arg != "/Users/me/Docs/議事録 2024-05.pdf" || alt.Variables[ActionVar] != ActionReveal || mins.QuicklookURL != alt.Arg {
		t.Errorf("local item alt = %+v, quicklook %q", alt, mins.QuicklookURL)
	}
	if sh := mins.Mods["shift"]; sh.Arg != fMinutes.Summary || sh.Variables[ActionVar] != ActionLargeType {
		t.Errorf("shift = %+v", sh)
	}

	// The keystroke response starts with the item that runs the full loop.
	ks := Keystroke("Q3 roadmap", []store.File{fQ3}, alfredOpts(i18n.En))
	first := ks.Items[0]
	if first.Valid || ParseQuery(first.Autocomplete) != (Request{Kind: Run, Query: "Q3 roadmap"}) {
		t.Errorf("first item = %+v", first)
	}

	// Every choice continues the loop with the token and its number.
	qo := Outcome(outs["question"], fakeToken, alfredOpts(i18n.En))
	if qo.Items[0].Title != "Which kind of file?" || qo.Items[0].Valid {
		t.Errorf("header = %+v", qo.Items[0])
	}
	for i, n := range []string{"1", "2", "3"} {
		it := qo.Items[1+i]
		if it.Valid || ParseQuery(it.Autocomplete) != (Request{Kind: Answer, Token: fakeToken, Answer: n}) {
			t.Errorf("choice %s = %+v", n, it)
		}
	}
	free, skip := qo.Items[4], qo.Items[5]
	if ParseQuery(free.Autocomplete).Kind != Pending || ParseQuery(skip.Autocomplete) != (Request{Kind: Answer, Token: fakeToken}) {
		t.Errorf("free %+v skip %+v", free, skip)
	}
	for _, it := range append(Outcome(outs["not_found"], "", alfredOpts(i18n.Ja)).Items, Outcome(outs["loop_cap"], "", alfredOpts(i18n.Ja)).Items...) {
		if it.Valid || it.Arg != "" {
			t.Errorf("end message item is actionable: %+v", it)
		}
	}
}

func TestParseAlfredQuery(t *testing.T) {
	cases := []struct {
		in   string
		want Request
	}{
		{"議事録 PDF", Request{Kind: Typed, Query: "議事録 PDF"}},
		{"  spaced  ", Request{Kind: Typed, Query: "spaced"}},
		{"", Request{Kind: Typed}},
		{"[g1.x]=2", Request{Kind: Typed, Query: "[g1.x]=2"}},
		{"a ⌕ b", Request{Kind: Typed, Query: "a ⌕ b"}},
		{"⌕ Q3 roadmap", Request{Kind: Run, Query: "Q3 roadmap"}},
		{"⌕Q3", Request{Kind: Run, Query: "Q3"}},
		{"⌕[g1.abc] ", Request{Kind: Pending, Token: "g1.abc"}},
		{"⌕[g1.abc] from Tanaka", Request{Kind: Pending, Token: "g1.abc", Draft: "from Tanaka"}},
		{"⌕[g1.abc]=2", Request{Kind: Answer, Token: "g1.abc", Answer: "2"}},
		{"⌕[g1.abc]= a]b ", Request{Kind: Answer, Token: "g1.abc", Answer: "a]b"}},
		{"⌕[g1.abc]=", Request{Kind: Answer, Token: "g1.abc"}},
		{"⌕[g1.abc", Request{Kind: Malformed}},
		{"⌕[]=1", Request{Kind: Malformed}},
		{"⌕  ", Request{Kind: Malformed}},
	}
	for _, c := range cases {
		if got := ParseQuery(c.in); got != c.want {
			t.Errorf("ParseQuery(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func FuzzParseAlfredQuery(f *testing.F) {
	for _, s := range []string{"議事録", "⌕ x", "⌕[g1.a]=1", "⌕[g1.a] d", "\x00⌕"} {
		f.Add(s, "g1.tok")
	}
	f.Fuzz(func(t *testing.T, q, tok string) {
		r := ParseQuery(q)
		// A query not starting with the marker is always a plain search of itself.
		if !strings.HasPrefix(strings.TrimLeftFunc(q, unicode.IsSpace), Marker) && (r.Kind != Typed || r.Query != strings.TrimSpace(q)) {
			t.Fatalf("%q parsed as %+v", q, r)
		}
		// What gds writes parses back.
		if cq := clean(q); cq != "" {
			if got := ParseQuery(RunText(q)); got.Kind != Run || got.Query != cq {
				t.Fatalf("run text of %q parsed as %+v", q, got)
			}
		}
		if tok == "" || strings.ContainsAny(tok, "]") || clean(tok) != tok {
			return
		}
		if got := ParseQuery(AnswerText(tok, q)); got.Kind != Answer || got.Token != tok || got.Answer != clean(q) {
			t.Fatalf("answer text of %q parsed as %+v", q, got)
		}
	})
}

// FuzzAlfredOutput: any file name, summary, link, query, question or
// answer yields one valid Script Filter document whose one-line fields
// hold no control characters.
func FuzzAlfredOutput(f *testing.F) {
	f.Add("Q3 roadmap", "summary\nline", "https://x/1", "roadmap", "Which?", "PDF")
	f.Add("\xff\xfe bad", "\x00\x1b[31m\u202e", "file:///tmp/a b", "\"quotes\" \\ </script>", "", "")
	f.Fuzz(func(t *testing.T, name, summary, link, query, question, label string) {
		file := store.File{ID: name + "-id", Name: name, Summary: summary, WebLink: link, MimeType: "application/pdf", Path: summary}
		outs := []Output{
			Keystroke(query, []store.File{file}, Options{Lang: i18n.Ja, LocalPaths: map[string]string{file.ID: link}}),
			Outcome(search.Outcome{State: search.State{Query: query, End: search.EndResults, MaxLoops: 3},
				Results: []search.Result{{File: file}}}, "", Options{Lang: i18n.En}),
			Question(ai.Question{Question: question, Choices: []ai.Choice{{Label: label, Keyword: name}}}, "g1.t", query, Options{Lang: i18n.En}),
			Message(name, summary, query),
		}
		for _, o := range outs {
			b := alfredJSON(t, o)
			validAlfred(t, b)
			var back Output
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatal(err)
			}
			for _, it := range back.Items {
				for _, s := range []string{it.Title, it.Subtitle, it.Autocomplete, it.Arg} {
					if strings.ContainsFunc(s, unicode.IsControl) {
						t.Fatalf("control character in %q", s)
					}
				}
			}
		}
	})
}

// A name-only entry says so in its subtitle; a file with content does not.
func TestNameOnlySubtitle(t *testing.T) {
	photo := store.File{ID: "p", Name: "team-photo-2024.png", Path: "Photos", MimeType: "image/png",
		WebLink: "file:///p", SkipReason: "unsupported file type image/png"}
	doc := store.File{ID: "d", Name: "notes.txt", Summary: "team notes", WebLink: "file:///d"}
	for lang, want := range map[string]string{"en": "Name only", "ja": "名前のみ"} {
		it := alfredFile(photo, Options{Lang: lang})
		if !strings.HasPrefix(it.Subtitle, want) || !strings.Contains(it.Subtitle, "Photos") {
			t.Errorf("%s: name-only subtitle %q, want %q… with the folder", lang, it.Subtitle, want)
		}
		if it := alfredFile(doc, Options{Lang: lang}); strings.Contains(it.Subtitle, want) {
			t.Errorf("%s: content file subtitle %q marked name-only", lang, it.Subtitle)
		}
	}
}

// A file whose text was read by OCR says so in its subtitle.
func TestOCRSubtitle(t *testing.T) {
	scan := store.File{ID: "s", Name: "memo.pdf", Summary: "a memo about water", WebLink: "file:///s", OCR: "tesseract 5.3.0 jpn+eng"}
	for lang, want := range map[string]string{"en": "OCR · a memo about water", "ja": "OCR・a memo about water"} {
		if it := alfredFile(scan, Options{Lang: lang}); it.Subtitle != want {
			t.Errorf("%s: subtitle %q, want %q", lang, it.Subtitle, want)
		}
	}
}

// A corrected search with partial results: each file says the words it
// lacks in its subtitle and apart (MissingVar), the search's notices in
// NoticeVar; the last item is the way back, carrying the query as typed
// and what was searched instead.
func TestAlfredWordsVariables(t *testing.T) {
	out := outcomes()["results"]
	out.State.Query = "engnie roadmap"
	out.State.Words = []string{"engnie", "roadmap"}
	out.State.Unmatched = []search.Unmatched{{Word: "engnie", Suggestion: "engine"}}
	out.Results[0].Missing = []string{"engine"}
	for _, lang := range []string{i18n.En, i18n.Ja} {
		res := Outcome(out, "", alfredOpts(lang))
		validAlfred(t, alfredJSON(t, res))
		q3, mins, back := res.Items[0], res.Items[1], res.Items[len(res.Items)-1]
		if q3.Variables[MissingVar] != "engine" || mins.Variables[MissingVar] != "" {
			t.Errorf("%s: missing %q, %q", lang, q3.Variables[MissingVar], mins.Variables[MissingVar])
		}
		if n := q3.Variables[NoticeVar]; !strings.Contains(n, "engnie → engine") || strings.Contains(n, i18n.T(lang, "search.missing", "engine")) {
			t.Errorf("%s: notice %q", lang, n)
		}
		if !strings.Contains(q3.Subtitle, i18n.T(lang, "search.missing", "engine")) {
			t.Errorf("%s: subtitle %q does not name the missing word", lang, q3.Subtitle)
		}
		if back.Variables[InsteadVar] != `"engnie" roadmap` || back.Variables[CorrectedVar] != i18n.T(lang, "search.corrected", "engine roadmap") ||
			ParseQuery(back.Autocomplete) != (Request{Kind: Run, Query: `"engnie" roadmap`}) || back.Valid {
			t.Errorf("%s: way back = %+v", lang, back)
		}
	}
}

// Files of two Google accounts carry their account (gds_account) and say
// it first in the subtitle; files of one account carry it without
// repeating it; a local file has none.
func TestAccountItems(t *testing.T) {
	work := store.File{ID: "w", Name: "plan", Summary: "work plan", Source: "drive@work:F1", WebLink: "https://x/w"}
	home := store.File{ID: "h", Name: "trip", Summary: "holiday", Source: "drive", WebLink: "https://x/h"}
	local := store.File{ID: "l", Name: "note", Summary: "a note", Source: "local:/n", WebLink: "file:///n"}
	out := Keystroke("plan", []store.File{work, home, local}, Options{Lang: "en"})
	want := map[string][2]string{"w": {"work", "work · work plan"}, "h": {"default", "default · holiday"}, "l": {"", "a note"}}
	seen := 0
	for _, it := range out.Items {
		w, ok := want[it.UID]
		if !ok {
			continue
		}
		seen++
		if it.Variables[AccountVar] != w[0] || it.Subtitle != w[1] {
			t.Errorf("%s: account %q subtitle %q, want %q %q", it.UID, it.Variables[AccountVar], it.Subtitle, w[0], w[1])
		}
	}
	if seen != 3 {
		t.Fatalf("%d file items, want 3", seen)
	}
	one := Keystroke("plan", []store.File{work, local}, Options{Lang: "en"})
	for _, it := range one.Items {
		if it.UID == "w" && (it.Variables[AccountVar] != "work" || it.Subtitle != "work plan") {
			t.Errorf("one account: %+v", it)
		}
	}
}
