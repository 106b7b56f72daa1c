//go:build unix

package keystroke

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
	"github.com/gds-cli/gds/migrations/migtest"
)

// keyHome is a gds home (short enough for a socket path) whose index holds
// files (ID prefix p) about words, in two folders and two types.
func keyHome(t *testing.T, p string, words []string) *config.Config {
	t.Helper()
	dir, err := os.MkdirTemp("", "gdsks")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	cfg := &config.Config{Home: dir, DataDir: dir}
	writeKeyIndex(t, cfg.IndexPath(), p, words)
	return cfg
}

// frontEnv is the environment of a front whose gds home is cfg's.
func frontEnv(cfg *config.Config) []string {
	return []string{"GDS_HOME=" + cfg.Home, "HOME=" + cfg.Home}
}

// socketOf is the keystroke socket such a front asks.
func socketOf(cfg *config.Config) string {
	env := frontEnv(cfg)
	return launcher.KeySocket(func(k string) (string, bool) {
		for _, kv := range env {
			if name, v, _ := strings.Cut(kv, "="); name == k {
				return v, true
			}
		}
		return "", false
	}, "", "")
}

func writeKeyIndex(t *testing.T, path, p string, words []string) {
	t.Helper()
	ctx := context.Background()
	st, err := sqlite.Open(ctx, path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	mod := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	for i := range 40 {
		w := words[i%len(words)]
		mime, folder := "text/plain", "notes"
		if i%4 == 0 {
			mime, folder = "application/pdf", "reports/2026"
		}
		text := fmt.Sprintf("%s report number %d about the %s budget. 予算の報告 %d", w, i, w, i)
		f := store.File{ID: fmt.Sprintf("%s%02d", p, i), Name: fmt.Sprintf("%s-%02d.txt", w, i), MimeType: mime,
			ModifiedAt: mod.AddDate(0, 0, i), Path: folder, Source: "local:/data", ContentHash: fmt.Sprint(i),
			Provider: "offline", IndexedAt: mod, Text: text, Embedding: []float32{1, 0}, WebLink: "https://example.com/" + fmt.Sprint(i)}
		if err := st.UpsertFile(ctx, f, nil); err != nil {
			t.Fatal(err)
		}
	}
}

// startKeys runs Serve in the background and returns its error channel.
func startKeys(t *testing.T, opts ServerOptions) <-chan error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- Serve(context.Background(), opts) }()
	deadline := time.Now().Add(20 * time.Second) // a hang guard, not a timing check
	for {
		if _, err := os.Stat(opts.Socket); err == nil {
			return done
		}
		select {
		case err := <-done:
			t.Fatalf("Serve ended before listening: %v", err)
		case <-time.After(5 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			t.Fatal("the keystroke server did not listen")
		}
	}
}

// waitEnd waits for the server to return (hang guard only).
func waitEnd(t *testing.T, done <-chan error) error {
	t.Helper()
	select {
	case err := <-done:
		return err
	case <-time.After(30 * time.Second):
		t.Fatal("the keystroke server did not stop")
		return nil
	}
}

var testBuild = launcher.BuildInfo{Version: "1.2.3", Commit: "abc", Date: "2026-01-01"}

func direct(t *testing.T, cfg *config.Config, ty launcher.Typing) (string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	err := Answer(context.Background(), &out, &errb, cfg, func(ctx context.Context) (Index, error) { return OpenIndex(ctx, cfg) }, ty)
	if err != nil {
		t.Fatal(err)
	}
	return out.String(), errb.String()
}

