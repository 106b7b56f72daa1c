package app

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

func TestIsReadOnly(t *testing.T) {
	cases := []struct {
		err  error
		want bool
	}{
		{nil, false},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.EROFS}, true},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.EACCES}, true},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.EPERM}, true},
		{&fs.PathError{Op: "open", Path: "/x", Err: syscall.ENOSPC}, false},
		{errors.New("unable to open database file (14)"), false},
	}
	for _, c := range cases {
		if got := isReadOnly(c.err); got != c.want {
			t.Errorf("isReadOnly(%v) = %v, want %v", c.err, got, c.want)
		}
	}
}

// When SQLite cannot open the index and the data folder refuses a write,
// the error names "read-only" and the folder, as a configuration error.
// The file system is stood in for (tests run as root here, which chmod
// does not stop); the SQLite failure is real (the index path is a folder).
func TestOpenStoreNamesReadOnlyHome(t *testing.T) {
	cfg := loadConfig(t, nil)
	if err := os.MkdirAll(filepath.Join(cfg.IndexPath(), "blocker"), 0o700); err != nil {
		t.Fatal(err)
	}
	probe := writeProbe
	t.Cleanup(func() { writeProbe = probe })

	// Writable folder: the error stays SQLite's.
	_, err := OpenStore(context.Background(), cfg, nil)
	if err == nil {
		t.Fatal("OpenStore on a folder path succeeded")
	}
	if strings.Contains(err.Error(), "read-only") {
		t.Errorf("writable folder reported read-only: %v", err)
	}

	writeProbe = func(dir string) error { return &fs.PathError{Op: "open", Path: dir, Err: syscall.EROFS} }
	_, err = OpenStore(context.Background(), cfg, nil)
	if !errors.Is(err, apperr.Config) {
		t.Fatalf("err %v, want apperr.Config", err)
	}
	for lang, want := range map[string]string{i18n.En: "is read-only", i18n.Ja: "読み取り専用"} {
		if msg := apperr.Message(err, lang); !strings.Contains(msg, want) || !strings.Contains(msg, cfg.DataDir) {
			t.Errorf("%s message %q lacks %q and the folder", lang, msg, want)
		}
	}
}

// Without root, a real read-only data folder is named too.
func TestOpenStoreReadOnlyFolder(t *testing.T) {
	if os.Geteuid() == 0 {
		t.Skip("root writes through file modes")
	}
	cfg := loadConfig(t, nil)
	if err := os.MkdirAll(cfg.DataDir, 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(cfg.DataDir, 0o500); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.Chmod(cfg.DataDir, 0o700) })
	_, err := OpenStore(context.Background(), cfg, nil)
	if msg := apperr.Message(err, i18n.En); !strings.Contains(msg, "is read-only") {
		t.Errorf("message %q", msg)
	}
}
