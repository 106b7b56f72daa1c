package app

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/rebuild"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// What a damaged index says of an upload is cleaned as an upload's own
// metadata is: it may say anything.
func TestWithSalvaged(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	base := upload{Upload: rebuild.Upload{ID: "u1", Stored: "u1.txt", Meta: store.DocumentMeta{FileID: "u1", StoredName: "u1.txt", CreatedAt: t0, UpdatedAt: t0}}, name: "u1.txt"}
	created := t0.Add(-time.Hour)
	cases := []struct {
		name                string
		s                   sqlite.Salvaged
		found               bool
		wantName, wantTitle string
		wantTags            []string
		named, described    bool
	}{
		{"nothing read", sqlite.Salvaged{}, false, "u1.txt", "", nil, false, false},
		{"name only", sqlite.Salvaged{Name: "Q3 report.txt"}, true, "Q3 report.txt", "", nil, true, false},
		{"all", sqlite.Salvaged{Name: "../../etc/passwd\x1b[31m", Meta: store.DocumentMeta{FileID: "u1", Title: " Zebra\x07 survey ", Tags: []string{"a", "a", " b "}, CreatedAt: created}},
			true, "passwd[31m", "Zebra survey", []string{"a", "b"}, true, true},
		{"tags over the limit", sqlite.Salvaged{Meta: store.DocumentMeta{FileID: "u1", Tags: []string{strings.Repeat("x", MaxTagLen+1)}}}, true, "u1.txt", "", nil, false, true},
		{"another file's record", sqlite.Salvaged{Meta: store.DocumentMeta{FileID: "u2", Title: "other"}}, true, "u1.txt", "", nil, false, false},
	}
	for _, tc := range cases {
		u, named, described := withSalvaged(base, tc.s, tc.found)
		if u.name != tc.wantName || u.Meta.Title != tc.wantTitle || !slices.Equal(u.Meta.Tags, tc.wantTags) || named != tc.named || described != tc.described {
			t.Errorf("%s: name %q title %q tags %q named %v described %v", tc.name, u.name, u.Meta.Title, u.Meta.Tags, named, described)
		}
		if tc.name == "all" && !u.Meta.CreatedAt.Equal(created) {
			t.Errorf("created %v, want %v", u.Meta.CreatedAt, created)
		}
		if u.Stored != "u1.txt" || u.ID != "u1" || u.Meta.StoredName != "u1.txt" {
			t.Errorf("%s: the stored file changed: %+v", tc.name, u)
		}
	}
}

// Postgres is not gds's to rebuild: refused with the reason, touching
// nothing.
func TestRebuildRefusesPostgres(t *testing.T) {
	d := New(Options{Config: loadConfig(t, map[string]string{"DATABASE_URL": "postgres://u:secret@db.example:5432/gds"})})
	_, err := d.Rebuild(context.Background(), RebuildRequest{})
	r := apperr.Describe(err, i18n.En)
	if r.Exit != apperr.ExitUsage || !strings.Contains(r.Message, "Postgres") || strings.Contains(r.Message, "secret") ||
		!strings.Contains(r.Hint, "administrator") {
		t.Errorf("Rebuild on Postgres: %+v", r)
	}
	if _, err := os.Stat(d.Config.DataDir); err == nil {
		if entries, _ := os.ReadDir(d.Config.DataDir); len(entries) > 0 {
			t.Errorf("the refused rebuild wrote %v", entries)
		}
	}
}

