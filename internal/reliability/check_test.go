package reliability

import (
	"context"
	"errors"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

const dim = 4

func testStore(t *testing.T) *sqlite.Store {
	t.Helper()
	s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if err := s.EnsureEmbeddingSpace(context.Background(), store.EmbeddingSpace{Model: "test", Dim: dim}); err != nil {
		t.Fatal(err)
	}
	return s
}

// expects returns n files a second apart; file 3 is a skipped one.
func expects(n int) []Expect {
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []Expect
	for i := range n {
		e := Expect{ID: "id" + string(rune('a'+i)), Rel: "f" + string(rune('a'+i)), ModTime: base.Add(time.Duration(i) * time.Second)}
		if i != 3 {
			text := strings.Repeat(string(rune('a'+i)), 900*(1+i%3))
			e.Hash = textHash(text)
			e.Chunks = chunkTexts(docOf(text))
		}
		out = append(out, e)
	}
	return out
}

func put(t *testing.T, s *sqlite.Store, e Expect, hash string, chunks []string) {
	t.Helper()
	vec := []float32{1, 0, 0, 0}
	var cs []store.Chunk
	for i, c := range chunks {
		cs = append(cs, store.Chunk{Ordinal: i, Text: c, Embedding: vec})
	}
	f := store.File{ID: e.ID, Name: e.Rel, Summary: "s", Embedding: vec, ModifiedAt: e.ModTime, MimeType: "text/plain",
		ContentHash: hash, IndexedAt: e.ModTime}
	if err := s.UpsertFile(context.Background(), f, cs); err != nil {
		t.Fatal(err)
	}
}

func setCheckpoint(t *testing.T, s *sqlite.Store, at time.Time) {
	t.Helper()
	if err := s.SetSyncState(context.Background(), store.SyncState{Source: "local:/x", ModifiedAt: at, Fingerprint: "fp", UpdatedAt: at}); err != nil {
		t.Fatal(err)
	}
}

func TestCheckCheckpoint(t *testing.T) {
	ctx := context.Background()
	s := testStore(t)
	files := expects(6)
	put(t, s, files[0], files[0].Hash, files[0].Chunks)
	put(t, s, files[1], files[1].Hash, files[1].Chunks)
	put(t, s, files[4], files[4].Hash, files[4].Chunks) // committed out of order

	setCheckpoint(t, s, files[1].ModTime)
	snap, err := CheckCheckpoint(ctx, s, files)
	if err != nil || snap.Indexed != 3 || snap.Behind != 2 {
		t.Fatalf("checkpoint at file 1: %+v, %v", snap, err)
	}
	// File 3 is skipped, so a checkpoint at it claims nothing unindexed
	// except file 2, which is missing.
	setCheckpoint(t, s, files[3].ModTime)
	_, err = CheckCheckpoint(ctx, s, files)
	var ce *CheckpointError
	if !errors.As(err, &ce) || ce.Count != 1 || ce.Missing[0] != files[2].Rel {
		t.Fatalf("checkpoint ahead of file 2: %v", err)
	}
	put(t, s, files[2], files[2].Hash, files[2].Chunks)
	if snap, err = CheckCheckpoint(ctx, s, files); err != nil || snap.Behind != 4 {
		t.Fatalf("after committing file 2: %+v, %v", snap, err)
	}
}

func TestCheckGraceful(t *testing.T) {
	ctx := context.Background()
	s := testStore(t)
	files := expects(8)
	// Before the run: file 0 committed and covered, file 4 committed but
	// not covered (the file before it failed).
	put(t, s, files[0], files[0].Hash, files[0].Chunks)
	put(t, s, files[4], files[4].Hash, files[4].Chunks)
	setCheckpoint(t, s, files[0].ModTime)
	prev, err := CheckCheckpoint(ctx, s, files)
	if err != nil {
		t.Fatal(err)
	}
	// The stopped run commits files 1 and 2 (3 is skipped, 4 was indexed
	// before, 5 newly): the checkpoint must reach file 2.
	for _, i := range []int{1, 2, 5} {
		put(t, s, files[i], files[i].Hash, files[i].Chunks)
	}
	setCheckpoint(t, s, files[1].ModTime)
	snap, _ := CheckCheckpoint(ctx, s, files)
	if err := CheckGraceful(files, prev, snap); err == nil {
		t.Error("a checkpoint behind files the run committed passed")
	}
	setCheckpoint(t, s, files[2].ModTime)
	snap, _ = CheckCheckpoint(ctx, s, files)
	if err := CheckGraceful(files, prev, snap); err != nil {
		t.Error(err)
	}
	// From a fresh index: files 0–2 committed by the run.
	if err := CheckGraceful(files, Snapshot{}, snap); err != nil {
		t.Error(err)
	}
	setCheckpoint(t, s, files[1].ModTime)
	snap, _ = CheckCheckpoint(ctx, s, files)
	if err := CheckGraceful(files, Snapshot{}, snap); err == nil {
		t.Error("from a fresh index: a checkpoint behind committed files passed")
	}
}

func TestCheckComplete(t *testing.T) {
	ctx := context.Background()
	files := expects(6)
	full := func(t *testing.T) *sqlite.Store {
		s := testStore(t)
		for _, f := range files {
			if f.Indexable() {
				put(t, s, f, f.Hash, f.Chunks)
			}
		}
		return s
	}
	s := full(t)
	c, err := CheckComplete(ctx, s, files)
	if err != nil || c.Indexed != 5 || !c.OK() {
		t.Fatalf("complete index: %+v, %v", c, err)
	}
	cases := []struct {
		name   string
		damage func(*sqlite.Store)
		check  func(Completeness) bool
	}{
		{"missing", func(s *sqlite.Store) { _ = s.DeleteFiles(ctx, []string{files[2].ID}) },
			func(c Completeness) bool { return c.Missing == 1 && c.Lost() == 1 }},
		{"wrong hash", func(s *sqlite.Store) { put(t, s, files[1], "beef", files[1].Chunks) },
			func(c Completeness) bool { return c.WrongHash == 1 && c.Lost() == 1 }},
		{"skipped file indexed", func(s *sqlite.Store) { put(t, s, files[3], "x", []string{"x"}) },
			func(c Completeness) bool { return c.Unwanted == 1 && c.Lost() == 0 }},
		{"extra row", func(s *sqlite.Store) {
			put(t, s, Expect{ID: "stranger", Rel: "s", ModTime: files[0].ModTime}, "h", []string{"x"})
		},
			func(c Completeness) bool { return c.ExtraRows == 1 }},
		{"chunk lost", func(s *sqlite.Store) { put(t, s, files[4], files[4].Hash, files[4].Chunks[:1]) },
			func(c Completeness) bool { return c.BadChunks == 1 && c.Lost() == 0 }},
		{"chunk text wrong", func(s *sqlite.Store) {
			cs := append([]string{}, files[0].Chunks...)
			cs[0] = "other"
			put(t, s, files[0], files[0].Hash, cs)
		}, func(c Completeness) bool { return c.BadChunks == 1 }},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			s := full(t)
			tc.damage(s)
			c, err := CheckComplete(ctx, s, files)
			if err == nil || !tc.check(c) {
				t.Errorf("got %+v, %v", c, err)
			}
		})
	}
}

func TestPlan(t *testing.T) {
	p := Plan(1000, 20, syscall.SIGKILL, 7)
	if len(p) != 20 || p[0] != -1 || p[1] != 0 || p[19] != 997 {
		t.Fatalf("plan = %v", p)
	}
	for i := 2; i < len(p); i++ {
		if p[i] < p[i-1] || p[i] > 997 {
			t.Fatalf("plan not ordered within the crawl: %v", p)
		}
	}
	if q := Plan(1000, 20, syscall.SIGKILL, 7); !equalInts(p, q) {
		t.Error("the same seed gave another plan")
	}
	if q := Plan(1000, 20, syscall.SIGKILL, 8); equalInts(p, q) {
		t.Error("another seed gave the same plan")
	}
	if q := Plan(100, 3, syscall.SIGTERM, 1); len(q) != 3 || q[0] != 0 || q[2] != 97 {
		t.Errorf("SIGTERM plan = %v (no start-up stop: the signal handler may not be installed yet)", q)
	}
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
