package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/render/alfred"
)

// End-to-end tests of the --json, Alfred and Raycast front ends: the built
// gds binary, the offline provider, an index of a local folder.

type e2eHome struct {
	once sync.Once
	home string
	err  error
}

var (
	sampleHome, reportsHome e2eHome
	homesDir                string
	homesOnce               sync.Once
)

// gdsEnv is a clean environment for gds with home as GDS_HOME.
func gdsEnv(home string, extra ...string) []string {
	env := []string{"GDS_HOME=" + home, "GDS_AI_PROVIDER=offline", "PATH=" + os.Getenv("PATH"), "HOME=" + home, "LANG=C"}
	for _, k := range []string{"GDS_SEARCH_TIMEOUT", "GDS_SEARCH_DRIVE_TIMEOUT", "GDS_SEARCH_AI_TIMEOUT", "GDS_SEARCH_DB_TIMEOUT"} {
		if v, ok := os.LookupEnv(k); ok { // the generous test budget of TestMain
			env = append(env, k+"="+v)
		}
	}
	return append(env, extra...)
}

// runGds runs the binary and returns stdout, stderr and the exit code.
func runGds(t *testing.T, env []string, args ...string) (string, string, int) {
	t.Helper()
	cmd := exec.Command(gdsBinary(t), args...)
	cmd.Env = env
	cmd.Dir = t.TempDir()
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	var ee *exec.ExitError
	code := 0
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String(), code
}

// frontendHome crawls dir once (per test process) into a fresh home.
func frontendHome(t *testing.T, h *e2eHome, name string, dir func() (string, error)) string {
	t.Helper()
	bin := gdsBinary(t)
	homesOnce.Do(func() { homesDir, _ = os.MkdirTemp("", "gds-frontends-") })
	h.once.Do(func() {
		src, err := dir()
		if err != nil {
			h.err = err
			return
		}
		h.home = filepath.Join(homesDir, name)
		cmd := exec.Command(bin, "crawl", "--source", "local:"+src)
		cmd.Env = gdsEnv(h.home)
		if out, err := cmd.CombinedOutput(); err != nil {
			h.err = fmt.Errorf("crawl %s: %v\n%s", src, err, out)
		}
	})
	if h.err != nil {
		t.Fatal(h.err)
	}
	return h.home
}

func sampleIndex(t *testing.T) string {
	return frontendHome(t, &sampleHome, "sample", func() (string, error) { return filepath.Abs("../../testdata/sample") })
}

// reportsIndex indexes 130 small reports in three folders and three years:
// "project report" matches all of them, so the loop asks a clarifying question.
func reportsIndex(t *testing.T) string {
	return frontendHome(t, &reportsHome, "reports", func() (string, error) {
		dir := filepath.Join(homesDir, "reports-src")
		for i := 1; i <= 130; i++ {
			team := []string{"alpha", "beta", "gamma"}[i%3]
			sub := filepath.Join(dir, team)
			if err := os.MkdirAll(sub, 0o755); err != nil {
				return "", err
			}
			body := fmt.Sprintf("Project report number %d\n\nThis project report of team %s covers budget item %d and the quarterly review.\n", i, team, i)
			file := filepath.Join(sub, fmt.Sprintf("report-%d.txt", i))
			if err := os.WriteFile(file, []byte(body), 0o644); err != nil {
				return "", err
			}
			// Each team's reports are from another year, so the offline
			// provider's clarifying question has a period facet to offer.
			mt := time.Date(2024+i%3, time.Month(1+i%12), 10, 12, 0, 0, 0, time.UTC)
			if err := os.Chtimes(file, mt, mt); err != nil {
				return "", err
			}
		}
		return dir, nil
	})
}

func decodeDoc(t *testing.T, stdout string) render.SearchDoc {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	var doc render.SearchDoc
	if err := dec.Decode(&doc); err != nil {
		t.Fatalf("stdout is not a search document: %v\n%s", err, stdout)
	}
	if dec.More() {
		t.Fatalf("more than one JSON document on stdout:\n%s", stdout)
	}
	return doc
}

