package sysopen

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// fakeSystem records the commands it would run; only the programs in
// installed are found.
func fakeSystem(goos string, installed ...string) (*System, *[]string, *bytes.Buffer) {
	var ran []string
	term := &bytes.Buffer{}
	s := &System{GOOS: goos, Term: term,
		LookPath: func(f string) (string, error) {
			for _, i := range installed {
				if i == f {
					return "/usr/bin/" + f, nil
				}
			}
			return "", exec.ErrNotFound
		},
		Run: func(c *exec.Cmd) error {
			line := filepath.Base(c.Path) + " " + strings.Join(c.Args[1:], " ")
			if c.Stdin != nil {
				in, _ := io.ReadAll(c.Stdin)
				line += "<" + string(in)
			}
			ran = append(ran, strings.TrimSpace(line))
			return nil
		}}
	return s, &ran, term
}

func TestOpen(t *testing.T) {
	for _, c := range []struct{ goos, want string }{{"darwin", "open https://x/1"}, {"linux", "xdg-open https://x/1"}, {"freebsd", "xdg-open https://x/1"}} {
		s, ran, _ := fakeSystem(c.goos, "open", "xdg-open")
		if err := s.Open(context.Background(), "https://x/1"); err != nil {
			t.Fatal(err)
		}
		if len(*ran) != 1 || (*ran)[0] != c.want {
			t.Errorf("%s: ran %q, want %q", c.goos, *ran, c.want)
		}
	}
	s, _, _ := fakeSystem("linux")
	err := s.Open(context.Background(), "https://x/1")
	if !errors.Is(err, apperr.Unavailable) || !strings.Contains(err.Error(), "xdg-open") {
		t.Errorf("no opener: %v", err)
	}
}

func TestCopy(t *testing.T) {
	s, ran, term := fakeSystem("darwin", "pbcopy")
	if viaTerm, err := s.Copy(context.Background(), "https://x/2"); err != nil || viaTerm {
		t.Fatalf("pbcopy: %v %v", viaTerm, err)
	}
	if len(*ran) != 1 || (*ran)[0] != "pbcopy <https://x/2" || term.Len() != 0 {
		t.Errorf("pbcopy: ran %q, terminal %q", *ran, term.String())
	}
	s, ran, term = fakeSystem("linux")
	if viaTerm, err := s.Copy(context.Background(), "https://x/2"); err != nil || !viaTerm {
		t.Fatalf("OSC 52: %v %v", viaTerm, err)
	}
	if len(*ran) != 0 || term.String() != "\x1b]52;c;aHR0cHM6Ly94LzI=\a" {
		t.Errorf("OSC 52: ran %q, terminal %q", *ran, term.String())
	}
}

// What goes wrong opening a result says what to do about it, never to
// check the network: a local file gone since the crawl, an opener that
// failed, a missing opener.
func TestOpenErrorsSayWhatToDo(t *testing.T) {
	dir := t.TempDir()
	gone := filepath.Join(dir, "moved away.pdf")
	here := filepath.Join(dir, "here.pdf")
	if err := os.WriteFile(here, []byte("%PDF"), 0o600); err != nil {
		t.Fatal(err)
	}
	fileURL := func(p string) string { return (&url.URL{Scheme: "file", Path: p}).String() }

	s, ran, _ := fakeSystem("linux", "xdg-open")
	err := s.Open(context.Background(), fileURL(gone))
	if !errors.Is(err, apperr.NotFound) || len(*ran) != 0 ||
		apperr.Message(err, i18n.En) != "the file "+gone+" is no longer there" ||
		!strings.Contains(apperr.Hint(err, i18n.En), "gds crawl") {
		t.Errorf("a file gone: %v (hint %q), ran %q", err, apperr.Hint(err, i18n.En), *ran)
	}

	s, _, _ = fakeSystem("linux", "xdg-open")
	s.Run = func(*exec.Cmd) error { return errors.New("exit status 3") }
	for link, hint := range map[string]string{fileURL(here): "xdg-mime", "https://drive.google.com/file/d/x/view": "copy it with c N"} {
		err := s.Open(context.Background(), link)
		h := apperr.Hint(err, i18n.En)
		if !strings.Contains(apperr.Message(err, i18n.En), "xdg-open could not open") || !strings.Contains(h, hint) || strings.Contains(h, "network") {
			t.Errorf("%s: %v, hint %q", link, err, h)
		}
	}

	s, _, _ = fakeSystem("linux")
	if h := apperr.Hint(s.Open(context.Background(), fileURL(here)), i18n.En); !strings.Contains(h, "xdg-utils") || strings.Contains(h, "network") {
		t.Errorf("no opener: hint %q", h)
	}
}