// rebuildDeps is Deps over a gds home whose index holds a local folder of
// files and one upload with a title and tags.
func rebuildDeps(t *testing.T) (*Deps, Document) {
	t.Helper()
	docs := t.TempDir()
	for i, w := range []string{"aardvark", "basilisk", "capybara"} {
		if err := os.WriteFile(filepath.Join(docs, fmt.Sprintf("note-%d.txt", i)), []byte("notes about the "+w+" enclosure"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	d := New(Options{Config: loadConfig(t, map[string]string{"GDS_AI_PROVIDER": "offline", "GDS_SOURCE": "local:" + docs})})
	ctx := context.Background()
	if _, err := d.Crawl(ctx, CrawlRequest{}); err != nil {
		t.Fatal(err)
	}
	doc, err := d.UploadDocument(ctx, UploadRequest{Filename: "zebra.txt", Body: strings.NewReader("the zebra migration survey"),
		Title: "Zebra survey", Tags: []string{"wildlife", "survey"}})
	if err != nil {
		t.Fatal(err)
	}
	return d, doc
}

// uploadDoc returns the upload as the document list shows it.
func uploadDoc(t *testing.T, d *Deps, id string) Document {
	t.Helper()
	list, err := d.ListDocuments(context.Background(), 1, 50, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, doc := range list.Items {
		if doc.ID == id {
			return doc
		}
	}
	t.Fatalf("upload %s not in the new index (%d documents)", id, list.Total)
	return Document{}
}

// A rebuild of an index whose records can be read brings every source
// file and the upload back, with the upload's name, title and tags; of a
// garbage file, the upload comes back under its stored name, and the
// report says why.
func TestRebuildRecoversUploads(t *testing.T) {
	ctx := context.Background()
	t.Run("readable", func(t *testing.T) {
		d, doc := rebuildDeps(t)
		rep, err := d.Rebuild(ctx, RebuildRequest{})
		if err != nil {
			t.Fatal(err)
		}
		u := rep.Uploads
		if rep.Files != 4 || len(rep.SetAside) == 0 || u.Found != 1 || u.Indexed != 1 || u.Named != 1 || u.Described != 1 || u.SalvageErr != "" {
			t.Fatalf("report %+v", rep)
		}
		got := uploadDoc(t, d, doc.ID)
		if got.Filename != "zebra.txt" || got.Title != "Zebra survey" || !slices.Equal(got.Tags, []string{"wildlife", "survey"}) || got.FilePath != doc.FilePath {
			t.Errorf("upload after the rebuild: %+v, want %+v", got, doc)
		}
		for _, p := range rep.SetAside {
			if _, err := os.Stat(p); err != nil {
				t.Errorf("set-aside file: %v", err)
			}
		}
	})
	t.Run("from an earlier set-aside index", func(t *testing.T) {
		// A rebuild interrupted before its uploads left a new index that
		// does not describe them; the next rebuild reads the one set aside
		// before it.
		d, doc := rebuildDeps(t)
		if _, err := d.Rebuild(ctx, RebuildRequest{}); err != nil {
			t.Fatal(err)
		}
		if err := d.withStore(ctx, func(s store.Store) error { return s.DeleteFiles(ctx, []string{doc.ID}) }); err != nil {
			t.Fatal(err)
		}
		rep, err := d.Rebuild(ctx, RebuildRequest{})
		if err != nil {
			t.Fatal(err)
		}
		if u := rep.Uploads; u.Named != 1 || u.Described != 1 || u.SalvageErr != "" {
			t.Fatalf("report %+v", rep)
		}
		if got := uploadDoc(t, d, doc.ID); got.Filename != "zebra.txt" || got.Title != "Zebra survey" {
			t.Errorf("upload after the second rebuild: %+v", got)
		}
	})
	t.Run("garbage", func(t *testing.T) {
		d, doc := rebuildDeps(t)
		rng := rand.New(rand.NewPCG(28, 2))
		junk := make([]byte, 96<<10)
		for i := range junk {
			junk[i] = byte(rng.UintN(256))
		}
		path := d.Config.IndexPath()
		for _, p := range []string{path + "-wal", path + "-shm"} {
			os.Remove(p)
		}
		if err := os.WriteFile(path, junk, 0o600); err != nil {
			t.Fatal(err)
		}
		if _, err := d.IndexStatus(ctx); !errors.Is(err, store.ErrDamaged) {
			t.Fatalf("status of the garbage index: %v", err)
		}
		rep, err := d.Rebuild(ctx, RebuildRequest{})
		if err != nil {
			t.Fatal(err)
		}
		u := rep.Uploads
		if rep.Files != 4 || u.Indexed != 1 || u.Named != 0 || u.SalvageErr == "" {
			t.Fatalf("report %+v", rep)
		}
		if aside, err := os.ReadFile(rep.SetAside[0]); err != nil || string(aside) != string(junk) {
			t.Errorf("the garbage was not kept as it was: %v", err)
		}
		got := uploadDoc(t, d, doc.ID)
		if got.Filename != doc.FilePath || got.Title != doc.FilePath || len(got.Tags) != 0 {
			t.Errorf("upload after the rebuild: %+v", got)
		}
	})
}

// TestRebuildHolderChild is the other process of TestRebuildWaitsForHolder:
// it keeps the index named by GDS_TEST_HOLD_INDEX open until its standard
// input closes.
func TestRebuildHolderChild(t *testing.T) {
	path := os.Getenv("GDS_TEST_HOLD_INDEX")
	if path == "" {
		t.Skip("run by TestRebuildWaitsForHolder")
	}
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.Stats(context.Background()); err != nil {
		t.Fatal(err)
	}
	fmt.Println("holding")
	_, _ = io.Copy(io.Discard, os.Stdin)
}

// A rebuild does not rename an index another process has open: it asks
// the keystroke server to exit, waits, then gives up with the process's ID
// (exit 75), leaving the index as it was.
func TestRebuildWaitsForHolder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no POSIX locks")
	}
	d, _ := rebuildDeps(t)
	path := d.Config.IndexPath()
	child := exec.Command(os.Args[0], "-test.run=^TestRebuildHolderChild$", "-test.v")
	child.Env = append(os.Environ(), "GDS_TEST_HOLD_INDEX="+path)
	stdin, err := child.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	out, err := child.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := child.Start(); err != nil {
		t.Fatal(err)
	}
	defer child.Wait()
	defer stdin.Close()
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if sc.Text() == "holding" {
			break
		}
	}
	go io.Copy(io.Discard, out)
	// The keystroke server keeps the index open; a rebuild asks it to
	// exit by removing its socket.
	sock := filepath.Join(t.TempDir(), "ks.sock")
	ln, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	_, err = d.Rebuild(context.Background(), RebuildRequest{HolderWait: 300 * time.Millisecond, KeySocket: sock})
	if _, serr := os.Stat(sock); !errors.Is(serr, fs.ErrNotExist) {
		t.Errorf("the keystroke server's socket is still there: %v", serr)
	}
	r := apperr.Describe(err, i18n.En)
	if r.Exit != apperr.ExitBusy || !strings.Contains(r.Message, fmt.Sprint(child.Process.Pid)) || !strings.Contains(r.Hint, "gds db rebuild") {
		t.Errorf("rebuild of an index in use: %+v", r)
	}
	if entries, _ := filepath.Glob(path + rebuild.AsideSuffix + "*"); len(entries) > 0 {
		t.Errorf("the index in use was set aside: %v", entries)
	}
	stdin.Close()
	if err := child.Wait(); err != nil {
		t.Fatal(err)
	}
	if _, err := d.Rebuild(context.Background(), RebuildRequest{HolderWait: 300 * time.Millisecond}); err != nil {
		t.Errorf("rebuild once the other process closed the index: %v", err)
	}
}
