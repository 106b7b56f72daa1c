package crawl

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/termsafe"
)

// failureLog keeps the index's record of the files a crawl of one source
// fails (store.Failures): a file that fails is recorded with its reason,
// and the record of a file indexed, skipped or gone this time is cleared.
// Only files with a record before the crawl cost a write when they
// succeed. A failed file is tried again by the next crawl: it is not in
// the index (or its record there is older than the listing), and a failed
// crawl keeps the old page token.
type failureLog struct {
	idx   Index
	key   string
	now   func() time.Time
	known map[string]bool // IDs with a record when the crawl began
	err   error           // the first write that failed
}

// newFailureLog reads the source's records (none for a dry run, which
// writes nothing).
func newFailureLog(ctx context.Context, opts Options) (*failureLog, error) {
	l := &failureLog{idx: opts.Index, key: opts.Key, now: opts.Now, known: map[string]bool{}}
	if opts.DryRun {
		l.idx = nil
		return l, nil
	}
	fs, err := opts.Index.SourceFailures(ctx, opts.Key)
	if err != nil {
		return nil, fmt.Errorf("read the failed files: %w", err)
	}
	for _, f := range fs {
		l.known[f.FileID] = true
	}
	return l, nil
}

// note records or clears the failure of e after its result r.
func (l *failureLog) note(ctx context.Context, e Entry, r result) {
	if l.idx == nil || l.err != nil || r.status == StatusPlanned {
		return
	}
	ctx = context.WithoutCancel(ctx)
	switch {
	case r.status != StatusFailed:
		if l.known[e.ID] {
			l.clear(ctx, []string{e.ID})
		}
	case r.err != nil && !errors.Is(r.err, apperr.Interrupted) && !errors.Is(r.err, context.Canceled):
		f := FailureOf(r.err)
		f.Source, f.FileID, f.Name, f.Path, f.MimeType, f.ModifiedAt, f.FailedAt = l.key, e.ID, e.Name, e.Path, e.MimeType, e.ModifiedAt, l.now().UTC()
		if err := l.idx.RecordFailures(ctx, []store.Failure{f}); err != nil {
			l.err = fmt.Errorf("record the failure of %s: %w", e.Name, err)
			return
		}
		l.known[e.ID] = true
	}
}

// forget clears the records of the files that are gone: every recorded ID
// for which gone is true.
func (l *failureLog) forget(ctx context.Context, gone func(id string) bool) {
	if l.idx == nil || l.err != nil {
		return
	}
	var ids []string
	for id := range l.known {
		if gone(id) {
			ids = append(ids, id)
		}
	}
	l.clear(context.WithoutCancel(ctx), ids)
}

func (l *failureLog) clear(ctx context.Context, ids []string) {
	if len(ids) == 0 {
		return
	}
	if err := l.idx.ClearFailures(ctx, l.key, ids); err != nil {
		l.err = fmt.Errorf("clear the record of %d failed files: %w", len(ids), err)
		return
	}
	for _, id := range ids {
		delete(l.known, id)
	}
}

// FailureOf is the reason of a file's failure as the index records it: the
// apperr kind's code and the error's English message, with URL
// credentials masked, control characters escaped, and cut to
// store.MaxFailureMessage bytes.
func FailureOf(err error) store.Failure {
	msg := termsafe.String(apperr.Message(err, i18n.En))
	if len(msg) > store.MaxFailureMessage {
		cut := store.MaxFailureMessage - len("…")
		for cut > 0 && !utf8.RuneStart(msg[cut]) {
			cut--
		}
		msg = strings.TrimSpace(msg[:cut]) + "…"
	}
	return store.Failure{Kind: apperr.KindOf(err).Code(), Message: msg}
}
