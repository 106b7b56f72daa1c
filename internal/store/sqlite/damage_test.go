package sqlite

import (
	"bufio"
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// writeIndex makes an index file of n files with text and chunks, closed.
func writeIndex(t *testing.T, n int) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "index.db")
	s, err := Open(context.Background(), path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if err := s.EnsureEmbeddingSpace(ctx, storetest.Space); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		f := testFile(fmt.Sprintf("f%03d", i), strings.Repeat(fmt.Sprintf("paragraph %d about the budget ", i), 40), 1, float32(i))
		f.Keywords = []string{"budget", fmt.Sprint(i)}
		chunks := []store.Chunk{{Ordinal: 0, Text: f.Text[:500], Embedding: f.Embedding}, {Ordinal: 1, Text: f.Text[500:], Embedding: f.Embedding}}
		if err := s.UpsertFile(ctx, f, chunks); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// wantDamaged fails unless err is a damaged-index error of path that exits
// 5 and whose hint names `gds db rebuild`.
func wantDamaged(t *testing.T, what string, err error, path string) *store.DamagedError {
	t.Helper()
	var de *store.DamagedError
	if !errors.As(err, &de) || !errors.Is(err, store.ErrDamaged) {
		t.Fatalf("%s: %v (%T), want a store.DamagedError", what, err, err)
	}
	r := apperr.Describe(err, i18n.En)
	if r.Exit != apperr.ExitIndex || r.Code != "index" || !strings.Contains(r.Hint, "gds db rebuild") ||
		!strings.Contains(r.Message, path) || !strings.Contains(r.Message, "damaged") {
		t.Errorf("%s: reported as %+v", what, r)
	}
	if ja := apperr.Describe(err, i18n.Ja); !strings.Contains(ja.Hint, "gds db rebuild") || ja.Message == r.Message {
		t.Errorf("%s: Japanese report %+v", what, ja)
	}
	return de
}

// A file that is not an SQLite database, or one cut short, is damaged —
// read-write and read-only — not an unclassified error.
func TestOpenDamagedFile(t *testing.T) {
	good := writeIndex(t, 20)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(28, 1))
	garbage := make([]byte, 64<<10)
	for i := range garbage {
		garbage[i] = byte(rng.UintN(256))
	}
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"garbage", garbage},
		{"truncated", data[:10000]},
		{"header overwritten", append(append([]byte{}, garbage[:100]...), data[100:]...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.db")
			if err := os.WriteFile(path, tc.data, 0o600); err != nil {
				t.Fatal(err)
			}
			for _, ro := range []bool{false, true} {
				s, err := Open(context.Background(), path, Options{ReadOnly: ro})
				if err == nil {
					s.Close()
				}
				wantDamaged(t, fmt.Sprintf("Open(ReadOnly %v)", ro), err, path)
			}
			if after, _ := os.ReadFile(path); string(after) != string(tc.data) {
				t.Errorf("opening the damaged file changed it")
			}
		})
	}
}

// Random bytes written over the pages of a real index (a fixed seed, the
// damage probe: 50 × 64 bytes past the header page) are found: by
// opening it, by reading every file and searching, or by CheckIntegrity —
// and whichever finds it reports a damaged index, never an unclassified
// error.
func TestRandomPageDamageIsFound(t *testing.T) {
	good := writeIndex(t, 60)
	data, err := os.ReadFile(good)
	if err != nil {
		t.Fatal(err)
	}
	for seed := uint64(1); seed <= 8; seed++ {
		t.Run(fmt.Sprint("seed ", seed), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "index.db")
			if err := os.WriteFile(path, damage(data, seed, 50, 64), 0o600); err != nil {
				t.Fatal(err)
			}
			ctx := context.Background()
			s, err := Open(ctx, path, Options{})
			if err != nil {
				wantDamaged(t, "Open", err, path)
				return
			}
			defer s.Close()
			complete, err := s.CheckIntegrity(ctx)
			if err == nil {
				// quick_check passed: the bytes landed where it does not
				// look (record contents); any read that fails must still
				// say damaged.
				if !complete {
					t.Errorf("CheckIntegrity without a deadline stopped early")
				}
				ids, err := s.IndexedIDs(ctx)
				if err == nil {
					_, err = s.GetFiles(ctx, ids)
				}
				if err == nil {
					_, err = s.KeywordSearch(ctx, store.KeywordQuery{Terms: []string{"budget"}, Match: store.MatchAny})
				}
				if err != nil {
					wantDamaged(t, "reading the files", err, path)
				}
				return
			}
			wantDamaged(t, "CheckIntegrity", err, path)
		})
	}
}

// damage returns data with n runs of size random bytes written at random
// offsets after the first page (the header page left intact, so the file
// still opens as a database).
func damage(data []byte, seed uint64, n, size int) []byte {
	out := append([]byte{}, data...)
	rng := rand.New(rand.NewPCG(seed, 28))
	for range n {
		off := 4096 + rng.IntN(len(out)-4096-size)
		for i := range size {
			out[off+i] = byte(rng.UintN(256))
		}
	}
	return out
}