// A served keystroke prints exactly what the front prints answering it
// itself: hits, a filter, a folder, sources, no hit, an error item, both
// languages.
func TestKeyServerAnswersAsDirect(t *testing.T) {
	cfg := keyHome(t, "a", []string{"alpha", "beta", "gamma"})
	sock := socketOf(cfg)
	done := startKeys(t, ServerOptions{Socket: sock, Config: cfg, Build: testBuild})
	now := time.Date(2026, 6, 1, 9, 30, 0, 0, time.Local) // the front sends its local time
	cases := []launcher.Typing{
		{Query: "alpha budget", Lang: i18n.En},
		{Query: "alpha budget", Lang: i18n.Ja},
		{Query: "予算", Lang: i18n.Ja},
		{Query: "先月の予算", Lang: i18n.Ja},
		{Query: "budget from April", Lang: i18n.En},
		{Query: "beta PDF", Lang: i18n.En},
		{Query: "gamma", Lang: i18n.En, Folder: "reports"},
		{Query: "gamma", Lang: i18n.En, SourceVar: "local:/data"},
		{Query: "gamma", Lang: i18n.En, SourceVar: "nonsense:kind"},
		{Query: "zzzz nothing", Lang: i18n.En},
		{Query: "alpha", Lang: i18n.En, Home: "/Users/someone"},
	}
	served := 0
	for _, ty := range cases {
		ty.Now = now
		wantOut, wantErr := direct(t, cfg, ty)
		out, errb, ok, running := launcher.AskKeyServer(sock, testBuild, frontEnv(cfg), "", ty, 20*time.Second)
		if !ok || !running {
			t.Fatalf("%+v: not served (ok %v, running %v)", ty, ok, running)
		}
		served++
		if string(out) != wantOut || string(errb) != wantErr {
			t.Errorf("%+v:\nserved %s / %q\ndirect %s / %q", ty, out, errb, wantOut, wantErr)
		}
	}
	if !strings.Contains(string(mustAsk(t, sock, cfg, launcher.Typing{Query: "alpha", Lang: i18n.En, Now: now})), "alpha-") {
		t.Error("the served answer lists no alpha file")
	}
	// Removing the socket stops the server.
	if err := os.Remove(sock); err != nil {
		t.Fatal(err)
	}
	if err := waitEnd(t, done); err != nil {
		t.Errorf("Serve = %v after its socket was removed", err)
	}
	if _, _, ok, running := launcher.AskKeyServer(sock, testBuild, frontEnv(cfg), "", cases[0], time.Second); ok || running {
		t.Error("a stopped server still answers")
	}
}

func mustAsk(t *testing.T, sock string, cfg *config.Config, ty launcher.Typing) []byte {
	t.Helper()
	out, _, ok, _ := launcher.AskKeyServer(sock, testBuild, frontEnv(cfg), "", ty, 20*time.Second)
	if !ok {
		t.Fatalf("%+v: not served", ty)
	}
	return out
}

// The server reads a replaced index file (a reset, a restore) on the next
// keystroke, not the one it opened first.
func TestKeyServerReopensReplacedIndex(t *testing.T) {
	cfg := keyHome(t, "a", []string{"alpha"})
	sock := socketOf(cfg)
	done := startKeys(t, ServerOptions{Socket: sock, Config: cfg, Build: testBuild})
	ty := launcher.Typing{Query: "omega", Lang: i18n.En, Now: time.Now()}
	if out := mustAsk(t, sock, cfg, ty); strings.Contains(string(out), "omega-") {
		t.Fatalf("omega found before it was indexed: %s", out)
	}
	fresh := filepath.Join(filepath.Dir(cfg.IndexPath()), "fresh.db")
	writeKeyIndex(t, fresh, "o", []string{"omega"})
	if err := os.Rename(fresh, cfg.IndexPath()); err != nil {
		t.Fatal(err)
	}
	for _, suffix := range []string{"-wal", "-shm"} {
		os.Remove(cfg.IndexPath() + suffix)
	}
	out := mustAsk(t, sock, cfg, ty)
	wantOut, _ := direct(t, cfg, ty)
	if !strings.Contains(string(out), "omega-") || string(out) != wantOut {
		t.Errorf("after the index was replaced: served %s, direct %s", out, wantOut)
	}
	os.Remove(sock)
	waitEnd(t, done)
}

