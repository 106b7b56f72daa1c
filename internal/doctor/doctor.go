// Package doctor checks a gds setup: configuration, the index (reachable,
// schema current, embedding space, freshness), the Google sign-in, the AI
// provider, the crawl schedule and the Alfred workflow. Each check is a
// function over small interfaces declared here and returns a Check with a
// level and, for every problem, the exact command that fixes it. Report
// renders the result as text or JSON in one place.
package doctor

import (
	"context"
	"errors"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/coverage"
	"github.com/gds-cli/gds/internal/schedule"
	"github.com/gds-cli/gds/internal/store"
)

// Level is the outcome of a check.
type Level string

// The levels, from best to worst. Only Fail makes the setup unhealthy.
const (
	OK   Level = "ok"
	Skip Level = "skip" // not applicable here (other OS, local source, --offline)
	Warn Level = "warn" // works, but something is missing or stale
	Fail Level = "fail" // broken: gds cannot do its job until fixed
)

// Check is one line of the report. Title, Detail and Fix are in the user's
// language; Fix is a command to run (or a line to add) when not OK.
type Check struct {
	ID     string `json:"id"`
	Level  Level  `json:"status"`
	Title  string `json:"title"`
	Detail string `json:"detail"`
	Fix    string `json:"fix,omitempty"`
	// Account names the Google account of an "auth" check ("default" for
	// the default account) when the sources use several or a named one.
	Account string `json:"account,omitempty"`
	// Coverage is the comparison behind a "coverage" check: the source's
	// listing against the index, by reason.
	Coverage *coverage.Source `json:"coverage,omitempty"`
}

// Report is the whole result.
type Report struct {
	Healthy bool    `json:"healthy"`
	Checks  []Check `json:"checks"`
}

// Counts returns the number of failed and warned checks.
func (r Report) Counts() (fails, warns int) {
	for _, c := range r.Checks {
		switch c.Level {
		case Fail:
			fails++
		case Warn:
			warns++
		}
	}
	return fails, warns
}

// ErrUnhealthy is returned (wrapped) by callers when a report has failures.
var ErrUnhealthy = errors.New("gds doctor found problems")

// ErrNoIndex is what an IndexStats returns when the embedded index file
// does not exist yet (doctor does not create it).
var ErrNoIndex = errors.New("no index yet")

// IndexStats reads the index statistics (store.Store.Stats).
type IndexStats func(ctx context.Context) (store.Stats, error)

// TokenState is the stored Google sign-in as doctor sees it.
type TokenState struct {
	LoggedIn bool
	// Store names where the token lives (Keychain, file path).
	Store string
	// Problem, when set, says why the sign-in cannot be used (another
	// OAuth client, no refresh token, revoked); the fix is to log in again.
	Problem string
	// TestingExpiry, when set, is when Google ends the sign-in if the
	// OAuth app is in "Testing" (auth.TestingRisk found it likely: signed
	// in AgeDays days ago, no refresh yet proving the app published).
	TestingExpiry time.Time
	AgeDays       int
}

// TokenInspector reports the stored sign-in of a Google account ("" is
// the default account) without printing any token.
type TokenInspector interface {
	InspectToken(ctx context.Context, account string) (TokenState, error)
}

// ModelsProber checks that an OpenAI-compatible server answers (a cheap
// GET /models).
type ModelsProber interface {
	ProbeModels(ctx context.Context) error
}

// ScheduleStatus reports the crawl schedule (schedule.Launchd/Systemd).
type ScheduleStatus interface {
	Status(ctx context.Context) (schedule.Status, error)
}

// WorkflowFinder looks for the installed Alfred workflow and returns its
// directory ("" when not installed).
type WorkflowFinder func() (string, error)

// Inputs is everything the checks look at. Nil interfaces mean "not
// available here" and give Skip (or Warn, for a missing auth package).
type Inputs struct {
	Lang      string
	Now       time.Time
	Config    *config.Config
	ConfigErr error
	// NoSource: no source is configured yet (gds init has not run); the
	// checks of what a source needs are skipped and the fix is gds init.
	NoSource bool

	Stats IndexStats
	// Integrity runs the index's own consistency check (SQLite's
	// quick_check), bounded by IntegrityLimit: complete is false when the
	// limit stopped it first; damage is an error matching
	// store.ErrDamaged. nil: the back end has no such check (Postgres
	// checks its own pages).
	Integrity      func(ctx context.Context) (complete bool, err error)
	IntegrityLimit time.Duration
	LatestSchema   int // the newest schema version this gds knows (0: unknown)
	// EmbeddingModel is the configured provider's model ("" when the
	// provider could not be set up).
	EmbeddingModel store.EmbeddingSpace
	// StaleAfter is the index age that draws a warning (default 48h).
	StaleAfter time.Duration

	Token TokenInspector // nil: this build has no gds auth yet

	ProviderErr error        // setting up the AI provider failed
	Prober      ModelsProber // nil for the offline provider
	Offline     bool         // --offline: skip network checks

	Schedule ScheduleStatus // nil: no scheduler on this OS
	// ScheduleFix is the install command for this OS.
	ScheduleFix string
	Alfred      WorkflowFinder // nil: not macOS
	// ProgramExists reports whether a path is an existing file (to catch a
	// schedule pointing at a removed binary); nil skips that test.
	ProgramExists func(string) bool
	// KeyServer probes the Alfred keystroke server of the index; nil: no
	// keystroke server on this system (Alfred runs on macOS only).
	KeyServer func() KeyServerState
	// Coverage compares each configured source's listing with the index
	// (app.Deps.Coverage); nil skips the check.
	Coverage func(ctx context.Context) ([]coverage.Source, error)
}

// KeyServerState is what doctor knows of the keystroke server.
type KeyServerState struct {
	Off     bool   // turned off (GDS_KEYSTROKE_SERVER)
	Socket  string // its socket; "" when the gds home's path is too long for one
	Running bool   // a server listens on Socket
}

// Run performs every check in order.
func Run(ctx context.Context, in Inputs) Report {
	if in.StaleAfter == 0 {
		in.StaleAfter = 48 * time.Hour
	}
	c := &checker{in: in}
	checks := []Check{c.config()}
	checks = append(checks, c.source()...)
	idx := c.index(ctx)
	checks = append(checks, idx...)
	checks = append(checks, c.coverage(ctx)...)
	checks = append(checks, c.auth(ctx)...)
	checks = append(checks, c.ai(ctx), c.schedule(ctx), c.alfred(), c.keyServer())
	r := Report{Healthy: true, Checks: checks}
	for _, ch := range checks {
		if ch.Level == Fail {
			r.Healthy = false
		}
	}
	return r
}