// A record the database reads but gds cannot decode (a keywords list that
// is not JSON) is the damage of that file: the error names it.
func TestUndecodableRecord(t *testing.T) {
	path := writeIndex(t, 3)
	raw, err := sql.Open("sqlite", "file:"+path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := raw.Exec(`UPDATE drive_file_index SET keywords = ? WHERE file_id = 'f001'`, "\x9d\x1b[31m{"); err != nil {
		t.Fatal(err)
	}
	raw.Close()
	s := mustOpen(t, path, Options{})
	ctx := context.Background()
	_, err = s.GetFiles(ctx, []string{"f000", "f001", "f002"})
	de := wantDamaged(t, "GetFiles", err, path)
	if de.FileID != "f001" {
		t.Errorf("FileID = %q, want f001", de.FileID)
	}
	if msg := apperr.Message(err, i18n.En); strings.ContainsAny(msg, "\x1b") || strings.Contains(msg, "\x9d") {
		t.Errorf("the message carries the stored bytes raw: %q", msg)
	}
	// The other files still read, and writing the file again mends it.
	if fs, err := s.GetFiles(ctx, []string{"f000", "f002"}); err != nil || len(fs) != 2 {
		t.Errorf("GetFiles of the sound files: %d, %v", len(fs), err)
	}
	if err := s.UpsertFile(ctx, testFile("f001", "mended"), nil); err != nil {
		t.Fatal(err)
	}
	if fs, err := s.GetFiles(ctx, []string{"f001"}); err != nil || len(fs) != 1 {
		t.Errorf("GetFiles after the rewrite: %d, %v", len(fs), err)
	}
	if complete, err := s.CheckIntegrity(ctx); !complete || err != nil {
		t.Errorf("CheckIntegrity of a sound file: %v, %v", complete, err)
	}
}

// CheckIntegrity stopped by its deadline says so, without an error.
func TestCheckIntegrityDeadline(t *testing.T) {
	s := mustOpen(t, writeIndex(t, 5), Options{ReadOnly: true})
	ctx, cancel := context.WithDeadline(context.Background(), time.Now().Add(-time.Second))
	defer cancel()
	if complete, err := s.CheckIntegrity(ctx); complete || err != nil {
		t.Errorf("CheckIntegrity past its deadline = %v, %v; want incomplete, no error", complete, err)
	}
}

// Errors that are not damage keep their kind.
func TestCorruptionIsReadFromTheCode(t *testing.T) {
	s := mustOpen(t, writeIndex(t, 1), Options{ReadOnly: true})
	err := s.UpsertFile(context.Background(), testFile("x", "x"), nil)
	if errors.Is(err, store.ErrDamaged) || !errors.Is(err, ErrReadOnly) {
		t.Errorf("a read-only write: %v", err)
	}
	if corruption(errors.New("database disk image is malformed (11)")) != nil {
		t.Errorf("an error is classified damaged by its text")
	}
}

// Every exported method classifies damage.
func TestEveryMethodClassifies(t *testing.T) { storetest.CheckClassified(t, ".") }

// TestHolderChild is the other process of TestHolder: it opens the index
// named by GDS_TEST_HOLD_INDEX, says so, and keeps it open until its
// standard input closes.
func TestHolderChild(t *testing.T) {
	path := os.Getenv("GDS_TEST_HOLD_INDEX")
	if path == "" {
		t.Skip("run by TestHolder")
	}
	s, err := Open(context.Background(), path, Options{ReadOnly: true})
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

// Holder names another process that has the index open, and none once it
// closed it.
func TestHolder(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no POSIX locks")
	}
	path := writeIndex(t, 2)
	if pid, err := Holder(path); pid != 0 || err != nil {
		t.Fatalf("Holder of a closed index = %d, %v", pid, err)
	}
	child := exec.Command(os.Args[0], "-test.run=^TestHolderChild$", "-test.v")
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
	if pid, err := Holder(path); pid != child.Process.Pid || err != nil {
		t.Errorf("Holder while another process has the index open = %d, %v; want %d", pid, err, child.Process.Pid)
	}
	stdin.Close()
	go io.Copy(io.Discard, out)
	if err := child.Wait(); err != nil {
		t.Fatalf("the holding process: %v", err)
	}
	if pid, err := Holder(path); pid != 0 || err != nil {
		t.Errorf("Holder after it closed the index = %d, %v", pid, err)
	}
}

// Salvage reads an upload's records one by one from a damaged file, and
// says when the file cannot be read at all.
func TestSalvage(t *testing.T) {
	path := writeIndex(t, 30)
	s := mustOpen(t, path, Options{})
	ctx := context.Background()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	if err := s.UpsertFile(ctx, store.File{ID: "up1", Name: "zebra.txt", Source: store.SourceUpload, ModifiedAt: t0, IndexedAt: t0}, nil); err != nil {
		t.Fatal(err)
	}
	if err := s.PutDocumentMeta(ctx, store.DocumentMeta{FileID: "up1", Title: "Zebra survey", Tags: []string{"wildlife"}, StoredName: "up1.txt", CreatedAt: t0, UpdatedAt: t0}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	got, err := Salvage(ctx, path, []string{"up1", "nope"})
	if err != nil {
		t.Fatal(err)
	}
	if g := got["up1"]; g.Name != "zebra.txt" || g.Meta.Title != "Zebra survey" || len(g.Meta.Tags) != 1 || !g.Meta.CreatedAt.Equal(t0) || len(got) != 1 {
		t.Errorf("Salvage = %+v", got)
	}
	data, _ := os.ReadFile(path)
	// The file list's pages damaged: what remains is read, nothing fails.
	if err := os.WriteFile(path, damage(data, 3, 50, 64), 0o600); err != nil {
		t.Fatal(err)
	}
	if _, err := Salvage(ctx, path, []string{"up1", "f001"}); err != nil {
		t.Errorf("Salvage of a file with damaged pages: %v", err)
	}
	if err := os.WriteFile(path, []byte(strings.Repeat("not a database ", 1000)), 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = Salvage(ctx, path, []string{"up1"})
	wantDamaged(t, "Salvage of garbage", err, path)
}