// A front of another build or index is refused — and the server, out of
// date, exits; a second server for the same socket is refused; only the
// owner may connect; an idle server exits.
func TestKeyServerRefusesAndExits(t *testing.T) {
	cfg := keyHome(t, "a", []string{"alpha"})
	sock := socketOf(cfg)
	done := startKeys(t, ServerOptions{Socket: sock, Config: cfg, Build: testBuild})
	ty := launcher.Typing{Query: "alpha", Lang: i18n.En, Now: time.Now()}
	if err := Serve(context.Background(), ServerOptions{Socket: sock, Config: cfg, Build: testBuild}); !errors.Is(err, ErrServerRunning) {
		t.Errorf("second server = %v, want ErrServerRunning", err)
	}
	if fi, err := os.Stat(sock); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("socket mode: %v, %v; want 0600", fi.Mode(), err)
	}
	mustAsk(t, sock, cfg, ty)
	other := launcher.BuildInfo{Version: "1.2.4", Commit: "def", Date: "2026-02-01"}
	if _, _, ok, running := launcher.AskKeyServer(sock, other, frontEnv(cfg), "", ty, 20*time.Second); ok || !running {
		t.Errorf("another build: ok %v running %v, want refused", ok, running)
	}
	if err := waitEnd(t, done); err != nil {
		t.Errorf("Serve = %v after a newer front", err)
	}
	if _, err := os.Stat(sock); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the socket outlived its server: %v", err)
	}

	done = startKeys(t, ServerOptions{Socket: sock, Config: cfg, Build: testBuild})
	if _, _, ok, running := launcher.AskKeyServer(sock, testBuild, []string{"GDS_HOME=/elsewhere"}, "", ty, 20*time.Second); ok || !running {
		t.Errorf("another index: ok %v running %v, want refused", ok, running)
	}
	if err := waitEnd(t, done); err != nil {
		t.Errorf("Serve = %v after a front with another index", err)
	}

	// Idle long enough that a loaded machine sees it listen first.
	done = startKeys(t, ServerOptions{Socket: sock, Config: cfg, Build: testBuild, Idle: 2 * time.Second, Check: 50 * time.Millisecond})
	if err := waitEnd(t, done); err != nil {
		t.Errorf("idle Serve = %v", err)
	}
}

// A Served command line runs in the server only for a front in the same
// environment and only when it is one (a full search); it is cancelled
// when the front goes away; a panic refuses it (the front then hands it
// over) and the server goes on.
func TestKeyServerRunsServed(t *testing.T) {
	cfg := keyHome(t, "a", []string{"alpha"})
	sock := socketOf(cfg)
	cancelled := make(chan struct{})
	run := func(ctx context.Context, args []string, stdout, stderr io.Writer) int {
		switch args[len(args)-1] {
		case "block":
			<-ctx.Done()
			close(cancelled)
			return 1
		case "panic":
			panic("boom")
		}
		fmt.Fprint(stdout, strings.Join(args, "|"))
		fmt.Fprint(stderr, "note")
		return 3
	}
	dir := t.TempDir()
	envs := map[string][]string{"E1": frontEnv(cfg), "E2": append(frontEnv(cfg), "LANG=ja_JP.UTF-8"), "": frontEnv(cfg)}
	done := startKeys(t, ServerOptions{Socket: sock, Config: cfg, Build: testBuild, Run: run, Env: ServedEnvKey(envs["E1"], dir)})
	ask := func(args []string, env string, timeout time.Duration) (launcher.KeyResponse, bool) {
		return launcher.AskServed(sock, testBuild, envs[env], dir, args, timeout)
	}
	resp, ok := ask([]string{"search", "alpha", "budget"}, "E1", 20*time.Second)
	if !ok || string(resp.Stdout) != "search|alpha|budget" || string(resp.Stderr) != "note" || resp.Exit != 3 {
		t.Errorf("served search = %+v, %v", resp, ok)
	}
	for name, tc := range map[string]struct {
		args []string
		env  string
	}{
		"another environment": {[]string{"search", "alpha"}, "E2"},
		"not a full search":   {[]string{"crawl"}, "E1"},
		"a search with flags": {[]string{"search", "--json", "alpha"}, "E1"},
		"a panic":             {[]string{"search", "panic"}, "E1"},
	} {
		if resp, ok := ask(tc.args, tc.env, 20*time.Second); ok {
			t.Errorf("%s: served %+v", name, resp)
		}
	}
	if _, ok := ask([]string{"search", "block"}, "E1", 200*time.Millisecond); ok {
		t.Error("a run past the front's timeout was answered")
	}
	select {
	case <-cancelled:
	case <-time.After(30 * time.Second): // hang guard
		t.Fatal("the run went on after its front had gone")
	}
	// Keystrokes are still served.
	mustAsk(t, sock, cfg, launcher.Typing{Query: "alpha", Lang: i18n.En, Now: time.Now()})
	os.Remove(sock)
	waitEnd(t, done)

	// A server without Run refuses every command line.
	done = startKeys(t, ServerOptions{Socket: sock, Config: cfg, Build: testBuild})
	if resp, ok := ask([]string{"search", "alpha"}, "", 20*time.Second); ok {
		t.Errorf("a server without Run served %+v", resp)
	}
	os.Remove(sock)
	waitEnd(t, done)
}

