package rebuild

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

func TestPlan(t *testing.T) {
	now := time.Date(2026, 11, 27, 10, 44, 13, 0, time.FixedZone("JST", 9*3600))
	const p = "/h/index.db"
	const b = "/h/index.db.damaged-20261127T014413Z"
	cases := []struct {
		name    string
		present []string
		want    []Move
	}{
		{"no index", nil, nil},
		{"the file alone", []string{p}, []Move{{p, b}}},
		{"with its WAL: the WAL first, the database last", []string{p, p + "-shm", p + "-wal"},
			[]Move{{p + "-wal", b + "-wal"}, {p + "-shm", b + "-shm"}, {p, b}}},
		{"a hot journal", []string{p, p + "-journal"}, []Move{{p + "-journal", b + "-journal"}, {p, b}}},
		{"a WAL without its database", []string{p + "-wal"}, []Move{{p + "-wal", b + "-wal"}}},
		{"the name taken", []string{p, b, b + "-2-wal"}, []Move{{p, b + "-3"}}},
	}
	for _, tc := range cases {
		got := Plan(p, now, func(s string) bool { return slices.Contains(tc.present, s) })
		if !slices.Equal(got, tc.want) {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// A rename that fails puts back the ones done: the index is set aside
// whole or not at all.
func TestApplyUndoes(t *testing.T) {
	dir := t.TempDir()
	a, b := filepath.Join(dir, "index.db-wal"), filepath.Join(dir, "index.db")
	for _, p := range []string{a, b} {
		if err := os.WriteFile(p, []byte(p), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	err := Apply([]Move{{a, a + ".aside"}, {b, filepath.Join(dir, "missing", "index.db.aside")}})
	if err == nil {
		t.Fatal("Apply into a missing folder succeeded")
	}
	for _, p := range []string{a, b} {
		if got, err := os.ReadFile(p); err != nil || string(got) != p {
			t.Errorf("%s after the failed move: %q, %v", p, got, err)
		}
	}
}

func TestListUploads(t *testing.T) {
	dir := t.TempDir()
	const id = "b300a1ee-054a-480f-ae5c-060744a129e6"
	for _, name := range []string{id + ".txt", "0d1e2f3a-054a-480f-ae5c-060744a129e6.PDF", "notes.txt", id + ".exe", ".DS_Store"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte("x"), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(dir, "c0ffee00-054a-480f-ae5c-060744a129e6.txt"), 0o700); err != nil {
		t.Fatal(err)
	}
	ups, ignored, err := ListUploads(dir, func(ext string) bool { return ext == ".txt" || ext == ".pdf" })
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, u := range ups {
		ids = append(ids, u.ID+" "+u.Stored)
		if u.Meta.FileID != u.ID || u.Meta.StoredName != u.Stored || u.Meta.CreatedAt.IsZero() || u.Size != 1 {
			t.Errorf("upload %+v", u)
		}
	}
	if want := []string{"0d1e2f3a-054a-480f-ae5c-060744a129e6 0d1e2f3a-054a-480f-ae5c-060744a129e6.PDF", id + " " + id + ".txt"}; !slices.Equal(ids, want) {
		t.Errorf("uploads %v, want %v", ids, want)
	}
	if want := []string{".DS_Store", id + ".exe", "c0ffee00-054a-480f-ae5c-060744a129e6.txt", "notes.txt"}; !slices.Equal(ignored, want) {
		t.Errorf("ignored %v, want %v", ignored, want)
	}
	if ups, ignored, err := ListUploads(filepath.Join(dir, "none"), func(string) bool { return true }); ups != nil || ignored != nil || err != nil {
		t.Errorf("a missing folder: %v %v %v", ups, ignored, err)
	}
}

// Set-aside databases come newest first; their WAL files are not listed.
func TestAsides(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a [b]*")
	if err := os.Mkdir(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "index.db")
	names := []string{"index.db", "index.db.damaged-20261127T104413Z", "index.db.damaged-20261127T104413Z-wal",
		"index.db.damaged-20261127T104413Z-2", "index.db.damaged-20261127T104413Z-10", "index.db.damaged-20251231T235959Z",
		"index.db.damaged-20261127T104413Z-2-shm", "other.db.damaged-20270101T000000Z"}
	for _, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), nil, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Asides(path)
	if err != nil {
		t.Fatal(err)
	}
	var base []string
	for _, g := range got {
		base = append(base, filepath.Base(g))
	}
	want := []string{"index.db.damaged-20261127T104413Z-10", "index.db.damaged-20261127T104413Z-2", "index.db.damaged-20261127T104413Z", "index.db.damaged-20251231T235959Z"}
	if !slices.Equal(base, want) {
		t.Errorf("Asides = %v, want %v", base, want)
	}
}
