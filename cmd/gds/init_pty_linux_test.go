//go:build linux

package main

import (
	"os"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	"golang.org/x/sys/unix"
)

// sendKeys sends keys once the terminal is in raw mode, i.e. once the
// prompt on screen reads keys: a key typed earlier, while the terminal is
// still in line mode between two prompts, would be flushed. The wait is a
// hang guard, not a timing.
func (s *ptySession) sendKeys(keys string) {
	s.t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		tio, err := unix.IoctlGetTermios(int(s.tty.Fd()), unix.TCGETS)
		if err != nil {
			s.t.Fatal(err)
		}
		if tio.Lflag&unix.ICANON == 0 {
			break
		}
		if time.Now().After(deadline) {
			s.t.Fatalf("the terminal never went raw; screen:\n%s", s.screen())
		}
		time.Sleep(5 * time.Millisecond)
	}
	s.send(keys)
}

// TestInitWizardOnATerminal runs `gds init` on a pseudo-terminal and
// answers pterm's prompts with keys: a local folder, the offline provider,
// no crawl, no schedule.
func TestInitWizardOnATerminal(t *testing.T) {
	bin := gdsBinary(t)
	home := filepath.Join(t.TempDir(), "home")
	a := t.TempDir()
	s := startPTY(t, bin, home, "C", "init")
	s.expect(`Which sources should gds index\?`)
	s.expect(`space: select`)
	// One key at a time, each after the screen shows the last one took.
	s.sendKeys("\x1b[B") // down to "Local folders"
	s.expect(`❯ \[✗\] 2\) Local folders`)
	s.sendKeys(" ") // tick it
	s.expect(`❯ \[✓\] 2\) Local folders`)
	s.sendKeys("\r") // confirm
	s.expect(`Add a folder`)
	s.sendKeys("\r") // the default: add a folder…
	s.expect(`Folder path`)
	s.sendKeys(a)
	s.expect(regexp.QuoteMeta(a))
	s.sendKeys("\r")
	s.expect(`Done \(1 folders\)`)
	s.sendKeys("\r") // the default is now Done
	s.expect(`AI provider`)
	s.sendKeys("\r") // offline (the default)
	s.expect(`Crawl the sources now\?`)
	s.sendKeys("n")
	s.expect(`gds schedule install\)\?`)
	s.sendKeys("n")
	s.expect(`Wrote .*\.env`)
	if code := s.exit(); code != 0 {
		t.Fatalf("exit %d\n%s", code, s.screen())
	}
	data, err := os.ReadFile(filepath.Join(home, ".env"))
	if err != nil {
		t.Fatal(err)
	}
	if want := "GDS_SOURCES=local:" + a + "\nGDS_AI_PROVIDER=offline\n"; string(data) != want {
		t.Errorf(".env = %q, want %q", data, want)
	}
}