// An index an older gds made (its newest migration not applied) cannot be
// opened read-only: the server updates it itself, answering keystrokes
// with the Updating item meanwhile (both languages), and answers them from
// the updated index once that is done — as the same keystroke answered
// directly from an index that was never old.
func TestKeyServerUpdatesAnOldIndex(t *testing.T) {
	cfg := keyHome(t, "u", []string{"alpha", "beta"})
	db, err := sql.Open("sqlite", cfg.IndexPath())
	if err != nil {
		t.Fatal(err)
	}
	// The latest migration undone: an index an older gds left.
	if err := migtest.AgeSQLite(db); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if _, err := OpenIndex(context.Background(), cfg); !errors.Is(err, store.ErrSchemaOld) {
		t.Fatalf("read-only open of the old index: %v, want store.ErrSchemaOld", err)
	}

	release, migrated := make(chan struct{}), make(chan error, 1)
	sock := socketOf(cfg)
	done := startKeys(t, ServerOptions{Socket: sock, Config: cfg, Build: testBuild, Migrate: func(ctx context.Context) error {
		<-release // the update is under way until the test lets it end
		st, err := sqlite.Open(ctx, cfg.IndexPath(), sqlite.Options{})
		if err == nil {
			err = st.Close()
		}
		migrated <- err
		return err
	}})
	now := time.Date(2026, 6, 1, 9, 30, 0, 0, time.Local)
	for _, lang := range []string{i18n.En, i18n.Ja} {
		out, _, ok, _ := launcher.AskKeyServer(sock, testBuild, frontEnv(cfg), "", launcher.Typing{Query: "alpha", Lang: lang, Now: now}, 20*time.Second)
		if want := i18n.T(lang, "alfred.updating.title"); !ok || !strings.Contains(string(out), want) {
			t.Fatalf("%s keystroke while updating (ok %v): %s, want the item %q", lang, ok, out, want)
		}
	}
	close(release)
	if err := <-migrated; err != nil {
		t.Fatalf("the update failed: %v", err)
	}
	ty := launcher.Typing{Query: "alpha", Lang: i18n.En, Now: now}
	want, _ := direct(t, cfg, ty)                // the updated index opens read-only again
	deadline := time.Now().Add(20 * time.Second) // a hang guard, not a timing check
	for {
		out, _, ok, _ := launcher.AskKeyServer(sock, testBuild, frontEnv(cfg), "", ty, 20*time.Second)
		if ok && string(out) == want {
			break
		}
		if !ok || !strings.Contains(string(out), i18n.T(i18n.En, "alfred.updating.title")) || time.Now().After(deadline) {
			t.Fatalf("keystroke after the update (ok %v): %s\nwant %s", ok, out, want)
		}
		time.Sleep(5 * time.Millisecond) // the update's goroutine has not recorded its end yet
	}
	if !strings.Contains(want, "alpha-") {
		t.Errorf("the updated index does not find alpha: %s", want)
	}
	os.Remove(sock)
	if err := waitEnd(t, done); err != nil {
		t.Errorf("Serve: %v", err)
	}
}

