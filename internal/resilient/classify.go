// Package resilient applies the interactive time budget (package budget)
// to a search: it gives each remote step its deadline, classifies what a
// failed step ran into, and runs the fallback budget.Decide picks — Drive's
// keyword search → the local full-text index, an AI call → the offline
// provider — recording a notice for the user. internal/app builds one Run
// per search; the loop (package search) does not know about it.
package resilient

import (
	"context"
	"errors"
	"net"
	"syscall"

	"github.com/gds-cli/gds/internal/ai/openai"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/budget"
	"github.com/gds-cli/gds/internal/drive"
)

// errStepTimeout is the cause of a step context that ran out of its limit.
var errStepTimeout = errors.New("step time limit")

// Classify maps the error of a step to its cause. stepCtx is the step's
// own context (its deadline and cause tell a step that ran out of time
// from one that failed).
func Classify(stepCtx context.Context, err error) budget.Cause {
	if err == nil {
		return ""
	}
	switch {
	case errors.Is(err, context.Canceled) && !errors.Is(context.Cause(stepCtx), errStepTimeout):
		return budget.CauseCanceled
	case errors.Is(context.Cause(stepCtx), errStepTimeout):
		return budget.CauseTimeout
	case drive.NeedsSignIn(err), errors.Is(err, apperr.Auth), errors.Is(err, openai.ErrUnauthorized):
		return budget.CauseAuth
	case errors.Is(err, apperr.RateLimited):
		return budget.CauseRateLimited
	case unreachable(err):
		return budget.CauseUnreachable
	case errors.Is(err, context.DeadlineExceeded):
		return budget.CauseTimeout
	}
	var nerr net.Error
	if errors.As(err, &nerr) && nerr.Timeout() {
		return budget.CauseTimeout
	}
	if errors.Is(err, apperr.Unavailable) {
		return budget.CauseUnavailable
	}
	var oerr *net.OpError
	if errors.As(err, &oerr) {
		return budget.CauseUnavailable
	}
	return budget.CauseOther
}

// unreachable reports a connection that could not be made: refused, no
// route, unknown host.
func unreachable(err error) bool {
	if errors.Is(err, syscall.ECONNREFUSED) || errors.Is(err, syscall.EHOSTUNREACH) ||
		errors.Is(err, syscall.ENETUNREACH) || errors.Is(err, syscall.EADDRNOTAVAIL) {
		return true
	}
	var dnsErr *net.DNSError
	if errors.As(err, &dnsErr) {
		return true
	}
	var oerr *net.OpError
	return errors.As(err, &oerr) && oerr.Op == "dial" && !oerr.Timeout()
}
