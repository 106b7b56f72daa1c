//go:build linux

package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"golang.org/x/sys/unix"

	"github.com/gds-cli/gds/internal/driveemu"
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
	s.expect(`Sources to index: `) // a label: pterm adds the colon
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
	s.expect(`Done \(1 folder\)`)
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

// TestInitWizardPicksADriveFolderOnATerminal picks a Drive folder from the
// tree on a pseudo-terminal, against the Drive emulator, then a second
// Google account's Shared drive (the emulator needs no sign-in).
func TestInitWizardPicksADriveFolderOnATerminal(t *testing.T) {
	bin := gdsBinary(t)
	home := filepath.Join(t.TempDir(), "home")
	e := driveemu.New()
	projects := e.AddFolder("root", "Projects")
	e.AddFolder(projects, "Alpha")
	team := e.AddSharedDrive("Team")
	srv := httptest.NewServer(e)
	t.Cleanup(srv.Close)

	s := startPTYEnv(t, bin, home, "C", []string{"GDS_DRIVE_ENDPOINT=" + srv.URL}, "init")
	s.expect(`space: select`)
	s.sendKeys(" ") // tick Google Drive
	s.expect(`❯ \[✓\] 1\) Google Drive`)
	s.sendKeys("\r")
	s.expect(`Drive: choose a place to open`)
	s.expect(`Team \(Shared drive\)`)
	s.sendKeys("\r") // open My Drive
	s.expect(`Drive: My Drive`)
	s.expect(`▸ Projects`)
	s.sendKeys("\x1b[B") // down to Projects
	s.expect(`❯ 2\) ▸ Projects`)
	s.sendKeys("\r")
	s.expect(`Drive: My Drive / Projects`)
	s.expect(`▸ Alpha`)
	s.sendKeys("\r") // "Use this folder (Projects)", the first choice
	s.expect(`chosen: drive:` + projects + ` \(Projects\)`)
	s.expect(`Done \(1 folder chosen\)`)
	s.sendKeys("\r") // the default is now Done
	s.expect(`Add another Google account\?`)
	s.sendKeys("work")
	s.expect(`Enter for no: work`) // echoed: the prompt holds it before Enter
	s.sendKeys("\r")
	s.expect(`Google account work: its folders become drive@work`)
	s.expect(`Team \(Shared drive\)`)
	s.sendKeys("\x1b[B") // down to Team
	s.expect(`❯ 2\) ▸ Team`)
	s.sendKeys("\r")
	s.expect(`Drive: Team`)
	s.sendKeys("\r") // "Use this folder (Team)"
	s.expect(`chosen: drive@work:` + team + ` \(Team\)`)
	s.sendKeys("\r") // Done, the default
	s.expect(`Add another Google account\?`)
	s.sendKeys("\r") // no
	s.expect(`AI provider`)
	s.sendKeys("\r")
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
	if want := "GDS_SOURCES=drive:" + projects + ",drive@work:" + team + "\nGDS_AI_PROVIDER=offline\n"; string(data) != want {
		t.Errorf(".env = %q, want %q", data, want)
	}
}

// TestBareGdsOffersInitOnATerminal: `gds` alone on a terminal, before any
// source is configured, offers `gds init`; no shows the help, yes (Enter)
// starts the wizard. With a source configured, or without a terminal, it
// shows the help as before.
func TestBareGdsOffersInitOnATerminal(t *testing.T) {
	bin := gdsBinary(t)
	noSource := []string{"GDS_SOURCES=", "GDS_SOURCE=", "GOOGLE_DRIVE_TARGET_FOLDER_IDS="}

	s := startPTYEnv(t, bin, filepath.Join(t.TempDir(), "home"), "C", noSource)
	s.expect(`gds is not set up yet`)
	s.expect(`Set it up now with .gds init.\? \[Y/n\]`)
	s.send("n\r")
	s.expect(`Run .gds init. when you are ready`)
	s.expect(`USAGE:`)
	if code := s.exit(); code != 0 {
		t.Fatalf("no: exit %d\n%s", code, s.screen())
	}

	s = startPTYEnv(t, bin, filepath.Join(t.TempDir(), "home"), "C", noSource)
	s.expect(`\[Y/n\]`)
	s.send("\r")
	s.expect(`Sources to index`)
	s.sendKeys("\x03") // Ctrl-C: nothing written
	s.exit()

	s = startPTYEnv(t, bin, filepath.Join(t.TempDir(), "home"), "C", []string{"GDS_SOURCES=local:" + t.TempDir()})
	s.expect(`USAGE:`)
	if code := s.exit(); code != 0 || strings.Contains(s.screen(), "not set up") {
		t.Fatalf("configured: exit %d\n%s", code, s.screen())
	}
}