func decodeErr(t *testing.T, stdout string) render.JSONError {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(stdout))
	dec.DisallowUnknownFields()
	var doc render.ErrorDoc
	if err := dec.Decode(&doc); err != nil || doc.Error.Code == "" || doc.Error.Message == "" {
		t.Fatalf("stdout is not an error document: %v\n%s", err, stdout)
	}
	return doc.Error
}

func TestSearchJSONResultsE2E(t *testing.T) {
	home := sampleIndex(t)
	out, _, code := runGds(t, gdsEnv(home), "search", "--json", "steam engine")
	doc := decodeDoc(t, out)
	if code != 0 || doc.End != render.JSONEndResults || doc.Provider != "offline" || doc.Query != "steam engine" || len(doc.Rounds) == 0 {
		t.Fatalf("code %d doc %+v", code, doc)
	}
	if len(doc.Results) == 0 || !strings.HasPrefix(doc.Results[0].Name, "Steam_engine") {
		t.Fatalf("results = %+v", doc.Results)
	}
	for _, r := range doc.Results {
		if _, err := time.Parse(time.RFC3339, r.ModifiedTime); err != nil || r.ID == "" || !strings.HasPrefix(r.Link, "file://") {
			t.Errorf("result %+v", r)
		}
	}
	if doc.Rounds[len(doc.Rounds)-1].Branch != "rerank" && doc.Rounds[len(doc.Rounds)-1].Branch != "single" {
		t.Errorf("last round = %+v", doc.Rounds[len(doc.Rounds)-1])
	}

	// Nothing matches: the seed's message in the user's language.
	for lang, want := range map[string]string{"C": "No files found.", "ja_JP.UTF-8": "見つかりませんでした"} {
		out, _, code = runGds(t, append(gdsEnv(home), "LC_ALL="+lang), "search", "--json", "xyzzyqux plughwarble")
		doc = decodeDoc(t, out)
		if code != 0 || doc.End != render.JSONEndNotFound || doc.Message != want || len(doc.Results) != 0 {
			t.Fatalf("%s: code %d doc %+v", lang, code, doc)
		}
	}
}

func TestSearchJSONQuestionE2E(t *testing.T) {
	home := reportsIndex(t)
	out, _, code := runGds(t, gdsEnv(home), "search", "--json", "project report")
	q := decodeDoc(t, out)
	if code != 0 || q.End != render.JSONEndQuestion || q.Question == nil || len(q.Question.Choices) == 0 || !strings.HasPrefix(q.State, "g1.") {
		t.Fatalf("code %d end %q question %+v", code, q.End, q.Question)
	}
	if r := q.Rounds[0]; r.Hits != 130 || r.Branch != "clarify" {
		t.Fatalf("round = %+v", r)
	}

	// --answer 1 takes the first choice: its keyword becomes required.
	choice := q.Question.Choices[0]
	out, _, code = runGds(t, gdsEnv(home), "search", "--json", "--state", q.State, "--answer", "1")
	doc := decodeDoc(t, out)
	if code != 0 || doc.End != render.JSONEndResults || len(doc.Results) == 0 || len(doc.Rounds) < 2 {
		t.Fatalf("answered %+v: code %d end %q rounds %+v", choice, code, doc.End, doc.Rounds)
	}
	if got := doc.Rounds[1]; choice.Keyword != "" && (len(got.Required) != 1 || got.Required[0] != choice.Keyword || got.Hits >= 130) {
		t.Fatalf("choice %+v gave round %+v", choice, got)
	}

	// A free-text answer narrows to the one report it names.
	out, _, _ = runGds(t, gdsEnv(home), "search", "--json", "--state", q.State, "--answer", "report 42")
	doc = decodeDoc(t, out)
	if doc.End != render.JSONEndResults || len(doc.Results) == 0 || doc.Results[0].Name != "report-42.txt" {
		t.Fatalf("free text: end %q rounds %+v results %d", doc.End, doc.Rounds, len(doc.Results))
	}

	// No answer: the documented policy keeps the best 100 keyword hits.
	out, _, _ = runGds(t, gdsEnv(home), "search", "--json", "--state", q.State)
	doc = decodeDoc(t, out)
	if doc.End != render.JSONEndResults || doc.Rounds[0].Branch != "no_answer" || len(doc.Results) == 0 {
		t.Fatalf("no answer: end %q rounds %+v", doc.End, doc.Rounds)
	}

	// Usage errors are JSON documents too, with exit code 2.
	for name, args := range map[string][]string{
		"bad token":        {"--state", "g1.garbage", "--answer", "1"},
		"other version":    {"--state", "g7." + strings.TrimPrefix(q.State, "g1."), "--answer", "1"},
		"answer, no state": {"--answer", "1"},
		"state and query":  {"--state", q.State, "project"},
	} {
		out, stderr, code := runGds(t, gdsEnv(home), append([]string{"search", "--json"}, args...)...)
		if e := decodeErr(t, out); code != exitUsage || e.Code != "usage" || e.Hint == "" || !strings.Contains(stderr, e.Message) {
			t.Errorf("%s: code %d error %+v stderr %q", name, code, e, stderr)
		}
	}
}

