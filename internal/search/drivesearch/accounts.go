package drivesearch

import (
	"context"
	"fmt"

	"github.com/gds-cli/gds/internal/drive"
)

// AccountFinder is the Drive search of one Google account ("" is the
// default account).
type AccountFinder struct {
	Account string
	Finder  Finder
}

// Accounts searches the Drive of several Google accounts, one after the
// other, as one Finder: the index holds files of each, and a file is
// found by the account that can see it. An account whose search fails
// (its sign-in expired or was revoked, its Drive unreachable) is told to
// OnFail and skipped, so the other accounts' results still come; only
// when every account fails is the search an error (the first one).
// Stopping the listing (fn's error) stops it for every account.
type Accounts struct {
	Finders []AccountFinder
	// OnFail is told each account whose search failed (may be nil).
	OnFail func(account string, err error)
}

// Search implements Finder.
func (a Accounts) Search(ctx context.Context, q drive.Query, fn func(drive.File) error) error {
	var first error
	failed := 0
	for _, af := range a.Finders {
		var stop error
		err := af.Finder.Search(ctx, q, func(f drive.File) error {
			if err := fn(f); err != nil {
				stop = err
				return err
			}
			return nil
		})
		switch {
		case stop != nil:
			return stop
		case err == nil:
			continue
		case ctx.Err() != nil:
			return err
		}
		failed++
		if first == nil {
			first = err
		}
		if a.OnFail != nil {
			a.OnFail(af.Account, err)
		}
	}
	if failed > 0 && failed == len(a.Finders) {
		return fmt.Errorf("search the Drive of every account: %w", first)
	}
	return nil
}

var _ Finder = Accounts{}
