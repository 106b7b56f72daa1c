//go:build unix

package main

import (
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/launcher"
)

// The first keystroke answers itself and starts the keystroke server
// (gds-core alfred keyserver); the keystrokes after it are served — the
// same bytes as the full CLI prints — and removing the socket stops it.
func TestFrontStartsKeyServer(t *testing.T) {
	front, core := binaries(t)
	sample := indexedHome(t, core)
	home, err := os.MkdirTemp("", "gdsfk") // short: a socket path has a length limit
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(home) })
	copyFile(t, filepath.Join(sample, config.IndexFileName), filepath.Join(home, config.IndexFileName))
	cfg := &config.Config{Home: home, DataDir: home}
	sock := launcher.KeySocket(cfg)
	env := []string{"GDS_HOME=" + home, "GDS_CORE=" + core}

	first := runBin(t, front, env, "", "alfred", "filter", "steam engine")
	if want := runBin(t, core, env[:1], "", "alfred", "filter", "steam engine"); first != want {
		t.Fatalf("first keystroke:\nfront    %+v\nfull CLI %+v", first, want)
	}
	build := launcher.BuildInfo{Version: "9.8.7", Commit: "feedbee", Date: "2030-01-01T00:00:00Z"}
	ty := launcher.Typing{Query: "Tesla", Lang: i18n.En, Now: time.Now()}
	deadline := time.Now().Add(60 * time.Second) // a hang guard: the server starts in the background
	for {
		if _, _, ok, _ := launcher.AskKeyServer(sock, build, cfg.IndexPath(), ty, 10*time.Second); ok {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no keystroke server answers after the first keystroke")
		}
		time.Sleep(20 * time.Millisecond)
	}
	for _, lang := range []string{"C", "ja_JP.UTF-8"} {
		for _, q := range []string{"梅雨", "Tesla", "先月の議事録PDF", "zzqx-no-such-word", "2024 slides"} {
			e := append([]string{"LANG=" + lang}, env...)
			f := runBin(t, front, e, "", "alfred", "filter", q)
			c := runBin(t, core, e[:2], "", "alfred", "filter", q)
			if f != c {
				t.Errorf("LANG=%s %q served:\nfront    %+v\nfull CLI %+v", lang, q, f, c)
			}
		}
	}
	if err := os.Remove(sock); err != nil {
		t.Fatal(err)
	}
	lock, err := os.Open(sock + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	for syscall.Flock(int(lock.Fd()), syscall.LOCK_EX|syscall.LOCK_NB) != nil {
		if time.Now().After(deadline) {
			t.Fatal("the keystroke server kept running after its socket was removed")
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	src, err := os.Open(from)
	if err != nil {
		t.Fatal(err)
	}
	defer src.Close()
	dst, err := os.Create(to)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.Copy(dst, src); err != nil {
		t.Fatal(err)
	}
	if err := dst.Close(); err != nil {
		t.Fatal(err)
	}
}