// A keystroke whose keywords match nothing — a compound the rules keep
// whole (予算報告書) where the files say 予算の報告 — lists the files sharing
// words with the typed text, each saying it is a full-text match only (both
// languages); a keystroke that matches its keywords says nothing of it.
func TestAlfredFullTextLastResort(t *testing.T) {
	cfg := keyHome(t, "f", []string{"alpha", "beta"})
	open := func(ctx context.Context) (Index, error) { return OpenIndex(ctx, cfg) }
	for _, lang := range []string{i18n.En, i18n.Ja} {
		out, err := Alfred(context.Background(), open, Request{Query: "予算報告書", Lang: lang, Limit: AlfredLimit, Now: time.Now()})
		if err != nil {
			t.Fatal(err)
		}
		prefix := strings.TrimSpace(i18n.T(lang, "alfred.fulltext_fallback.sub", ""))
		files := 0
		for _, it := range out.Items[1:] {
			if it.UID == "" {
				continue
			}
			files++
			if !strings.HasPrefix(it.Subtitle, prefix) {
				t.Errorf("%s: file item %q subtitle %q lacks the full-text notice %q", lang, it.Title, it.Subtitle, prefix)
			}
		}
		if files == 0 {
			t.Errorf("%s: 予算報告書 found no file by its words: %+v", lang, out.Items)
		}
	}
	out, err := Alfred(context.Background(), open, Request{Query: "予算", Lang: i18n.En, Limit: AlfredLimit, Now: time.Now()})
	if err != nil || len(out.Items) < 2 || strings.Contains(out.Items[1].Subtitle, "Full-text") {
		t.Errorf("予算 (a keyword match): %v %+v", err, out.Items)
	}
}

