// Package budget is the time budget of interactive paths (terminal search,
// --json, Alfred's full loop, and the HTTP and MCP servers that call
// internal/app): a deadline per remote step (Drive keyword search, one AI
// call, one database query) inside one deadline for the whole search, and
// the decision of what a failed step degrades to. It is separate from the
// crawl's patient retry policy (drive.RetryPolicy): a search that cannot get
// an answer in a few seconds answers from the local index or the offline
// provider instead of waiting.
//
// Everything here is pure: the caller measures time and classifies errors
// (internal/resilient), this package decides.
package budget

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
)

// Defaults keep a search under about 5 s.
const (
	DefaultTotal = 5 * time.Second
	DefaultDrive = 2 * time.Second
	DefaultAI    = 2 * time.Second
	DefaultDB    = 3 * time.Second
)

// Settings (environment variables) that change the budget; the flags of
// `gds search` override them.
const (
	EnvTotal = "GDS_SEARCH_TIMEOUT"
	EnvDrive = "GDS_SEARCH_DRIVE_TIMEOUT"
	EnvAI    = "GDS_SEARCH_AI_TIMEOUT"
	EnvDB    = "GDS_SEARCH_DB_TIMEOUT"
	EnvLocal = "GDS_SEARCH_LOCAL"
)

// Policy is the time budget of one interactive search.
type Policy struct {
	Total time.Duration // the whole search; <= 0: DefaultTotal
	Drive time.Duration // one Drive keyword search, retries included; <= 0: DefaultDrive
	AI    time.Duration // one AI call, retries included; <= 0: DefaultAI
	DB    time.Duration // connecting to the database, and one query; <= 0: DefaultDB
	// Local forces index-only search: Drive is never asked.
	Local bool
}

// WithDefaults fills the unset limits.
func (p Policy) WithDefaults() Policy {
	if p.Total <= 0 {
		p.Total = DefaultTotal
	}
	if p.Drive <= 0 {
		p.Drive = DefaultDrive
	}
	if p.AI <= 0 {
		p.AI = DefaultAI
	}
	if p.DB <= 0 {
		p.DB = DefaultDB
	}
	return p
}

// Service is a remote dependency of a search.
type Service string

// Services a search calls.
const (
	Drive Service = "drive"
	AI    Service = "ai"
	DB    Service = "database"
)

// Limit is the per-step limit of s.
func (p Policy) Limit(s Service) time.Duration {
	p = p.WithDefaults()
	switch s {
	case Drive:
		return p.Drive
	case AI:
		return p.AI
	}
	return p.DB
}

// Reserve is the part of the whole budget a step with a fallback leaves
// for it: the local index or the offline provider answer in well under a
// second, so a step that runs out still leaves time to degrade.
func (p Policy) Reserve(s Service) time.Duration {
	p = p.WithDefaults()
	if s == DB {
		return 0 // nothing to fall back to
	}
	return p.Total / 5
}

// StepTimeout is the deadline of a step of s started elapsed into the
// search: its own limit, cut so that the step ends Reserve(s) before the
// whole budget does. For Drive and AI, zero or less means there is no time
// left to try it: go straight to the fallback. A database query has no
// fallback; it always gets at least MinDB, so a search that spent its
// budget on slow remote steps can still read its results from a healthy
// index, while a database that does not answer fails soon after.
func (p Policy) StepTimeout(s Service, elapsed time.Duration) time.Duration {
	p = p.WithDefaults()
	t := min(p.Limit(s), p.Total-elapsed-p.Reserve(s))
	if s == DB {
		t = max(t, p.MinDB())
	}
	return t
}

// MinDB is the least time a database query gets: a tenth of the budget.
func (p Policy) MinDB() time.Duration {
	return min(p.WithDefaults().Total/10, p.WithDefaults().DB)
}

// FromEnv reads the budget settings with lookup (os.LookupEnv). Durations
// are Go durations ("5s", "1500ms") or plain seconds ("5").
func FromEnv(lookup func(string) (string, bool)) (Policy, error) {
	var p Policy
	for _, s := range []struct {
		name string
		dst  *time.Duration
	}{{EnvTotal, &p.Total}, {EnvDrive, &p.Drive}, {EnvAI, &p.AI}, {EnvDB, &p.DB}} {
		v, ok := lookup(s.name)
		if !ok || strings.TrimSpace(v) == "" {
			continue
		}
		d, err := ParseDuration(v)
		if err != nil {
			return Policy{}, fmt.Errorf("%s=%q: %w", s.name, v, err)
		}
		*s.dst = d
	}
	if v, ok := lookup(EnvLocal); ok && strings.TrimSpace(v) != "" {
		b, err := strconv.ParseBool(strings.TrimSpace(v))
		if err != nil {
			return Policy{}, fmt.Errorf("%s=%q: want true or false", EnvLocal, v)
		}
		p.Local = b
	}
	return p, nil
}

// ParseDuration reads a positive Go duration or a number of seconds.
func ParseDuration(v string) (time.Duration, error) {
	v = strings.TrimSpace(v)
	if f, err := strconv.ParseFloat(v, 64); err == nil {
		if f <= 0 {
			return 0, errors.New("want a positive duration such as 5s")
		}
		return time.Duration(f * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(v)
	if err != nil || d <= 0 {
		return 0, errors.New("want a positive duration such as 5s or 1500ms")
	}
	return d, nil
}