func TestSearchJSONErrorsE2E(t *testing.T) {
	empty := t.TempDir()
	out, _, code := runGds(t, gdsEnv(empty), "search", "--json", "anything")
	if e := decodeErr(t, out); code != exitError || e.Code != "no_index" || !strings.Contains(e.Hint, "gds init") {
		t.Errorf("empty home: code %d %+v", code, e)
	}
	out, _, code = runGds(t, gdsEnv(empty, "SEARCH_MAX_LOOP_COUNT=many"), "search", "--json", "anything")
	if e := decodeErr(t, out); code != exitConfig || e.Code != "config" || !strings.Contains(e.Message, "SEARCH_MAX_LOOP_COUNT") {
		t.Errorf("bad config: code %d %+v", code, e)
	}
}

var (
	e2eSchemaOnce sync.Once
	e2eSchema     *jsonschema.Schema
	e2eSchemaErr  error
)

// alfredItems validates stdout against the Script Filter schema and
// returns the items.
func alfredItems(t *testing.T, stdout string) []alfred.Item {
	t.Helper()
	e2eSchemaOnce.Do(func() {
		c := jsonschema.NewCompiler()
		e2eSchema, e2eSchemaErr = c.Compile("../../internal/render/alfred/testdata/alfred-scriptfilter.schema.json")
	})
	if e2eSchemaErr != nil {
		t.Fatal(e2eSchemaErr)
	}
	inst, err := jsonschema.UnmarshalJSON(strings.NewReader(stdout))
	if err != nil {
		t.Fatalf("not JSON: %v\n%s", err, stdout)
	}
	if err := e2eSchema.Validate(inst); err != nil {
		t.Fatalf("not valid Script Filter JSON: %v\n%s", err, stdout)
	}
	var out alfred.Output
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatal(err)
	}
	return out.Items
}

func TestAlfredFastPathE2E(t *testing.T) {
	home := sampleIndex(t)
	for _, args := range [][]string{{"alfred", "filter", "steam"}, {"search", "--alfred", "steam"}} {
		out, _, code := runGds(t, gdsEnv(home), args...)
		items := alfredItems(t, out)
		if code != 0 || len(items) < 2 || len(items) > 10 {
			t.Fatalf("%v: code %d, %d items", args, code, len(items))
		}
		if first := items[0]; first.Valid || first.Autocomplete != alfred.Marker+" steam" {
			t.Fatalf("first item = %+v", first)
		}
		hit := items[1]
		if !strings.HasPrefix(hit.Title, "Steam_engine") || hit.UID == "" || !hit.Valid || !strings.HasPrefix(hit.Arg, "file://") {
			t.Fatalf("hit = %+v", hit)
		}
		if alt := hit.Mods["alt"]; !alt.Valid {
			t.Errorf("local file without a reveal action: %+v", alt)
		} else if _, err := os.Stat(alt.Arg); err != nil {
			t.Errorf("reveal path: %v", err)
		}
	}
	// The keystroke path never writes: an empty home stays empty.
	empty := t.TempDir()
	out, _, code := runGds(t, gdsEnv(empty), "alfred", "filter", "steam")
	items := alfredItems(t, out)
	if code != 0 || len(items) != 1 || items[0].Valid || !strings.Contains(items[0].Subtitle, "gds crawl") {
		t.Fatalf("empty home: code %d items %+v", code, items)
	}
	if ents, _ := os.ReadDir(empty); len(ents) != 0 {
		t.Errorf("the keystroke path wrote %v", ents)
	}
}