// waitResident waits until the server holds the index's full text in
// memory (a hang guard, not a timing check).
func waitResident(t *testing.T, s *keyServer) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for s.heldResident() == nil {
		if time.Now().After(deadline) {
			t.Fatal("the full text was not loaded into memory")
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Keystrokes answered from the full text in memory print what the index
// itself gives; a change to the index drops it (the keystrokes see the
// change at once) until it is loaded again; an index over the limit is
// never held.
func TestKeyServerAnswersFromResident(t *testing.T) {
	cfg := keyHome(t, "a", []string{"alpha", "beta", "gamma"})
	s := &keyServer{cfg: cfg, ctx: context.Background()}
	t.Cleanup(func() { s.updates.Wait(); s.close() })
	if _, err := s.open(context.Background()); err != nil {
		t.Fatal(err)
	}
	waitResident(t, s)
	now := time.Date(2026, 6, 1, 9, 30, 0, 0, time.Local)
	cases := []launcher.Typing{
		{Query: "alpha budget", Lang: i18n.En},
		{Query: "予算", Lang: i18n.Ja},
		{Query: "予", Lang: i18n.Ja},
		{Query: "先月の予算", Lang: i18n.Ja},
		{Query: "beta PDF", Lang: i18n.En},
		{Query: "gamma", Lang: i18n.En, Folder: "reports"},
		{Query: "gamma", Lang: i18n.En, SourceVar: "local:/data"},
		{Query: "zzzz nothing", Lang: i18n.En},
	}
	answerBy := func(srv *keyServer, ty launcher.Typing) string {
		var out, errb bytes.Buffer
		if err := Answer(context.Background(), &out, &errb, cfg, srv.open, ty); err != nil {
			t.Fatal(err)
		}
		return out.String() + errb.String()
	}
	answer := func(ty launcher.Typing) string { return answerBy(s, ty) }
	for _, ty := range cases {
		ty.Now = now
		wantOut, wantErr := direct(t, cfg, ty)
		if got := answer(ty); got != wantOut+wantErr {
			t.Errorf("%+v:\nfrom memory %s\ndirect      %s", ty, got, wantOut+wantErr)
		}
	}
	if n := s.fromMemory.Load(); n < int64(len(cases)) {
		t.Errorf("%d keyword searches answered from memory, want at least %d", n, len(cases))
	}

	// A crawl adds a file: the next keystroke finds it.
	st, err := sqlite.Open(context.Background(), cfg.IndexPath(), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	f := store.File{ID: "new", Name: "omega-plan.txt", MimeType: "text/plain", ModifiedAt: now, Path: "notes",
		Source: "local:/data", IndexedAt: now, Text: "omega plan", Embedding: []float32{1, 0}}
	if err := st.UpsertFile(context.Background(), f, nil); err != nil {
		t.Fatal(err)
	}
	st.Close()
	ty := launcher.Typing{Query: "omega", Lang: i18n.En, Now: now}
	wantOut, _ := direct(t, cfg, ty)
	if got := answer(ty); got != wantOut || !strings.Contains(got, "omega-plan") {
		t.Errorf("after a write: %s, direct %s", got, wantOut)
	}
	if s.heldResident() != nil {
		t.Error("the full text of the old index is still held")
	}
	s.mu.Lock()
	s.nextLoad = time.Time{} // the retry delay is over
	s.mu.Unlock()
	before := s.fromMemory.Load()
	answer(ty)
	waitResident(t, s)
	if got := answer(ty); got != wantOut || s.fromMemory.Load() == before {
		t.Errorf("reloaded: %s (from memory %v), direct %s", got, s.fromMemory.Load() > before, wantOut)
	}

	// Over the limit: never held, still answered.
	big := &keyServer{cfg: cfg, ctx: context.Background(), maxResident: 5}
	t.Cleanup(func() { big.updates.Wait(); big.close() })
	if _, err := big.open(context.Background()); err != nil {
		t.Fatal(err)
	}
	big.updates.Wait()
	if got := answerBy(big, ty); got != wantOut || big.heldResident() != nil || big.fromMemory.Load() != 0 {
		t.Errorf("over the limit: held %v, answer %s", big.heldResident() != nil, got)
	}
}

// The server reads each front's configuration from the environment and
// directory the front sends, as the full CLI would: a Postgres index or a
// configuration that does not load is refused (the front hands it to the
// full CLI) and the server goes on; a .env file of the front's directory
// counts, and a change to it is seen at the next keystroke — naming
// another index, which a server of this one refuses, and exits.
func TestKeyServerReadsTheFrontsConfiguration(t *testing.T) {
	cfg := keyHome(t, "a", []string{"alpha"})
	sock := socketOf(cfg)
	done := startKeys(t, ServerOptions{Socket: sock, Config: cfg, Build: testBuild})
	ty := launcher.Typing{Query: "alpha", Lang: i18n.En, Now: time.Now()}
	ask := func(env []string, dir string) (ok, running bool) {
		_, _, ok, running = launcher.AskKeyServer(sock, testBuild, env, dir, ty, 20*time.Second)
		return ok, running
	}
	for name, env := range map[string][]string{
		"postgres":  append(frontEnv(cfg), config.EnvDatabaseURL+"=postgres://u@localhost/gds"),
		"bad value": append(frontEnv(cfg), config.EnvCrawlConcurrency+"=many"),
	} {
		if ok, running := ask(env, ""); ok || !running {
			t.Errorf("%s: ok %v running %v, want refused", name, ok, running)
		}
	}
	if ok, _ := ask(frontEnv(cfg), ""); !ok {
		t.Fatal("the server stopped serving after refusing")
	}
	dir := t.TempDir()
	dotenv := filepath.Join(dir, config.EnvFileName)
	if err := os.WriteFile(dotenv, []byte("GDS_HOME="+cfg.Home+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	env := []string{"HOME=" + t.TempDir()} // the home comes from the directory's .env
	if ok, _ := ask(env, dir); !ok {
		t.Error("a front whose .env names the index: refused")
	}
	if err := os.WriteFile(dotenv, []byte("GDS_HOME="+t.TempDir()+"/elsewhere\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if ok, running := ask(env, dir); ok || !running {
		t.Errorf("after the .env named another index: ok %v running %v, want refused", ok, running)
	}
	if err := waitEnd(t, done); err != nil {
		t.Errorf("Serve = %v after a front with another index", err)
	}
}
