package main

import (
	"bytes"
	"errors"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// hungServer accepts connections and never answers: an OpenAI-compatible
// server that hangs. accepted is closed at the first connection.
func hungServer(t *testing.T) (addr string, accepted <-chan struct{}) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ch := make(chan struct{})
	var (
		mu    sync.Mutex
		conns []net.Conn
		once  sync.Once
	)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			once.Do(func() { close(ch) })
		}
	}()
	t.Cleanup(func() {
		l.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range conns {
			c.Close()
		}
	})
	return l.Addr().String(), ch
}

// TestSignalEndsACommandWaitingOnAHungServer starts commands that wait on
// an AI server that never answers (a crawl summarising, doctor probing),
// signals them while they wait, and checks that they exit with the
// interrupted code. The bound on the wait is generous: only a command that
// ignored the signal would reach it.
func TestSignalEndsACommandWaitingOnAHungServer(t *testing.T) {
	t.Parallel()
	bin := gdsBinary(t)
	docs := t.TempDir()
	for i, text := range []string{"the quarterly plan for the steam engine", "minutes of the rollout meeting"} {
		if err := os.WriteFile(filepath.Join(docs, "doc"+string(rune('a'+i))+".txt"), []byte(text), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		args []string
		sig  syscall.Signal
	}{
		{[]string{"crawl"}, syscall.SIGINT},
		{[]string{"crawl"}, syscall.SIGTERM},
		{[]string{"doctor"}, syscall.SIGINT},
	} {
		name := strings.Join(tc.args, " ") + "/" + tc.sig.String()
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			addr, accepted := hungServer(t)
			cmd := exec.Command(bin, tc.args...)
			cmd.Env = append(cleanEnv(), "GDS_HOME="+t.TempDir(), "LANG=C", "GDS_SOURCES=local:"+docs,
				"GDS_AI_PROVIDER=openai", "OPENAI_BASE_URL=http://"+addr+"/v1", "OPENAI_API_KEY=sk-test-hung-server-key")
			cmd.Dir = t.TempDir()
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			done := make(chan error, 1)
			go func() { done <- cmd.Wait() }()
			select {
			case <-accepted: // the command now waits on the server
			case err := <-done:
				t.Fatalf("gds %s ended before calling the server: %v\n%s", name, err, out.String())
			case <-time.After(2 * time.Minute):
				_ = cmd.Process.Kill()
				t.Fatalf("gds %s never called the server\n%s", name, out.String())
			}
			sent := time.Now()
			if err := cmd.Process.Signal(tc.sig); err != nil {
				t.Fatal(err)
			}
			var err error
			select {
			case err = <-done:
				t.Logf("gds %s exited %s after %s (measured, not asserted)", name, time.Since(sent).Round(time.Millisecond), tc.sig)
			case <-time.After(time.Minute):
				_ = cmd.Process.Kill()
				t.Fatalf("gds %s still running a minute after %s\n%s", name, tc.sig, out.String())
			}
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != exitInterrupted {
				t.Errorf("gds %s after %s: %v, want exit %d\n%s", name, tc.sig, err, exitInterrupted, out.String())
			}
			if !strings.Contains(out.String(), "interrupted") {
				t.Errorf("gds %s: no word of the interruption:\n%s", name, out.String())
			}
		})
	}
}

// cleanEnv is the test's environment without gds settings, which would
// override the ones a test sets in the gds home.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "GDS_") && !strings.HasPrefix(name, "GDS_SEARCH_") || strings.HasPrefix(name, "OPENAI_") || strings.HasPrefix(name, "GOOGLE_") ||
			name == "DATABASE_URL" || name == "SUPABASE_DB_URL" || name == "LANG" || name == "LC_ALL" || name == "LC_MESSAGES" {
			continue
		}
		env = append(env, kv)
	}
	return env
}
