package app

import (
	"context"
	"fmt"

	"github.com/gds-cli/gds/internal/store"
)

// withStore opens the index, calls fn and closes it.
func (d *Deps) withStore(ctx context.Context, fn func(store.Store) error) (err error) {
	s, err := d.OpenStore(ctx)
	if err != nil {
		return err
	}
	defer func() {
		if cerr := s.Close(); cerr != nil && err == nil {
			err = fmt.Errorf("close the index: %w", cerr)
		}
	}()
	return fn(s)
}

// IndexStatus opens (and so migrates) the index and returns its
// statistics: back end, schema, counts, embedding model, last sync. The
// embedded index is also checked for damage (integrityChecker, within
// IntegrityLimit): damage is a store.ErrDamaged error, returned with the
// statistics.
func (d *Deps) IndexStatus(ctx context.Context) (store.Stats, error) {
	var st store.Stats
	err := d.withStore(ctx, func(s store.Store) (err error) {
		if st, err = s.Stats(ctx); err != nil {
			return fmt.Errorf("read the index status: %w", err)
		}
		if c, ok := s.(integrityChecker); ok {
			cctx, cancel := context.WithTimeout(ctx, IntegrityLimit)
			defer cancel()
			if _, err := c.CheckIntegrity(cctx); err != nil && ctx.Err() == nil {
				return err
			}
		}
		return nil
	})
	return st, err
}

// integrityChecker is a store with a bounded consistency check (the
// SQLite store's quick_check): complete is false when ctx's deadline
// stopped it first; damage is a store.ErrDamaged error.
type integrityChecker interface {
	CheckIntegrity(ctx context.Context) (complete bool, err error)
}

// Migrate applies pending schema migrations and returns the statistics.
func (d *Deps) Migrate(ctx context.Context) (store.Stats, error) {
	var st store.Stats
	err := d.withStore(ctx, func(s store.Store) (err error) {
		if err := s.Migrate(ctx); err != nil {
			return fmt.Errorf("migrate the index: %w", err)
		}
		if st, err = s.Stats(ctx); err != nil {
			return fmt.Errorf("read the index status: %w", err)
		}
		return nil
	})
	return st, err
}
