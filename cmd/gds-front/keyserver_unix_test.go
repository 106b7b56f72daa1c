//go:build unix

package main

import (
	"database/sql"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/render/alfred"
	_ "github.com/gds-cli/gds/internal/store/sqlite" // the database/sql driver, to age an index
	"github.com/gds-cli/gds/migrations/migtest"
)

// The front answers a keystroke through the keystroke server only; a
// keystroke no server answers goes to the full CLI, which answers it and
// starts the server. These tests compare the front's answers with the full
// CLI's, served and handed over.

var testBuild = launcher.BuildInfo{Version: "9.8.7", Commit: "feedbee", Date: "2030-01-01T00:00:00Z"}

// hangGuard bounds waits for a background server: not a timing check.
const hangGuard = 60 * time.Second

// shortHome is a gds home holding a copy of the sample index, at a path
// short enough for a Unix socket.
func shortHome(t *testing.T, core string) (home string, cfg *config.Config) {
	t.Helper()
	sample := indexedHome(t, core)
	home, err := os.MkdirTemp("", "gdsfk")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	copyFile(t, filepath.Join(sample, config.IndexFileName), filepath.Join(home, config.IndexFileName))
	return home, &config.Config{Home: home, DataDir: home}
}

// keySocket is the socket of a front run with GDS_HOME=cfg.Home.
func keySocket(cfg *config.Config) string {
	return launcher.KeySocket(func(k string) (string, bool) { return cfg.Home, k == "GDS_HOME" }, "", "")
}

