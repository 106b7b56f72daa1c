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
// statistics: back end, schema, counts, embedding model, last sync.
func (d *Deps) IndexStatus(ctx context.Context) (store.Stats, error) {
	var st store.Stats
	err := d.withStore(ctx, func(s store.Store) (err error) {
		if st, err = s.Stats(ctx); err != nil {
			return fmt.Errorf("read the index status: %w", err)
		}
		return nil
	})
	return st, err
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
