package budget

import (
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// Cause is why a step did not answer, as the caller classified its error.
type Cause string

// Causes of a failed step.
const (
	CauseTimeout     Cause = "timeout"      // no answer within the step's limit
	CauseUnreachable Cause = "unreachable"  // connection refused, unknown host, no route
	CauseRateLimited Cause = "rate_limited" // 429, or a quota
	CauseUnavailable Cause = "unavailable"  // server errors, dropped connections
	CauseAuth        Cause = "auth"         // the sign-in or the key was refused
	CauseBudget      Cause = "budget"       // no time left in the whole search's budget
	CauseCanceled    Cause = "canceled"     // the user stopped the search
	CauseOther       Cause = "error"        // anything else (a bad answer, a bug)
)

// Fallback is what a degraded step used instead.
type Fallback string

// Fallbacks.
const (
	FallbackNone    Fallback = ""
	FallbackIndex   Fallback = "local_index" // the local full-text index
	FallbackOffline Fallback = "offline"     // the offline provider
)

// Decision is what to do about a failed step.
type Decision struct {
	// Fallback to use; FallbackNone means the search fails.
	Fallback Fallback
	// Sticky: the service is skipped for the rest of the search (it is
	// down or out of time; asking it again would only spend the budget).
	Sticky bool
}

// Degrade reports whether the step degrades rather than fails.
func (d Decision) Degrade() bool { return d.Fallback != FallbackNone }

// Decide is what a failed step of s degrades to. Drive's keyword search
// falls back to the same keywords over the local full-text index (it holds
// the same files); an AI call to the offline provider. The database has no
// fallback, and a search the user cancelled is never continued.
func Decide(s Service, c Cause) Decision {
	if c == CauseCanceled {
		return Decision{}
	}
	sticky := c != CauseOther // one bad answer does not mean the service is down
	switch s {
	case Drive:
		return Decision{Fallback: FallbackIndex, Sticky: sticky}
	case AI:
		return Decision{Fallback: FallbackOffline, Sticky: sticky}
	}
	return Decision{}
}

// StepEmbed is the Step of a notice for the query's embedding, which has no
// fallback: the loop ranks without vectors.
const StepEmbed = "embed"

// Notice tells the user a step was degraded. It is plain data (it goes
// into --json as "degraded").
type Notice struct {
	Service  Service  `json:"service"`
	Reason   Cause    `json:"reason"`
	Fallback Fallback `json:"fallback"`
	Step     string   `json:"step,omitempty"` // the loop step, for AI calls
	// Account is the Google account whose Drive was not searched, when
	// the index holds several ("default" or the account's name).
	Account string        `json:"account,omitempty"`
	Limit   time.Duration `json:"-"`       // the step's limit, for CauseTimeout
	Message string        `json:"message"` // set by Localize
}

// Text is the one-line notice in lang.
func (n Notice) Text(lang string) string {
	limit := FormatDuration(n.Limit)
	switch n.Service {
	case Drive:
		if n.Account != "" {
			if n.Reason == CauseAuth {
				return i18n.T(lang, "budget.notice.drive_account_auth", n.Account)
			}
			return i18n.T(lang, "budget.notice.drive_account", n.Account, string(n.Reason))
		}
		return i18n.T(lang, i18n.Key("budget.notice.drive."+string(n.Reason)), limit)
	case AI:
		if n.Step == StepEmbed {
			return i18n.T(lang, "budget.notice.ai_embed", string(n.Reason))
		}
		return i18n.T(lang, i18n.Key("budget.notice.ai."+string(n.Reason)), limit, n.Step)
	}
	return string(n.Service) + ": " + string(n.Reason)
}

// Localize returns the notices with Message set in lang.
func Localize(ns []Notice, lang string) []Notice {
	out := make([]Notice, len(ns))
	for i, n := range ns {
		n.Message = n.Text(lang)
		out[i] = n
	}
	return out
}

// FormatDuration shows a limit as "2s" or "1.5s".
func FormatDuration(d time.Duration) string {
	if d <= 0 {
		return "0s"
	}
	return d.Round(100 * time.Millisecond).String()
}

// Failure is a search that nothing could answer: one line naming the
// service, the cause and the fix. It never carries a URL with a query
// string or a password (Where is a masked location).
type Failure struct {
	Service Service
	Cause   Cause
	Where   string        // e.g. the masked database location; may be ""
	Limit   time.Duration // the limit that ran out, for CauseTimeout and CauseBudget
	Step    string        // the loop step that ran out of budget
	Err     error         // the underlying error (kept for errors.Is, not shown)
}

// Error is the English message.
func (f *Failure) Error() string { return f.Message(i18n.En) }

// Message is the one-line message in lang.
func (f *Failure) Message(lang string) string {
	if f.Cause == CauseBudget {
		return i18n.T(lang, "budget.fail.budget", FormatDuration(f.Limit), f.Step)
	}
	return i18n.T(lang, i18n.Key("budget.fail."+string(f.Service)+"."+string(f.failCause())), f.Where, FormatDuration(f.Limit))
}

func (f *Failure) failCause() Cause {
	switch f.Cause {
	case CauseTimeout, CauseUnreachable:
		return f.Cause
	}
	return CauseUnavailable
}

// Hint is empty: the fix is in the message.
func (f *Failure) Hint(string) string { return "" }

// Unwrap keeps the cause for errors.Is.
func (f *Failure) Unwrap() error { return f.Err }

// Is classifies the failure for exit codes and HTTP statuses.
func (f *Failure) Is(target error) bool {
	switch f.Cause {
	case CauseRateLimited:
		return target == apperr.RateLimited
	case CauseAuth:
		return target == apperr.Auth
	}
	return target == apperr.Unavailable
}