// waitServed waits until a keystroke server answers on cfg's socket.
func waitServed(t *testing.T, cfg *config.Config) {
	t.Helper()
	ty := launcher.Typing{Query: "Tesla", Lang: i18n.En, Now: time.Now()}
	deadline := time.Now().Add(hangGuard)
	for {
		if _, _, ok, _ := launcher.AskKeyServer(keySocket(cfg), testBuild, []string{"GDS_HOME=" + cfg.Home}, "", ty, 10*time.Second); ok {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("no keystroke server answers after the first keystroke")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// stopServer removes the socket — the server exits — and waits until it
// has released its lock.
func stopServer(t *testing.T, cfg *config.Config) {
	t.Helper()
	sock := keySocket(cfg)
	if err := os.Remove(sock); err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	lock, err := os.Open(sock + ".lock")
	if os.IsNotExist(err) {
		return
	}
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	deadline := time.Now().Add(hangGuard)
	for syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the keystroke server kept running after its socket was removed")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// servedHome is shortHome with a keystroke server running, started as a
// user's first keystroke starts it; stopped at the end of the test.
func servedHome(t *testing.T, core string) string {
	t.Helper()
	front, _ := binaries(t)
	home, cfg := shortHome(t, core)
	r := runBin(t, front, []string{"GDS_HOME=" + home, "GDS_CORE=" + core}, "", "alfred", "filter", "steam")
	if r.code != 0 || !strings.Contains(r.stdout, `"items"`) {
		t.Fatalf("first keystroke = %+v", r)
	}
	waitServed(t, cfg)
	t.Cleanup(func() { stopServer(t, cfg) })
	return home
}

// uids counts the file items of an Alfred response.
func uids(t *testing.T, stdout string) int {
	t.Helper()
	var out struct{ Items []struct{ UID string } }
	if err := json.Unmarshal([]byte(stdout), &out); err != nil {
		t.Fatalf("not Alfred JSON (%v): %s", err, stdout)
	}
	n := 0
	for _, it := range out.Items {
		if it.UID != "" {
			n++
		}
	}
	return n
}

// Served keystrokes print what the full CLI prints. The front runs with
// GDS_CORE pointing nowhere: a keystroke it handed over instead would print
// the missing-core item and differ.
func TestFrontKeystrokeEqualsCore(t *testing.T) {
	front, core := binaries(t)
	home := servedHome(t, core)
	queries := [][]string{
		{"梅雨"}, {"steam", "engine"}, {"Tesla"}, {"ポルトガル"}, {"immune system"}, {"先月の議事録PDF"},
		{"zzqx-no-such-word"}, {}, {"  "}, {"2024 slides"},
	}
	matched := 0
	for _, lang := range []string{"C", "ja_JP.UTF-8"} {
		env := []string{"GDS_HOME=" + home, "LANG=" + lang, "GDS_CORE=/nonexistent/gds-core"}
		for _, q := range queries {
			args := append([]string{"alfred", "filter"}, q...)
			f := runBin(t, front, env, "", args...)
			c := runBin(t, core, env[:2], "", args...)
			if f != c {
				t.Errorf("LANG=%s gds %q:\nfront     %+v\nfull CLI  %+v", lang, args, f, c)
			}
			if f.code != 0 {
				t.Fatalf("gds %q: exit %d", args, f.code)
			}
			matched += uids(t, f.stdout)
		}
	}
	if matched == 0 {
		t.Error("no query matched a file of the sample: the comparison proves nothing")
	}
}

// --folder and the workflow variable GDS_FOLDER limit served keystrokes as
// they limit the full CLI's.
func TestFrontKeystrokeFolderEqualsCore(t *testing.T) {
	front, core := binaries(t)
	home := servedHome(t, core)
	for _, tc := range []struct {
		env   []string
		args  []string
		found bool
	}{
		{nil, []string{"--folder", "wiki-en", "steam", "engine"}, true},
		{nil, []string{"--folder=wiki-ja", "steam", "engine"}, false},
		{[]string{"GDS_FOLDER=wiki-ja"}, []string{"steam", "engine"}, false},
		{[]string{"GDS_FOLDER=wiki-en"}, []string{"steam", "engine"}, true},
		{[]string{"GDS_FOLDER=wiki-ja"}, []string{"--folder", "wiki-en", "steam", "engine"}, true}, // the flag wins
		{[]string{"GDS_FOLDER=wiki-ja"}, []string{"梅雨"}, true},
		{[]string{"GDS_FOLDER=wiki-en"}, []string{"2024", "slides"}, false},
	} {
		for _, lang := range []string{"C", "ja_JP.UTF-8"} {
			env := append([]string{"GDS_HOME=" + home, "LANG=" + lang}, tc.env...)
			args := append([]string{"alfred", "filter"}, tc.args...)
			f := runBin(t, front, append(env, "GDS_CORE=/nonexistent/gds-core"), "", args...)
			c := runBin(t, core, env, "", args...)
			if f != c {
				t.Errorf("%v LANG=%s gds %q:\nfront     %+v\nfull CLI  %+v", tc.env, lang, args, f, c)
			}
			if n := uids(t, f.stdout); f.code != 0 || (n > 0) != tc.found {
				t.Errorf("%v gds %q: %d files, want found=%v: %+v", tc.env, args, n, tc.found, f)
			}
		}
	}
	// The header names the folder the ⌕ item searches.
	r := runBin(t, front, []string{"GDS_HOME=" + home, "GDS_CORE=/nonexistent/gds-core"}, "", "alfred", "filter", "--folder", "wiki-en", "steam")
	if !strings.Contains(r.stdout, "in folder wiki-en") {
		t.Errorf("header without the folder: %s", r.stdout)
	}
}

// Keystrokes no server answers — no index yet, a bad configuration — are
// the full CLI's: the same error items.
func TestFrontKeystrokeErrorsEqualCore(t *testing.T) {
	front, core := binaries(t)
	for name, env := range map[string][]string{
		"no index":   {"GDS_HOME=" + t.TempDir()},
		"bad config": {"GDS_HOME=" + t.TempDir(), "GDS_AI_PROVIDER=nonsense"},
	} {
		f := runBin(t, front, append(env, "GDS_CORE="+core), "", "alfred", "filter", "budget")
		c := runBin(t, core, env, "", "alfred", "filter", "budget")
		if f != c {
			t.Errorf("%s:\nfront     %+v\nfull CLI  %+v", name, f, c)
		}
		if !strings.Contains(f.stdout, `"items"`) || f.stderr == "" {
			t.Errorf("%s: want an error item and a line on stderr: %+v", name, f)
		}
	}
}

// With the server turned off every keystroke is the full CLI's and none
// asks for a server. Turned on, the keyword alone (an empty query) is
// answered by the front, which starts the server; a first letter with no
// server is handed to the full CLI — the same answer — asking it to start
// one; the keystrokes after it are served.
func TestFrontStartsKeyServer(t *testing.T) {
	front, core := binaries(t)
	home, cfg := shortHome(t, core)
	wrapper, readMarks := coreWrapper(t, core)

	env := []string{"GDS_HOME=" + home, "GDS_CORE=" + wrapper, launcher.KeyServerEnv + "=off"}
	for range 2 {
		f := runBin(t, front, env, "", "alfred", "filter", "steam engine")
		if c := runBin(t, core, env[:1], "", "alfred", "filter", "steam engine"); f != c || uids(t, f.stdout) == 0 {
			t.Fatalf("server off:\nfront    %+v\nfull CLI %+v", f, c)
		}
	}
	if m, want := readMarks(), strings.Repeat("start= alfred filter steam engine\n", 2); m != want {
		t.Errorf("server off: the full CLI ran %q, want %q", m, want)
	}

	env = env[:2]
	// The keyword alone (an empty query, as Alfred runs it first): the
	// front prints the prompt item itself — the full CLI's bytes — and
	// starts the server; the next one is served.
	for _, lang := range []string{"C", "ja_JP.UTF-8"} {
		e := append([]string{"LANG=" + lang, "GDS_FOLDER=wiki-en"}, env...)
		f := runBin(t, front, e, "", "alfred", "filter")
		if c := runBin(t, core, e[:3], "", "alfred", "filter"); f != c || f.code != 0 {
			t.Errorf("LANG=%s keyword alone:\nfront    %+v\nfull CLI %+v", lang, f, c)
		}
		waitServed(t, cfg)
	}
	if m, want := readMarks(), "start= alfred keyserver\n"; m != want {
		t.Errorf("the keyword alone: the full CLI ran %q, want %q (the server started once)", m, want)
	}
	stopServer(t, cfg)

	// A first letter with no server: handed over, asking for a server.
	first := runBin(t, front, env, "", "alfred", "filter", "steam engine")
	if want := runBin(t, core, env[:1], "", "alfred", "filter", "steam engine"); first != want {
		t.Fatalf("first keystroke:\nfront    %+v\nfull CLI %+v", first, want)
	}
	if m, want := readMarks(), "start=1 alfred filter steam engine\n"; m != want {
		t.Errorf("first keystroke: the full CLI ran %q, want %q", m, want)
	}
	waitServed(t, cfg)
	for _, lang := range []string{"C", "ja_JP.UTF-8"} {
		for _, q := range []string{"梅雨", "Tesla", "zzqx-no-such-word"} {
			e := []string{"LANG=" + lang, "GDS_HOME=" + home, "GDS_CORE=" + wrapper}
			f := runBin(t, front, e, "", "alfred", "filter", q)
			c := runBin(t, core, e[:2], "", "alfred", "filter", q)
			if f != c {
				t.Errorf("LANG=%s %q served:\nfront    %+v\nfull CLI %+v", lang, q, f, c)
			}
		}
	}
	if m := readMarks(); m != "" {
		t.Errorf("served keystrokes went to the full CLI: %q", m)
	}
	stopServer(t, cfg)
}

// After an upgrade whose migrations the index has not had yet, the first
// keystroke finds no server and is handed over: the full CLI answers that
// the index is being updated and starts the server, which updates it (the
// read-only keystroke path cannot); the keystrokes after that are served
// from the updated index, as the full CLI answers them.
func TestFrontUpdatesAnOldIndex(t *testing.T) {
	front, core := binaries(t)
	home, cfg := shortHome(t, core)
	db, err := sql.Open("sqlite", cfg.IndexPath())
	if err != nil {
		t.Fatal(err)
	}
	if err := migtest.AgeSQLite(db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	t.Cleanup(func() { stopServer(t, cfg) })
	env := []string{"GDS_HOME=" + home, "GDS_CORE=" + core}
	updating := i18n.T(i18n.En, "alfred.updating.title")
	if before := runBin(t, core, env[:1], "", "alfred", "filter", "steam engine"); !strings.Contains(before.stdout, "gds db migrate") {
		t.Fatalf("the full CLI alone on the old index: %+v; the test no longer starts from an old index", before)
	}
	first := runBin(t, front, env, "", "alfred", "filter", "steam engine")
	if !strings.Contains(first.stdout, updating) || first.code != 0 {
		t.Fatalf("first keystroke on the old index: %+v, want the item %q", first, updating)
	}
	deadline := time.Now().Add(hangGuard)
	for {
		f := runBin(t, front, env, "", "alfred", "filter", "steam engine")
		if !strings.Contains(f.stdout, updating) {
			if c := runBin(t, core, env[:1], "", "alfred", "filter", "steam engine"); f != c || uids(t, f.stdout) == 0 {
				t.Fatalf("after the update:\nfront    %+v\nfull CLI %+v", f, c)
			}
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the index was still being updated after the hang guard")
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// coreWrapper is gds-core behind a script that records each run — its
// arguments and whether the front asked it to start a server — for
// readMarks, which returns the runs so far and forgets them.
func coreWrapper(t *testing.T, core string) (wrapper string, readMarks func() string) {
	t.Helper()
	dir := t.TempDir()
	marks := filepath.Join(dir, "marks")
	wrapper = filepath.Join(dir, "core")
	script := "#!/bin/sh\nprintf 'start=%s %s\\n' \"$" + launcher.StartServerEnv + "\" \"$*\" >> '" + marks + "'\nexec '" + core + "' \"$@\"\n"
	if err := os.WriteFile(wrapper, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	return wrapper, func() string {
		b, _ := os.ReadFile(marks)
		os.Remove(marks)
		return string(b)
	}
}

// A full search — `gds search WORDS` from a script, Alfred's ⌕ items — is
// run by the keystroke server for a front in the server's environment: the
// full CLI's bytes and exit code, without starting gds-core. A front in
// another environment (here another language) hands it to gds-core.
func TestFrontServesFullSearch(t *testing.T) {
	front, core := binaries(t)
	home, cfg := shortHome(t, core)
	wrapper, readMarks := coreWrapper(t, core)
	env := []string{"GDS_HOME=" + home, "GDS_CORE=" + wrapper}
	runBin(t, front, env, "", "alfred", "filter") // the keyword alone starts the server
	waitServed(t, cfg)
	if m := readMarks(); m != "start= alfred keyserver\n" {
		t.Fatalf("starting the server: the full CLI ran %q", m)
	}
	t.Cleanup(func() { stopServer(t, cfg) })

	found := 0
	for _, args := range [][]string{
		{"search", "steam engine"}, {"search", "梅雨", "の", "時期"}, {"search", "zzqx-no-such-word"},
		{"alfred", "filter", alfred.RunText("steam engine")}, {"alfred", "filter", alfred.RunText("先月の議事録PDF")},
	} {
		f := runBin(t, front, env, "", args...)
		c := runBin(t, core, env[:1], "", args...)
		if f != c {
			t.Errorf("gds %q served:\nfront    %+v\nfull CLI %+v", args, f, c)
		}
		if strings.Contains(f.stdout, "drive.google.com") || strings.Contains(f.stdout, `"uid"`) || strings.Contains(f.stdout, "wiki-") {
			found++
		}
	}
	if m := readMarks(); m != "" {
		t.Errorf("served searches went to the full CLI: %q", m)
	}
	if found == 0 {
		t.Error("no served search found a file: the comparison proves little")
	}

	ja := append([]string{"LANG=ja_JP.UTF-8"}, env...)
	f := runBin(t, front, ja, "", "search", "steam engine")
	if c := runBin(t, core, ja[:2], "", "search", "steam engine"); f != c {
		t.Errorf("another environment:\nfront    %+v\nfull CLI %+v", f, c)
	}
	if m := readMarks(); m != "start= search steam engine\n" {
		t.Errorf("another environment: the full CLI ran %q, want the search handed over", m)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
