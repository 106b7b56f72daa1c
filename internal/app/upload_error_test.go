package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/i18n"
)

// extractErr is an error as crawl.IndexFile returns it from extraction.
type extractErr struct{ err error }

func (e extractErr) Error() string   { return e.err.Error() }
func (e extractErr) Unwrap() []error { return []error{e.err, crawl.ErrExtract} }

// What an upload's indexing error becomes: the file's fault is the
// client's (400, 413, 422), the time limit while reading is "too complex"
// (422), the time limit later is the service's (503), the client going
// away stays interrupted, anything else keeps its kind (another time limit
// unavailable, 503).
func TestUploadError(t *testing.T) {
	f := uploadFailure{Name: "doc.pdf", MaxBytes: 50 << 20, Timeout: 2 * time.Minute}
	timedOut := f
	timedOut.TimedOut = true
	deadline := fmt.Errorf("extract: %w", context.DeadlineExceeded)
	for _, c := range []struct {
		name   string
		err    error
		f      uploadFailure
		kind   *apperr.Kind
		status int
		msg    string
	}{
		{"too complex", extractErr{fmt.Errorf("xref loop: %w", extract.ErrTooComplex)}, f, apperr.TooComplex, 422, "doc.pdf is too complex to read safely: reading it went over the limits"},
		{"too complex, also timed out", extractErr{fmt.Errorf("xref loop: %w", extract.ErrTooComplex)}, timedOut, apperr.TooComplex, 422, "went over the limits"},
		{"deadline while reading", extractErr{deadline}, timedOut, apperr.TooComplex, 422, "doc.pdf is too complex to read safely: reading it took longer than the upload time limit of 2m0s"},
		{"deadline while embedding", fmt.Errorf("embed: %w", context.DeadlineExceeded), timedOut, apperr.Unavailable, 503, "indexing doc.pdf did not finish within the upload time limit of 2m0s"},
		{"client gone while reading", extractErr{fmt.Errorf("extract: %w", context.Canceled)}, f, apperr.Interrupted, 499, ""},
		{"a deadline not ours", extractErr{deadline}, f, apperr.Unavailable, 503, ""}, // apperr: a time limit unmarked
		{"malformed", extractErr{fmt.Errorf("truncated PDF: %w", extract.ErrMalformed)}, f, apperr.Usage, 400, "cannot read doc.pdf: truncated PDF"},
		{"unsupported", extractErr{fmt.Errorf("%w: image/png", extract.ErrUnsupported)}, f, apperr.Usage, 400, "unsupported file type: doc.pdf"},
		{"too large", extractErr{extract.ErrTooLarge}, f, apperr.TooLarge, 413, "doc.pdf is larger than the upload limit of 50 MB"},
		{"no text", crawl.ErrNoText, f, apperr.Usage, 400, "doc.pdf has no text to index"},
		{"the provider is down", apperr.Mark(errors.New("connection refused"), apperr.Unavailable), f, apperr.Unavailable, 503, "connection refused"},
	} {
		err := uploadError(c.err, c.f)
		cl := apperr.Classify(err)
		if cl.Kind != c.kind || cl.HTTPStatus != c.status {
			t.Errorf("%s: %s %d, want %s %d (%v)", c.name, cl.Kind.Code(), cl.HTTPStatus, c.kind.Code(), c.status, err)
		}
		if msg := apperr.Message(err, i18n.En); c.msg != "" && !strings.Contains(msg, c.msg) {
			t.Errorf("%s: message %q lacks %q", c.name, msg, c.msg)
		}
		if !errors.Is(err, c.err) {
			t.Errorf("%s: the cause is lost", c.name)
		}
	}
}
