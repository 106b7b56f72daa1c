package launcher

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// CoreName is the file name of the full CLI next to the front binary.
const CoreName = "gds-core"

// CoreEnv names an environment variable that overrides where the full CLI
// is (a path to the binary).
const CoreEnv = "GDS_CORE"

// CoreError says that the full CLI is not where the front looked.
type CoreError struct {
	Path string // the file looked for
	Env  bool   // the path came from GDS_CORE
	Err  error
}

func (e *CoreError) Error() string { return e.Message(i18n.En) }

// Message names the missing file.
func (e *CoreError) Message(lang string) string {
	return i18n.T(lang, "launcher.no_core", e.Path, e.Err)
}

// Hint says how to fix it.
func (e *CoreError) Hint(lang string) string {
	if e.Env {
		return i18n.T(lang, "launcher.no_core.hint_env", CoreEnv)
	}
	return i18n.T(lang, "launcher.no_core.hint", CoreName, CoreEnv)
}

// Unwrap returns the cause and apperr.Config: an installation that lacks
// half of gds is a configuration problem (exit code 3).
func (e *CoreError) Unwrap() []error { return []error{e.Err, apperr.Config} }

// CorePath finds the full CLI: $GDS_CORE when set, else gds-core in the
// directory of exe — the front's own executable with symlinks resolved,
// since Homebrew links bin/gds to the keg where gds-core lies beside the
// real gds. The file must exist and be a regular file; the error is a
// *CoreError.
func CorePath(exe string, getenv func(string) string) (string, error) {
	if p := getenv(CoreEnv); p != "" {
		return p, checkCore(p, true)
	}
	resolved, err := filepath.EvalSymlinks(exe)
	if err != nil {
		resolved = exe
	}
	p := filepath.Join(filepath.Dir(resolved), CoreName)
	return p, checkCore(p, false)
}

func checkCore(p string, fromEnv bool) error {
	fi, err := os.Stat(p)
	if err == nil && !fi.Mode().IsRegular() {
		err = fmt.Errorf("%w: not a regular file", fs.ErrInvalid)
	}
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err // the path is in the message already
		}
		return &CoreError{Path: p, Env: fromEnv, Err: err}
	}
	return nil
}
