package main

import (
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/cliflag"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/render"
)

// Unknown commands and flags get the closest name of that command as the
// hint; garbage gets the generic hint. The suggestion comes from argv and
// the command's own flags, not from the parser's text.
func TestUsageSuggestsCommandsAndFlags(t *testing.T) {
	cases := []struct {
		args      []string
		lang      string
		msg, hint string
		noSuggest bool
	}{
		{args: []string{"serch", "q"}, msg: `unknown command "serch"`, hint: "did you mean gds search?"},
		{args: []string{"docter"}, msg: `unknown command "docter"`, hint: "did you mean gds doctor?"},
		{args: []string{"serch"}, lang: i18n.Ja, msg: `不明なコマンド "serch"`, hint: "gds search のことですか"},
		{args: []string{"xyzzyq"}, msg: `unknown command "xyzzyq"`, noSuggest: true},
		{args: []string{"db", "stauts"}, msg: `unknown command "stauts"`, hint: "did you mean gds db status?"},
		{args: []string{"schedule", "instal"}, msg: `unknown command "instal"`, hint: "did you mean gds schedule install?"},
		{args: []string{"search", "--limt", "3", "q"}, msg: "unknown flag --limt", hint: "did you mean --limit?"},
		{args: []string{"search", "--jsno", "q"}, msg: "unknown flag --jsno", hint: "did you mean --json?"},
		{args: []string{"ask", "--top_k=3", "q"}, msg: "unknown flag --top_k", hint: "did you mean --top-k?"},
		{args: []string{"crawl", "--ful"}, msg: "unknown flag --ful", hint: "did you mean --full?"},
		{args: []string{"search", "--frobnicate", "q"}, msg: "unknown flag --frobnicate", noSuggest: true},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, "_")+c.lang, func(t *testing.T) {
			h := newHarness(t)
			if c.lang != "" {
				h.lang = c.lang
			}
			if code := h.run(c.args...); code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, h.stderr.String())
			}
			errOut := h.stderr.String()
			if !strings.Contains(errOut, c.msg) {
				t.Errorf("stderr lacks %q:\n%s", c.msg, errOut)
			}
			if c.noSuggest {
				if strings.Contains(errOut, "did you mean") {
					t.Errorf("garbage got a suggestion:\n%s", errOut)
				}
				return
			}
			if !strings.Contains(errOut, c.hint) {
				t.Errorf("stderr lacks hint %q:\n%s", c.hint, errOut)
			}
		})
	}
}

// A number flag given something else names the flag and the kind it takes
// (not strconv's text); a value out of range is refused with the range.
func TestUsageBadNumbers(t *testing.T) {
	cases := []struct {
		args []string
		lang string
		msg  string
	}{
		{args: []string{"search", "--limit", "abc", "q"}, msg: `--limit takes a whole number, got "abc"`},
		{args: []string{"search", "--limit=1.5", "q"}, msg: `--limit takes a whole number, got "1.5"`},
		{args: []string{"search", "--limit", "abc", "q"}, lang: i18n.Ja, msg: `--limit には整数を指定してください（"abc" が渡されました）`},
		{args: []string{"search", "--limit", "0", "q"}, msg: "--limit must be between 1 and 1000, got 0"},
		{args: []string{"search", "--limit", "-1", "q"}, msg: "--limit must be between 1 and 1000, got -1"},
		{args: []string{"search", "--limit=-5", "q"}, msg: "--limit must be between 1 and 1000, got -5"},
		{args: []string{"search", "--limit", "0", "q"}, lang: i18n.Ja, msg: "--limit は 1 から 1000 までにしてください（0 が渡されました）"},
		{args: []string{"ask", "--top-k", "x", "q"}, msg: `--top-k takes a whole number, got "x"`},
		{args: []string{"ask", "--score-threshold", "high", "q"}, msg: `--score-threshold takes a number, got "high"`},
		{args: []string{"search", "--timeout", "banana", "q"}, msg: `--timeout takes a duration such as 5s, 1500ms or 2m, got "banana"`},
		{args: []string{"search", "--timeout", "-5s", "q"}, msg: "--timeout must be positive, got -5s"},
		{args: []string{"search", "--db-timeout=0s", "q"}, msg: "--db-timeout must be positive, got 0s"},
	}
	for _, c := range cases {
		t.Run(strings.Join(c.args, "_")+c.lang, func(t *testing.T) {
			h := newHarness(t)
			if c.lang != "" {
				h.lang = c.lang
			}
			if code := h.run(c.args...); code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, h.stderr.String())
			}
			errOut := h.stderr.String()
			if !strings.Contains(errOut, c.msg) {
				t.Errorf("stderr lacks %q:\n%s", c.msg, errOut)
			}
			if strings.Contains(errOut, "strconv") || strings.Contains(errOut, "for flag -") || strings.Contains(errOut, "time: ") {
				t.Errorf("stderr shows the parser's text:\n%s", errOut)
			}
		})
	}
}

