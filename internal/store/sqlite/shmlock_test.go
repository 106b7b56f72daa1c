package sqlite

import (
	"context"
	"database/sql"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// shmHelperEnv names the index TestShmCheckpointHelper checkpoints.
const shmHelperEnv = "GDS_TEST_SHM_CHECKPOINT"

// TestShmCheckpointHelper runs in a child process (TestWalStampKeepsReadLocks):
// it asks for a checkpoint that truncates the WAL, which only succeeds when
// no other process holds a read lock on it, and prints SQLite's busy flag.
func TestShmCheckpointHelper(t *testing.T) {
	path := os.Getenv(shmHelperEnv)
	if path == "" {
		t.Skip("run by TestWalStampKeepsReadLocks")
	}
	db, err := sql.Open("sqlite", "file:"+path+"?_busy_timeout=0")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var busy, logFrames, done int
	if err := db.QueryRow(`PRAGMA wal_checkpoint(TRUNCATE)`).Scan(&busy, &logFrames, &done); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("busy=" + map[bool]string{true: "1", false: "0"}[busy != 0] + "\n")
}

// TestWalStampKeepsReadLocks: reading the WAL index's header must not drop
// the read lock SQLite holds on it for an open read transaction — closing
// any descriptor of a file drops every POSIX lock the process holds on it
// (https://www.sqlite.org/howtocorrupt.html, 2.2), and another process
// could then truncate the WAL under the reader.
func TestWalStampKeepsReadLocks(t *testing.T) {
	ctx := context.Background()
	s := openTemp(t, Options{})
	if err := s.UpsertFile(ctx, testFile("a", "tower of london"), nil); err != nil {
		t.Fatal(err)
	}
	ro := mustOpen(t, s.path, Options{ReadOnly: true})
	checkpoint := func() string {
		t.Helper()
		cmd := exec.Command(os.Args[0], "-test.run=^TestShmCheckpointHelper$", "-test.count=1")
		cmd.Env = append(os.Environ(), shmHelperEnv+"="+filepath.ToSlash(s.path))
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("checkpoint helper: %v\n%s", err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if strings.HasPrefix(line, "busy=") {
				return line
			}
		}
		t.Fatalf("checkpoint helper printed no result:\n%s", out)
		return ""
	}
	tx, err := ro.read.BeginTx(ctx, &sql.TxOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	var n int
	if err := tx.QueryRow(`SELECT count(*) FROM drive_file_index`).Scan(&n); err != nil {
		t.Fatal(err)
	}
	// More frames after the reader's snapshot: truncating the WAL needs the
	// reader gone.
	if err := s.UpsertFile(ctx, testFile("b", "tower bridge"), nil); err != nil {
		t.Fatal(err)
	}
	if got := checkpoint(); got != "busy=1" {
		t.Fatalf("a checkpoint with a reader open: %s, want busy=1 (the test cannot see read locks here)", got)
	}
	for range 3 {
		if ro.walStamp() == nil {
			t.Fatal("no WAL index stamp")
		}
	}
	if got := checkpoint(); got != "busy=1" {
		t.Errorf("after walStamp: %s — the reader's lock is gone, the WAL can be truncated under it", got)
	}
}