func TestAlfredFullLoopE2E(t *testing.T) {
	home := sampleIndex(t)
	out, _, code := runGds(t, gdsEnv(home), "alfred", "filter", alfred.Marker+" steam engine")
	items := alfredItems(t, out)
	if code != 0 || len(items) == 0 || !strings.HasPrefix(items[0].Title, "Steam_engine") || items[0].Mods["cmd"].Arg != items[0].Arg {
		t.Fatalf("code %d items %+v", code, items)
	}
	out, _, _ = runGds(t, gdsEnv(home, "LANG=ja_JP.UTF-8"), "alfred", "filter", alfred.Marker+" xyzzyqux plughwarble")
	items = alfredItems(t, out)
	if len(items) != 1 || items[0].Valid || items[0].Title != "見つかりませんでした" {
		t.Fatalf("not found items %+v", items)
	}

	// A question becomes items; a choice's autocomplete continues the loop.
	reports := reportsIndex(t)
	out, _, _ = runGds(t, gdsEnv(reports), "alfred", "filter", alfred.Marker+" project report")
	items = alfredItems(t, out)
	if len(items) < 4 || items[0].Valid || items[1].Valid {
		t.Fatalf("question: %d items, first %q", len(items), items[0].Title)
	}
	req := alfred.ParseQuery(items[1].Autocomplete)
	if req.Kind != alfred.Answer || req.Answer != "1" {
		t.Fatalf("choice autocomplete %q", items[1].Autocomplete)
	}
	out, _, _ = runGds(t, gdsEnv(reports), "alfred", "filter", items[1].Autocomplete)
	res := alfredItems(t, out)
	if len(res) == 0 || !res[0].Valid || !strings.HasPrefix(res[0].Title, "report-") {
		t.Fatalf("after the choice: %d items, first %q", len(res), res[0].Title)
	}
	out, _, _ = runGds(t, gdsEnv(reports), "alfred", "filter", alfred.AnswerText(req.Token, "report 42"))
	if res := alfredItems(t, out); len(res) == 0 || res[0].Title != "report-42.txt" || res[0].UID == "" {
		t.Fatalf("free-text answer: %d items, first %q", len(res), res[0].Title)
	}
	// A draft answer is shown for confirmation, not run.
	out, _, _ = runGds(t, gdsEnv(reports), "alfred", "filter", alfred.PendingText(req.Token)+"report 42")
	draft := alfredItems(t, out)
	if len(draft) < 2 || alfred.ParseQuery(draft[1].Autocomplete) != (alfred.Request{Kind: alfred.Answer, Token: req.Token, Answer: "report 42"}) {
		t.Fatalf("draft: %d items", len(draft))
	}
	// A damaged token is an item, not a failure.
	out, _, code = runGds(t, gdsEnv(reports), "alfred", "filter", alfred.AnswerText("g1.damaged", "1"))
	if bad := alfredItems(t, out); code != 0 || len(bad) != 1 || bad[0].Valid {
		t.Fatalf("damaged token: code %d %+v", code, bad)
	}
	// A configuration error is an item with the fix, exit code 0.
	out, _, code = runGds(t, gdsEnv(reports, "SEARCH_MAX_LOOP_COUNT=many"), "alfred", "filter", alfred.Marker+" report")
	if bad := alfredItems(t, out); code != 0 || len(bad) != 1 || !strings.Contains(bad[0].Subtitle, "SEARCH_MAX_LOOP_COUNT") {
		t.Fatalf("config error: code %d %+v", code, bad)
	}
}

