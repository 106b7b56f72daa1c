package schedule

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

func TestCrawlLockTwoHolders(t *testing.T) {
	dir := t.TempDir()
	l1, err := AcquireCrawlLock(dir)
	if err != nil {
		t.Fatal(err)
	}
	_, err = AcquireCrawlLock(dir)
	var be *BusyError
	if !errors.Is(err, ErrCrawlRunning) || !errors.As(err, &be) {
		t.Fatalf("second lock = %v, want ErrCrawlRunning", err)
	}
	if be.PID != os.Getpid() {
		t.Errorf("holder pid %d, want %d", be.PID, os.Getpid())
	}
	if err := l1.Release(); err != nil {
		t.Fatal(err)
	}
	l2, err := AcquireCrawlLock(dir)
	if err != nil {
		t.Fatalf("lock after release: %v", err)
	}
	_ = l2.Release()
}

// TestCrawlLockAcrossProcesses holds the lock in a child process (this test
// binary re-run in helper mode) and checks that this process cannot take
// it until the child exits.
func TestCrawlLockAcrossProcesses(t *testing.T) {
	if os.Getenv("GDS_LOCK_HELPER_DIR") != "" {
		t.Skip("helper mode")
	}
	dir := t.TempDir()
	cmd := exec.Command(os.Args[0], "-test.run=TestLockHelper")
	cmd.Env = append(os.Environ(), "GDS_LOCK_HELPER_DIR="+dir)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 64)
	n, _ := stdout.Read(buf) // "locked <pid>"
	if !strings.HasPrefix(string(buf[:n]), "locked") {
		t.Fatalf("helper said %q", buf[:n])
	}
	_, err = AcquireCrawlLock(dir)
	var be *BusyError
	if !errors.As(err, &be) || be.PID != cmd.Process.Pid {
		t.Fatalf("lock held by the child: got %v, want a BusyError naming pid %d", err, cmd.Process.Pid)
	}
	stdin.Close() // the helper exits without releasing: the OS drops the lock
	if err := cmd.Wait(); err != nil {
		t.Fatal(err)
	}
	l, err := AcquireCrawlLock(dir)
	if err != nil {
		t.Fatalf("lock after the holder died: %v", err)
	}
	_ = l.Release()
}

// TestLockHelper is the child of TestCrawlLockAcrossProcesses.
func TestLockHelper(t *testing.T) {
	dir := os.Getenv("GDS_LOCK_HELPER_DIR")
	if dir == "" {
		t.Skip("only run as a helper process")
	}
	if _, err := AcquireCrawlLock(dir); err != nil {
		fmt.Println("error", err)
		os.Exit(1)
	}
	fmt.Printf("locked %d\n", os.Getpid())
	// Wait for the parent to close stdin, bounded in case it died.
	done := make(chan struct{})
	go func() { _, _ = os.Stdin.Read(make([]byte, 1)); close(done) }()
	select {
	case <-done:
	case <-time.After(time.Minute):
	}
	os.Exit(0)
}
