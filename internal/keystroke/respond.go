package keystroke

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/launcher"
	"github.com/gds-cli/gds/internal/render/alfred"
)

// AlfredSources reads launcher.AlfredSourceVar through lookup and returns
// the source keys it names (none when unset or blank). A bad spec is an
// apperr.Usage error naming it.
func AlfredSources(lookup func(string) (string, bool)) ([]string, error) {
	v, _ := lookup(launcher.AlfredSourceVar)
	home, _ := lookup("HOME")
	srcs, err := config.ParseSources(v, "", home)
	if err != nil {
		return nil, apperr.Mark(fmt.Errorf("Alfred variable %s: %w", launcher.AlfredSourceVar, err), apperr.Usage)
	}
	var keys []string
	for _, s := range srcs {
		keys = append(keys, s.Key())
	}
	return keys, nil
}

// RespondTyping prints the Script Filter response to the keystroke t, as
// launcher.RespondAlfred does (secrets redacted with cfg, which may be
// nil): answer gets the source keys of t's launcher.AlfredSourceVar (a bad
// one is an error item). The keystroke server and the full CLI answer
// through it.
func RespondTyping(stdout, stderr io.Writer, cfg *config.Config, t launcher.Typing, answer func(sources []string) (alfred.Output, error)) error {
	redact := func(s string) string { return config.Redact(cfg, s) }
	return launcher.RespondAlfred(stdout, stderr, redact, t.Lang, func() (alfred.Output, error) {
		sources, err := AlfredSources(t.Lookup)
		if err != nil {
			return alfred.Output{}, err
		}
		return answer(sources)
	})
}

// ServedEnvKey identifies the environment a Served command line runs in:
// every environment variable but launcher.StartServerEnv and a shell's
// bookkeeping (_, PWD, OLDPWD, SHLVL), and the working directory (a .env
// file there is configuration). The server runs a front's command line
// only when the front's key equals its own, so it reads the same
// configuration, language and Alfred variables as the full CLI started by
// that front would; it reads the .env files again for each command.
func ServedEnvKey(environ []string, wd string) string {
	vars := make([]string, 0, len(environ))
	for _, kv := range environ {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case launcher.StartServerEnv, "_", "PWD", "OLDPWD", "SHLVL":
			continue
		}
		vars = append(vars, kv)
	}
	slices.Sort(vars)
	h := sha256.New()
	for _, kv := range vars {
		h.Write([]byte(kv))
		h.Write([]byte{0})
	}
	h.Write([]byte(wd))
	return hex.EncodeToString(h.Sum(nil))
}
