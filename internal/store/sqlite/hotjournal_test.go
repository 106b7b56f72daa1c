package sqlite

import (
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"testing"
)

// A read-only open of an index whose writer was killed inside a
// rollback-journal transaction (a hot journal beside the file) rolls the
// journal back and opens, instead of failing with SQLITE_READONLY_ROLLBACK.
// The crash is made by copying the file and its journal while a
// transaction is open.
func TestReadOnlyOpenRollsBackAHotJournal(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	path := filepath.Join(dir, "index.db")
	s, err := Open(ctx, path, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	raw, err := sql.Open("sqlite", "file:"+path+"?_journal_mode=DELETE")
	if err != nil {
		t.Fatal(err)
	}
	defer raw.Close()
	raw.SetMaxOpenConns(1)
	var mode string
	if err := raw.QueryRowContext(ctx, "PRAGMA journal_mode=DELETE").Scan(&mode); err != nil || mode != "delete" {
		t.Fatalf("journal mode %q: %v", mode, err)
	}
	// A tiny page cache spills the transaction's pages into the file
	// before commit, so the journal is synced and hot, as after a kill.
	if _, err := raw.ExecContext(ctx, "PRAGMA cache_size=2"); err != nil {
		t.Fatal(err)
	}
	tx, err := raw.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "CREATE TABLE junk(x); INSERT INTO junk VALUES (zeroblob(200000))"); err != nil {
		t.Fatal(err)
	}
	crashed := filepath.Join(t.TempDir(), "index.db")
	for _, suffix := range []string{"", "-journal"} {
		data, err := os.ReadFile(path + suffix)
		if err != nil {
			t.Fatalf("the open transaction left no %q: %v", "index.db"+suffix, err)
		}
		if err := os.WriteFile(crashed+suffix, data, 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if err := tx.Rollback(); err != nil {
		t.Fatal(err)
	}

	ro, err := Open(ctx, crashed, Options{ReadOnly: true})
	if err != nil {
		t.Fatalf("read-only open beside a hot journal: %v", err)
	}
	defer ro.Close()
	var n int
	if err := ro.read.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE name = 'junk'").Scan(&n); err != nil || n != 0 {
		t.Errorf("the interrupted transaction's table: %d (%v); want it rolled back", n, err)
	}
	if _, err := os.Stat(crashed + "-journal"); err == nil {
		t.Error("the hot journal is still there after the open")
	}
}
