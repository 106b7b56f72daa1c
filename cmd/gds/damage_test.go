package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// damageWords are the words only one file each holds, so a search for one
// finds that file or nothing.
var damageWords = []string{"aardvark", "basilisk", "capybara", "dromedary", "echidna", "flamingo", "gazelle", "hedgehog"}

// damageHome is a gds home whose index holds a crawl of a local folder
// (a file per word of damageWords) and one upload with a title and tags,
// made through the same code as `gds serve`'s upload.
type damageHome struct {
	bin, home, docs string
	uploadID        string
}

func newDamageHome(t *testing.T) *damageHome {
	t.Helper()
	h := &damageHome{bin: gdsBinary(t), home: t.TempDir(), docs: t.TempDir()}
	for _, w := range damageWords {
		text := fmt.Sprintf("Field notes on the %s: where it lives, what it eats, and how the keepers look after it.", w)
		if err := os.WriteFile(filepath.Join(h.docs, w+".txt"), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if out, _, code := h.run("crawl"); code != exitOK {
		t.Fatalf("crawl: exit %d\n%s", code, out)
	}
	env := map[string]string{config.EnvHome: h.home, "GDS_AI_PROVIDER": "offline", "GDS_SOURCE": "local:" + h.docs}
	cfg, err := config.Load(config.LoadOptions{LookupEnv: func(k string) (string, bool) { v, ok := env[k]; return v, ok }, WorkDir: h.home, GOOS: "linux"})
	if err != nil {
		t.Fatal(err)
	}
	d := app.New(app.Options{Config: cfg, IO: iostreams.IOStreams{Lang: i18n.En}})
	doc, err := d.UploadDocument(context.Background(), app.UploadRequest{Filename: "zebra-census.txt",
		Body: strings.NewReader("The zebra census of the northern plains counted foals and mares."), Title: "Zebra census", Tags: []string{"wildlife", "census"}})
	if err != nil {
		t.Fatal(err)
	}
	h.uploadID = doc.ID
	h.wantFound(t, "before any damage")
	return h
}

// run runs gds in the home: stdout, stderr, exit code.
func (h *damageHome) run(args ...string) (string, string, int) {
	cmd := exec.Command(h.bin, args...)
	cmd.Dir = h.home
	cmd.Env = append(os.Environ(), "GDS_HOME="+h.home, "GDS_AI_PROVIDER=offline", "GDS_SOURCE=local:"+h.docs,
		"DATABASE_URL=", "SUPABASE_DB_URL=", "LANG=C", "LC_ALL=", "GDS_KEYSTROKE_SERVER=off")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	err := cmd.Run()
	code := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		code = -1
	}
	return out.String(), errb.String(), code
}

// wantFound checks that `gds search` finds every file of the folder and
// the upload, each by its own word (the upload by its ID: after a rebuild
// from a file that no longer holds its name, it is named after its stored
// file).
func (h *damageHome) wantFound(t *testing.T, when string) {
	t.Helper()
	for _, w := range append(append([]string{}, damageWords...), "zebra") {
		out, errOut, code := h.run("search", "--json", w)
		if code != exitOK {
			t.Errorf("%s: search %s: exit %d\n%s", when, w, code, errOut)
			continue
		}
		var res struct {
			Results []struct {
				ID   string `json:"id"`
				Name string `json:"name"`
			} `json:"results"`
		}
		if err := json.Unmarshal([]byte(out), &res); err != nil {
			t.Fatalf("%s: search %s: %v\n%s", when, w, err, out)
		}
		switch {
		case len(res.Results) == 0:
			t.Errorf("%s: search %s found nothing", when, w)
		case w == "zebra" && res.Results[0].ID != h.uploadID:
			t.Errorf("%s: search %s found %+v, want the upload %s first", when, w, res.Results, h.uploadID)
		case w != "zebra" && res.Results[0].Name != w+".txt":
			t.Errorf("%s: search %s found %+v, want %s.txt first", when, w, res.Results, w)
		}
	}
}

// damagePages writes random bytes (a fixed seed) into the pages of the
// index file: 50 runs of 64 bytes at random offsets past the header page
// (the damage probe), and 64 over the start of the file list's root
// page, so that SQLite's quick_check always has something to find.
func damagePages(t *testing.T, path string, seed uint64) {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatal(err)
	}
	var root, pageSize int64
	if err := db.QueryRow(`SELECT rootpage FROM sqlite_master WHERE name = 'drive_file_index'`).Scan(&root); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow(`PRAGMA page_size`).Scan(&pageSize); err != nil {
		t.Fatal(err)
	}
	db.Close()
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(seed, 28))
	junk := func() []byte {
		b := make([]byte, 64)
		for i := range b {
			b[i] = byte(rng.UintN(256))
		}
		return b
	}
	for range 50 {
		if _, err := f.WriteAt(junk(), pageSize+rng.Int64N(fi.Size()-pageSize-64)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := f.WriteAt(junk(), (root-1)*pageSize); err != nil {
		t.Fatal(err)
	}
}

// checkpointIndex folds the WAL into the index file and removes it, so the
// damage written into the file is what SQLite reads.
func checkpointIndex(t *testing.T, path string) {
	t.Helper()
	s, err := sqlite.Open(context.Background(), path, sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{path + "-wal", path + "-shm"} {
		if _, err := os.Stat(p); err == nil {
			t.Fatalf("%s still there after the last connection closed", p)
		}
	}
}

// Random bytes in the pages of a real index: doctor finds them, names the
// index and the fix; the fix — `gds db rebuild` — restores search over the
// folder and the upload, with the upload's title and tags.
func TestDamagedPagesFoundAndRebuilt(t *testing.T) {
	t.Parallel() // own GDS_HOME, no t.Setenv
	h := newDamageHome(t)
	index := filepath.Join(h.home, "index.db")
	checkpointIndex(t, index)
	damagePages(t, index, 1)

	out, _, code := h.run("doctor", "--offline")
	if code == exitOK || !strings.Contains(out, "✗ index") || !strings.Contains(out, index+" is damaged") || !strings.Contains(out, "fix:  gds db rebuild") {
		t.Errorf("doctor on a damaged index: exit %d\n%s", code, out)
	}
	if strings.Contains(out, "configuration did not load") {
		t.Errorf("doctor blames the configuration:\n%s", out)
	}
	_, errOut, code := h.run("db", "status")
	if code != 5 || !strings.Contains(errOut, "gds db rebuild") {
		t.Errorf("db status on a damaged index: exit %d\n%s", code, errOut)
	}

	out, errOut, code = h.run("db", "rebuild", "--json")
	if code != exitOK {
		t.Fatalf("db rebuild: exit %d\n%s\n%s", code, out, errOut)
	}
	var rep struct {
		Files    int      `json:"files"`
		SetAside []string `json:"set_aside"`
		Uploads  struct {
			Indexed, Named, Described int
		} `json:"uploads"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("db rebuild --json: %v\n%s", err, out)
	}
	if rep.Files != len(damageWords)+1 || len(rep.SetAside) == 0 || rep.Uploads.Indexed != 1 {
		t.Errorf("rebuild report %+v\n%s", rep, out)
	}
	if !strings.Contains(errOut, "Set aside "+index+" as "+index+".damaged-") {
		t.Errorf("the rebuild's progress does not say where the old index went:\n%s", errOut)
	}
	for _, p := range rep.SetAside {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("set-aside file: %v", err)
		}
	}
	h.wantFound(t, "after the rebuild")
	if out, _, code := h.run("doctor", "--offline"); !strings.Contains(out, "✓ index check") {
		t.Errorf("doctor after the rebuild: exit %d\n%s", code, out)
	}
}

// A truncated or garbage index.db: every command that uses the index exits
// 5 with the rebuild hint, doctor names the damage and the fix, and the
// rebuild brings everything back (the upload under its stored name: the
// old file cannot tell its own).
func TestUnreadableIndexFile(t *testing.T) {
	t.Parallel() // own GDS_HOME, no t.Setenv
	for _, kind := range []string{"truncated", "garbage"} {
		t.Run(kind, func(t *testing.T) {
			t.Parallel()
			h := newDamageHome(t)
			index := filepath.Join(h.home, "index.db")
			checkpointIndex(t, index)
			data, err := os.ReadFile(index)
			if err != nil {
				t.Fatal(err)
			}
			if kind == "truncated" {
				data = data[:len(data)/3]
			} else {
				rng := rand.New(rand.NewPCG(28, 3))
				for i := range data {
					data[i] = byte(rng.UintN(256))
				}
			}
			if err := os.WriteFile(index, data, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, args := range [][]string{{"search", "aardvark"}, {"crawl"}, {"db", "status"}} {
				out, errOut, code := h.run(args...)
				if code != 5 || !strings.Contains(errOut, index+" is damaged") || !strings.Contains(errOut, "Hint: run `gds db rebuild`") {
					t.Errorf("%s: exit %d\n%s%s", strings.Join(args, " "), code, out, errOut)
				}
				if strings.Contains(out, "checkpoint") {
					t.Errorf("%s claims a checkpoint:\n%s", strings.Join(args, " "), out)
				}
			}
			out, _, code := h.run("doctor", "--offline")
			if code == exitOK || !strings.Contains(out, "✗ index") || !strings.Contains(out, "is damaged") || !strings.Contains(out, "fix:  gds db rebuild") ||
				strings.Contains(out, "configuration did not load") || strings.Contains(out, "fix:  gds db status") {
				t.Errorf("doctor: exit %d\n%s", code, out)
			}
			out, errOut, code := h.run("db", "rebuild")
			if code != exitOK || !strings.Contains(out, fmt.Sprintf("New index %s: %d files", index, len(damageWords)+1)) ||
				!strings.Contains(out, "the old index could not be read") {
				t.Fatalf("db rebuild: exit %d\n%s\n%s", code, out, errOut)
			}
			h.wantFound(t, "after the rebuild")
		})
	}
}
