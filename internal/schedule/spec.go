package schedule

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"sync"
	"text/template"
	"time"

	"github.com/gds-cli/gds/launchd"
)

// Names of the scheduled job.
const (
	// Label is the launchd label of the crawl agent.
	Label = "dev.gds.crawl"
	// SystemdUnit is the base name of the systemd user service and timer.
	SystemdUnit = "gds-crawl"
	// DefaultInterval is the time between scheduled crawls.
	DefaultInterval = time.Hour
	// MinInterval is the shortest interval accepted.
	MinInterval = time.Minute
	// Nice is the scheduling priority of the scheduled crawl.
	Nice = 10
	// MinimalPATH is the PATH a scheduled crawl runs with: launchd, systemd
	// and cron read no shell profile.
	MinimalPATH = "/opt/homebrew/bin:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
	// LogFileName and ErrLogFileName are the crawl's stdout and stderr logs.
	LogFileName    = "crawl.log"
	ErrLogFileName = "crawl.err.log"
)

// ErrTemporaryBinary is returned for a gds built by `go run` or `go test`:
// a schedule pointing at it would break as soon as the temp dir is cleaned.
var ErrTemporaryBinary = errors.New("this gds is a temporary build (go run / go test); install gds (brew, go install or go build) and run the installed binary")

// Spec describes the scheduled crawl.
type Spec struct {
	// Program is the absolute path of the gds binary.
	Program string
	// Interval is the time between crawls (at least MinInterval).
	Interval time.Duration
	// GDSHome is passed to the crawl as GDS_HOME, so it uses the same
	// home (and .env, index, token) as the user who installed it.
	GDSHome string
	// LogDir receives the crawl's stdout and stderr (launchd and cron).
	LogDir string
	// Sources is passed to the crawl as GDS_SOURCES when not empty: the
	// sources of a configuration that did not come from the home .env (an
	// environment variable of the installing shell), which the scheduled
	// crawl would not see. "" lets the crawl read GDS_SOURCES itself.
	Sources string
}

// Validate checks the spec.
func (s Spec) Validate() error {
	switch {
	case s.Program == "" || !filepath.IsAbs(s.Program):
		return fmt.Errorf("the gds program path %q is not absolute", s.Program)
	case s.Interval < MinInterval:
		return fmt.Errorf("interval %s is shorter than %s", s.Interval, MinInterval)
	case s.GDSHome == "" || !filepath.IsAbs(s.GDSHome):
		return fmt.Errorf("the gds home %q is not absolute", s.GDSHome)
	}
	return nil
}

// env returns the environment of the scheduled crawl: GDS_HOME and a
// minimal PATH, nothing secret (the crawl reads the .env itself).
func (s Spec) env() []envVar {
	env := []envVar{{"GDS_HOME", s.GDSHome}, {"PATH", MinimalPATH}}
	if s.Sources != "" {
		env = append(env, envVar{"GDS_SOURCES", s.Sources})
	}
	return env
}

type envVar struct{ Name, Value string }

// ResolveProgram returns the path the schedule should run for the running
// binary exe (os.Executable): symlinks resolved to an absolute path, except
// that a symlink into a versioned Homebrew directory (Cellar, Caskroom) is
// kept, because `brew upgrade` removes the versioned path. A binary built by
// `go run` or `go test` is refused with ErrTemporaryBinary.
func ResolveProgram(exe string, evalSymlinks func(string) (string, error)) (string, error) {
	if evalSymlinks == nil {
		evalSymlinks = filepath.EvalSymlinks
	}
	abs, err := filepath.Abs(exe)
	if err != nil {
		return "", fmt.Errorf("resolve the gds binary path %s: %w", exe, err)
	}
	resolved, err := evalSymlinks(abs)
	if err != nil {
		return "", fmt.Errorf("resolve the gds binary path %s: %w", abs, err)
	}
	if isTemporaryBuild(resolved) {
		return "", fmt.Errorf("%s: %w", resolved, ErrTemporaryBinary)
	}
	if resolved != abs && isVersionedBrewPath(resolved) {
		return abs, nil
	}
	return resolved, nil
}

// isTemporaryBuild reports whether p lies in a go-build temporary
// directory or is a test binary.
func isTemporaryBuild(p string) bool {
	for _, el := range strings.Split(filepath.ToSlash(p), "/") {
		if strings.HasPrefix(el, "go-build") {
			return true
		}
	}
	return strings.HasSuffix(p, ".test")
}

func isVersionedBrewPath(p string) bool {
	s := filepath.ToSlash(p)
	return strings.Contains(s, "/Cellar/") || strings.Contains(s, "/Caskroom/")
}

// plistData is what the launchd template sees.
type plistData struct {
	Label           string
	Program         string
	Args            []string
	IntervalSeconds int64
	Nice            int
	StdoutPath      string
	StderrPath      string
	Env             []envVar
}

// plistTemplate is parsed on first use: only gds schedule needs it, and a
// package-level parse would run in every gds process before main.
var plistTemplate = sync.OnceValue(func() *template.Template {
	return template.Must(template.New("plist").Funcs(template.FuncMap{"xml": xmlEscape}).Parse(launchd.CrawlAgentTemplate))
})

// RenderPlist renders the LaunchAgent for s from the template in launchd/.
func RenderPlist(s Spec) ([]byte, error) {
	if err := s.Validate(); err != nil {
		return nil, err
	}
	if s.LogDir == "" || !filepath.IsAbs(s.LogDir) {
		return nil, fmt.Errorf("the log directory %q is not absolute", s.LogDir)
	}
	var b bytes.Buffer
	err := plistTemplate().Execute(&b, plistData{
		Label:           Label,
		Program:         s.Program,
		Args:            []string{"crawl"},
		IntervalSeconds: int64(s.Interval / time.Second),
		Nice:            Nice,
		StdoutPath:      filepath.Join(s.LogDir, LogFileName),
		StderrPath:      filepath.Join(s.LogDir, ErrLogFileName),
		Env:             s.env(),
	})
	if err != nil {
		return nil, fmt.Errorf("render the launchd plist: %w", err)
	}
	return b.Bytes(), nil
}

func xmlEscape(s string) (string, error) {
	var b strings.Builder
	if err := xml.EscapeText(&b, []byte(s)); err != nil {
		return "", err
	}
	return b.String(), nil
}
