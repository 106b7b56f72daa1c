package app

import (
	"errors"
	"io/fs"
	"strings"
	"syscall"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// A write refused by the file system in a folder gds keeps state in is a
// configuration error naming the folder and the setting that moves it;
// other write errors keep their own kind.
func TestHomeWriteErrors(t *testing.T) {
	const dir = "/data/gds"
	pathErr := func(e error) error { return &fs.PathError{Op: "open", Path: dir + "/crawl.lock", Err: e} }
	cases := []struct {
		name     string
		classify func(string, error) error
		err      error
		config   bool
		setting  string
	}{
		{"lock: permission", homeWriteError, pathErr(syscall.EACCES), true, "GDS_HOME"},
		{"lock: not permitted", homeWriteError, pathErr(syscall.EPERM), true, "GDS_HOME"},
		{"lock: read-only file system", homeWriteError, pathErr(syscall.EROFS), true, "GDS_HOME"},
		{"lock: disk full", homeWriteError, pathErr(syscall.ENOSPC), false, ""},
		{"upload: permission", uploadWriteError, pathErr(syscall.EACCES), true, "GDS_UPLOAD_DIR"},
		{"upload: read-only file system", uploadWriteError, pathErr(syscall.EROFS), true, "GDS_UPLOAD_DIR"},
		{"upload: other", uploadWriteError, errors.New("short write"), false, ""},
		{"nil", homeWriteError, nil, false, ""},
	}
	for _, c := range cases {
		err := c.classify(dir, c.err)
		if got := errors.Is(err, apperr.Config); got != c.config {
			t.Errorf("%s: config kind %v, want %v (%v)", c.name, got, c.config, err)
		}
		if !c.config {
			if err != c.err {
				t.Errorf("%s: the error changed: %v", c.name, err)
			}
			continue
		}
		if !errors.Is(err, c.err.(*fs.PathError).Err) {
			t.Errorf("%s: the cause is lost: %v", c.name, err)
		}
		for lang, word := range map[string]string{i18n.En: "read-only", i18n.Ja: "読み取り専用"} {
			if msg := apperr.Message(err, lang); !strings.Contains(msg, dir) || !strings.Contains(msg, word) || !strings.Contains(msg, c.setting) {
				t.Errorf("%s (%s): %q lacks the folder, %q or %s", c.name, lang, msg, word, c.setting)
			}
		}
	}
}