// --json answers an out-of-range --limit with a JSON error document.
func TestUsageLimitRangeJSON(t *testing.T) {
	h := newHarness(t)
	if code := h.run("search", "--json", "--limit", "0", "q"); code != exitUsage {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, h.stderr.String())
	}
	var doc struct {
		Error *struct{ Code, Message string } `json:"error"`
	}
	if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil || doc.Error == nil || doc.Error.Code != "usage" ||
		doc.Error.Message != "--limit must be between 1 and 1000, got 0" {
		t.Errorf("stdout %s (%v)", h.stdout.String(), err)
	}
}

// A damaged --state token (or one of another version) gets one plain
// message, not the decoder's ("flate: corrupt input", "unexpected EOF").
func TestSearchDamagedStateToken(t *testing.T) {
	cases := []struct {
		tok, lang, msg string
	}{
		{tok: "g1.________________", msg: "this search token is damaged or from another version of gds"}, // flate: corrupt input
		{tok: "g1.AAAA", msg: "this search token is damaged or from another version of gds"},             // unexpected EOF
		{tok: "garbage", msg: "this search token is damaged or from another version of gds"},
		{tok: "g9.AAAA", msg: "this search token is from another version of gds"},
		{tok: "g1.________________", lang: i18n.Ja, msg: "この検索トークンは壊れているか、別のバージョンの gds のものです"},
	}
	for _, c := range cases {
		t.Run(c.tok+c.lang, func(t *testing.T) {
			h := newHarness(t)
			if c.lang != "" {
				h.lang = c.lang
			}
			if code := h.run("search", "--json", "--state", c.tok, "--answer", "1"); code != exitUsage {
				t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, h.stderr.String())
			}
			var doc struct {
				Error *struct{ Code, Message string } `json:"error"`
			}
			if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil || doc.Error == nil || doc.Error.Code != "usage" {
				t.Fatalf("stdout %s (%v)", h.stdout.String(), err)
			}
			for _, out := range []string{doc.Error.Message, h.stderr.String()} {
				if !strings.Contains(out, c.msg) {
					t.Errorf("lacks %q: %s", c.msg, out)
				}
				for _, bad := range []string{"flate", "EOF", "prefix", "invalid search state"} {
					if strings.Contains(out, bad) {
						t.Errorf("shows the decoder's words %q: %s", bad, out)
					}
				}
			}
		})
	}
}

// `--source /path` suggests `local:/path`.
func TestCrawlSourcePathSuggestsLocal(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	if code := h.run("crawl", "--source", dir); code != exitUsage {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, h.stderr.String())
	}
	if want := "for a local folder write local:" + dir; !strings.Contains(h.stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, h.stderr.String())
	}
	h.lang = i18n.Ja
	h.run("crawl", "--source", dir)
	if want := "ローカルフォルダは local:" + dir; !strings.Contains(h.stderr.String(), want) {
		t.Errorf("stderr lacks %q:\n%s", want, h.stderr.String())
	}
	h.lang = i18n.En
	h.run("crawl", "--source", "dirve")
	if strings.Contains(h.stderr.String(), "local:dirve") {
		t.Errorf("a word got a local: suggestion:\n%s", h.stderr.String())
	}
}

