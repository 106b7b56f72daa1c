//go:build unix

package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// nobody is the user a root test runs gds as, so that file modes bind.
const nobody = 65534

// readOnlyHomeRunner prepares a world-readable copy of gds, a folder of
// documents, and a gds home that the user running gds cannot write (mode
// 0555): as this user when it is not root, as nobody when it is (root
// writes through file modes). run executes gds there; writable and
// readOnly switch the home's mode.
type readOnlyHomeRunner struct {
	t          *testing.T
	bin, home  string
	docs, base string
	cred       *syscall.Credential
}

func newReadOnlyHomeRunner(t *testing.T) *readOnlyHomeRunner {
	t.Helper()
	base, err := os.MkdirTemp("", "gds-readonly-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = filepath.Walk(base, func(p string, _ os.FileInfo, _ error) error { _ = os.Chmod(p, 0o755); return nil })
		os.RemoveAll(base)
	})
	r := &readOnlyHomeRunner{t: t, base: base, bin: filepath.Join(base, "gds"), home: filepath.Join(base, "home"), docs: filepath.Join(base, "docs")}
	if err := os.Chmod(base, 0o755); err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(gdsBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.OpenFile(r.bin, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	dst.Close()
	for _, d := range []string{r.docs, r.home} {
		if err := os.Mkdir(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(r.docs, "plan.txt"), []byte("the quarterly plan of the read-only test"), 0o644); err != nil {
		t.Fatal(err)
	}
	if os.Geteuid() == 0 {
		r.cred = &syscall.Credential{Uid: nobody, Gid: nobody}
		if err := os.Chown(r.home, nobody, nobody); err != nil {
			t.Fatal(err)
		}
	}
	return r
}

func (r *readOnlyHomeRunner) chmod(mode os.FileMode) {
	if err := os.Chmod(r.home, mode); err != nil {
		r.t.Fatal(err)
	}
}

func (r *readOnlyHomeRunner) run(args ...string) (out string, code int) {
	r.t.Helper()
	cmd := exec.Command(r.bin, args...)
	cmd.Env = append(cleanEnv(), "HOME="+r.base, "GDS_HOME="+r.home, "LANG=C", "GDS_SOURCES=local:"+r.docs, "GDS_AI_PROVIDER=offline",
		"GOOGLE_OAUTH_CLIENT_ID=test-client.apps.googleusercontent.com", "GOOGLE_OAUTH_CLIENT_SECRET=test-client-secret")
	cmd.Dir = r.base
	if r.cred != nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: r.cred}
	}
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	err := cmd.Run()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		code = ee.ExitCode()
	case err != nil:
		r.t.Skipf("cannot run gds as another user here: %v", err)
	}
	return b.String(), code
}

// TestReadOnlyHomeIsAConfigError: every command that writes in the gds home
// (the crawl lock, the index, the .env, the token file, the server's
// index, federate's trace) exits 3 with the message saying the folder is read-only and what
// to do, for a fresh home and for one that already holds an index.
func TestReadOnlyHomeIsAConfigError(t *testing.T) {
	t.Parallel()
	r := newReadOnlyHomeRunner(t)
	writers := [][]string{
		{"crawl"}, {"crawl", "--full"}, {"search", "quarterly plan"}, {"ask", "what is the plan"}, {"db", "migrate"},
		{"graph", "build"}, {"init", "--source", "local:" + r.docs, "--no-input"}, {"auth", "login", "--no-browser"},
		{"serve", "--addr", "127.0.0.1:0"}, {"federate", "--mock", "--debug", "what is the plan"},
	}
	check := func(state string) {
		for _, args := range writers {
			out, code := r.run(args...)
			name := state + ": gds " + strings.Join(args, " ")
			if code != exitConfig {
				t.Errorf("%s: exit %d, want %d\n%s", name, code, exitConfig, out)
			}
			if !strings.Contains(out, "is read-only; make it writable or point GDS_HOME at a writable folder") || !strings.Contains(out, r.home) {
				t.Errorf("%s: the message does not name the read-only home and the fix:\n%s", name, out)
			}
		}
	}
	r.chmod(0o555)
	check("fresh home")

	r.chmod(0o755)
	if out, code := r.run("crawl"); code != 0 {
		t.Fatalf("crawl into the writable home: exit %d\n%s", code, out)
	}
	r.chmod(0o555)
	check("home with an index")
}