// --folder limits the search to a folder: the 44 reports of team beta
// (130 reports, every third in beta) are narrowed without a question, each
// round records the folder, and the results all lie in it.
func TestSearchJSONFolderE2E(t *testing.T) {
	home := reportsIndex(t)
	out, _, code := runGds(t, gdsEnv(home), "search", "--json", "--folder", "/beta/", "project report")
	doc := decodeDoc(t, out)
	if code != 0 || doc.End != render.JSONEndResults || len(doc.Results) == 0 {
		t.Fatalf("code %d end %q rounds %+v", code, doc.End, doc.Rounds)
	}
	if r := doc.Rounds[0]; r.Hits != 44 || r.Filters.Folder != "beta" {
		t.Errorf("first round %+v, want 44 hits in folder beta", r)
	}
	for _, r := range doc.Results {
		if r.Path != "beta" {
			t.Errorf("result %s in %q", r.Name, r.Path)
		}
	}
	// The folder as a user types it: any case, the source folder's name
	// with a path, the local path, a local: spec.
	src := filepath.Join(homesDir, "reports-src")
	for _, folder := range []string{"BETA", "reports-src/beta", filepath.Join(src, "beta"), "local:" + filepath.Join(src, "Beta")} {
		out, _, code := runGds(t, gdsEnv(home), "search", "--json", "--folder", folder, "project report")
		doc := decodeDoc(t, out)
		if code != 0 || len(doc.Rounds) == 0 || doc.Rounds[0].Filters.Folder != "beta" || doc.Rounds[0].Hits != 44 {
			t.Errorf("--folder %q: code %d rounds %+v", folder, code, doc.Rounds)
		}
	}
	// A folder the index does not hold is a usage error naming the
	// closest indexed folders.
	out, _, code = runGds(t, gdsEnv(home), "search", "--json", "--folder", "betta", "project report")
	if e := decodeErr(t, out); code != exitUsage || !strings.Contains(e.Message, `"betta"`) || !strings.Contains(e.Message, `closest: "beta"`) ||
		!strings.Contains(e.Hint, "alpha") {
		t.Errorf("--folder betta: code %d %+v", code, e)
	}
	// The token of a question carries the folder, so --folder with --state
	// is refused rather than silently changing the search.
	out, _, code = runGds(t, gdsEnv(home), "search", "--json", "--folder", "beta", "--state", "g1.x")
	if e := decodeErr(t, out); code != exitUsage || !strings.Contains(e.Message, "--folder") {
		t.Errorf("--folder with --state: code %d %+v", code, e)
	}
	// Alfred: --folder (or the workflow variable GDS_FOLDER) limits the
	// keystroke path and the full search of its ⌕ item.
	for _, run := range []struct {
		env  []string
		args []string
	}{
		{nil, []string{"search", "--alfred", "--folder", "beta", "report"}},
		{nil, []string{"alfred", "filter", "--folder", "beta", "report"}},
		{[]string{"GDS_FOLDER=beta"}, []string{"alfred", "filter", "report"}},
		{[]string{"GDS_FOLDER=beta"}, []string{"search", "--alfred", "report"}},
		{[]string{"GDS_FOLDER=alpha"}, []string{"alfred", "filter", "--folder", "beta", "report"}},
		{[]string{"GDS_FOLDER=beta"}, []string{"alfred", "filter", alfred.Marker + " project report 7"}},
	} {
		out, _, code = runGds(t, gdsEnv(home, run.env...), run.args...)
		items := alfredItems(t, out)
		n := 0
		for _, it := range items {
			if it.UID == "" {
				continue
			}
			n++
			var num int
			if _, err := fmt.Sscanf(it.Title, "report-%d.txt", &num); err != nil || num%3 != 1 {
				t.Errorf("%v %q: %q is not in beta", run.env, run.args, it.Title)
			}
		}
		if code != 0 || n == 0 {
			t.Errorf("%v %q: code %d, %d files: %+v", run.env, run.args, code, n, items)
		}
	}
}