// After crawling a folder whose only file is old, `db status` shows the
// crawl's time as the last sync, not the file's date.
func TestDBStatusLastSyncIsCrawlTime(t *testing.T) {
	h := newHarness(t)
	dir := t.TempDir()
	f := filepath.Join(dir, "old-note.txt")
	if err := os.WriteFile(f, []byte("an old note about budgets"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := time.Date(2001, 2, 3, 4, 5, 6, 0, time.UTC)
	if err := os.Chtimes(f, old, old); err != nil {
		t.Fatal(err)
	}
	before := time.Now().Add(-time.Second)
	if code := h.run("crawl", "--source", "local:"+dir); code != exitOK {
		t.Fatalf("crawl: exit %d: %s", code, h.stderr.String())
	}
	if code := h.run("db", "status", "--json"); code != exitOK {
		t.Fatalf("db status: exit %d: %s", code, h.stderr.String())
	}
	var st render.IndexStatusDoc
	if err := json.Unmarshal(h.stdout.Bytes(), &st); err != nil {
		t.Fatal(err)
	}
	if st.LastSync == nil || st.LastSync.Before(before) {
		t.Errorf("last_sync = %v, want the crawl time (after %v)", st.LastSync, before)
	}
	if st.NewestFile == nil || !st.NewestFile.Equal(old) {
		t.Errorf("newest_file = %v, want %v", st.NewestFile, old)
	}
}

// `gds config show` still shows every readable value when some are bad
// (a bad variable, a .env line the parser refuses), then the problems,
// with exit code 3.
func TestConfigShowWithBadValues(t *testing.T) {
	h := newHarness(t)
	h.env[config.EnvAIProvider] = "bogus"
	h.env[config.EnvCrawlConcurrency] = "500"
	h.env[config.EnvOpenAIModel] = "my-model-x"
	if err := os.WriteFile(filepath.Join(h.work, ".env"), []byte("GDS_SUMMARY_MAX_LENGTH=300\nNOT A LINE\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := h.run("config", "show"); code != exitConfig {
		t.Fatalf("exit %d, want %d; stderr %s", code, exitConfig, h.stderr.String())
	}
	out, errOut := h.stdout.String(), h.stderr.String()
	if !strings.Contains(out, "my-model-x") || !strings.Contains(out, config.EnvSearchMaxLoopCount) {
		t.Errorf("settings missing:\n%s", out)
	}
	for _, want := range []string{config.EnvAIProvider + `="bogus"`, config.EnvCrawlConcurrency + `="500"`, filepath.Join(h.work, ".env") + ":2:"} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// The .env with the bad line is named as found and not read, not as if
	// there were none.
	if want := ".env files not read (their problems are listed below): " + filepath.Join(h.work, ".env"); !strings.Contains(out, want) {
		t.Errorf("config show does not name the unread .env (%q):\n%s", want, out)
	}
	if code := h.run("config", "show", "--json"); code != exitConfig {
		t.Fatalf("--json exit %d", code)
	}
	var doc render.ConfigShowDoc
	if err := json.Unmarshal(h.stdout.Bytes(), &doc); err != nil || len(doc.Problems) != 3 || len(doc.Settings) == 0 ||
		len(doc.EnvFilesUnread) != 1 || doc.EnvFilesUnread[0] != filepath.Join(h.work, ".env") {
		t.Errorf("--json: %v %+v", err, doc)
	}
	// Other commands still refuse to run on a bad configuration.
	if code := h.run("search", "q"); code != exitConfig {
		t.Errorf("search on a bad configuration: exit %d", code)
	}
}

// Every integer and number flag of every command has a range: a word and a
// value just outside the range are both refused with a message naming the
// flag (and the range), exit 2, before the command runs.
func TestUsageNumberFlagRanges(t *testing.T) {
	const none = cliflag.NoMax
	cases := []struct {
		path   []string
		flag   string
		lo, hi int
	}{
		{[]string{"search"}, "--limit", 1, 1000},
		{[]string{"ask"}, "--top-k", 1, 20},
		{[]string{"ask"}, "--score-threshold", 0, 1},
		{[]string{"crawl"}, "--concurrency", 1, 64},
		{[]string{"crawl"}, "--max-rpm", 1, none},
		{[]string{"graph", "build"}, "--max-rpm", 1, none},
		{[]string{"db", "rebuild"}, "--concurrency", 1, 64},
		{[]string{"graph", "build"}, "--concurrency", 1, 64},
		{[]string{"graph", "query"}, "--community-level", 0, none},
		{[]string{"graph", "query"}, "--min-community-rank", 0, 10},
		{[]string{"graph", "query"}, "--max-context-tokens", 500, none},
		{[]string{"eval"}, "--limit", 0, none},
		{[]string{"eval"}, "--workers", 1, 64},
		{[]string{"eval"}, "--seed", 0, none},
	}
	h := newHarness(t)
	// The table covers every number flag of the tree.
	var want []string
	for _, c := range cases {
		want = append(want, "gds "+strings.Join(c.path, " ")+" "+c.flag)
	}
	root := newRootCommand(app.New(app.Options{IO: iostreams.IOStreams{Lang: i18n.En}}), buildInfo{})
	var walk func(path string, c *cli.Command)
	walk = func(path string, c *cli.Command) {
		for _, f := range cliflag.Flags(c) {
			switch f.(type) {
			case *cli.IntFlag, *cli.FloatFlag:
				if name := path + " " + cliflag.Dashed(f.Names()[0]); !slices.Contains(want, name) {
					t.Errorf("number flag %s is not in this table", name)
				}
			}
		}
		for _, sub := range c.Commands {
			walk(path+" "+sub.Name, sub)
		}
	}
	walk("gds", root)
	if u := cliflag.Unchecked(root); len(u) > 0 {
		t.Errorf("number flags without a range: %v", u)
	}
	for _, c := range cases {
		var bad []struct{ val, msg string }
		bad = append(bad, struct{ val, msg string }{"abc", c.flag + " takes "})
		rng := fmt.Sprintf("between %d and %d", c.lo, c.hi)
		if c.hi == none {
			rng = fmt.Sprintf("%d or more", c.lo)
		}
		bad = append(bad, struct{ val, msg string }{strconv.Itoa(c.lo - 1), c.flag + " must be " + rng})
		if c.hi != none {
			bad = append(bad, struct{ val, msg string }{strconv.Itoa(c.hi + 1), c.flag + " must be " + rng})
		}
		for _, b := range bad {
			args := append(append([]string(nil), c.path...), c.flag+"="+b.val, "q")
			t.Run(strings.Join(args, "_"), func(t *testing.T) {
				if code := h.run(args...); code != exitUsage {
					t.Fatalf("exit %d, want %d; stderr %s", code, exitUsage, h.stderr.String())
				}
				if !strings.Contains(h.stderr.String(), b.msg) {
					t.Errorf("stderr lacks %q:\n%s", b.msg, h.stderr.String())
				}
			})
		}
		// The bounds themselves pass the check (the command may still
		// fail later for other reasons, but not with a range message).
		for _, v := range []int{c.lo, min(c.hi, c.lo+1)} {
			args := append(append([]string(nil), c.path...), c.flag+"="+strconv.Itoa(v), "--help")
			h.run(args...)
			if strings.Contains(h.stderr.String(), c.flag+" must be") {
				t.Errorf("%v refused: %s", args, h.stderr.String())
			}
		}
	}
}

// A command that declares no arguments refuses them (one rule in root.go
// for every such command), before it does anything.
func TestUsageCommandsWithoutArgumentsRefuseThem(t *testing.T) {
	h := newHarness(t)
	for _, path := range commandPaths {
		root := newRootCommand(app.New(app.Options{IO: iostreams.IOStreams{Lang: i18n.En}}), buildInfo{})
		c := root
		for _, name := range path {
			c = c.Command(name)
		}
		if c.ArgsUsage != "" || len(c.Commands) > 0 {
			continue
		}
		args := append(append([]string(nil), path...), "stray-word")
		if code := h.run(args...); code != exitUsage {
			t.Errorf("%v: exit %d, want %d; stderr %s", args, code, exitUsage, h.stderr.String())
			continue
		}
		if want := "stray-word"; !strings.Contains(h.stderr.String(), want) {
			t.Errorf("%v: stderr lacks %q: %s", args, want, h.stderr.String())
		}
	}
}

// With an OpenAI key set and no server reachable, crawl, ask and search
// each name the offline provider as the way to work without network; the
// crawl's later files fail at once instead of each paying the retries.
func TestUnreachableAINamesTheOfflineProvider(t *testing.T) {
	t.Parallel() // mostly waits (see TestMain); own GDS_HOME, no t.Setenv
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	dead := "http://" + ln.Addr().String() + "/v1"
	ln.Close() // nothing listens there now: connection refused
	h := newHarness(t)
	dir := t.TempDir()
	for i := range 3 {
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("note-%d.txt", i)), []byte("a note about budgets"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	// An index to search and ask, made offline; then the network is gone.
	if code := h.run("crawl", "--source", "local:"+dir); code != exitOK {
		t.Fatalf("offline crawl: exit %d: %s", code, h.stderr.String())
	}
	h.env[config.EnvAIProvider] = config.ProviderOpenAI
	h.env[config.EnvOpenAIAPIKey] = "sk-test-unreachable"
	h.env[config.EnvOpenAIBaseURL] = dead
	const offline = "GDS_AI_PROVIDER=offline"
	for _, args := range [][]string{
		{"ask", "--json", "what about budgets"},
		{"search", "--json", "budgets"},
		{"crawl", "--full", "--concurrency", "1", "--source", "local:" + dir},
	} {
		h.run(args...)
		out := h.stdout.String() + h.stderr.String()
		if !strings.Contains(out, offline) {
			t.Errorf("%s does not name %s:\n%s", args[0], offline, out)
		}
		if args[0] == "crawl" {
			if !strings.Contains(out, "not tried again") || !strings.Contains(out, "because the AI provider could not be reached") {
				t.Errorf("crawl's later files paid the retries again, or the summary does not say why:\n%s", out)
			}
		}
	}
}
