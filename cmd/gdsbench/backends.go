package main

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/postgres"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// backendConfig is what a back end may need to open.
type backendConfig struct {
	url  string // Postgres URL
	path string // SQLite file
}

// backends maps a --backend name to its opener.
var backends = map[string]func(ctx context.Context, c backendConfig) (store.Store, error){
	"sqlite": func(ctx context.Context, c backendConfig) (store.Store, error) {
		if c.path == "" {
			return nil, errors.New("--path is required for the sqlite backend")
		}
		return sqlite.Open(ctx, c.path, sqlite.Options{})
	},
	"postgres": func(ctx context.Context, c backendConfig) (store.Store, error) {
		if c.url == "" {
			return nil, errors.New("--url (or DATABASE_URL) is required for the postgres backend")
		}
		return postgres.Open(ctx, c.url)
	},
}

func openBackend(ctx context.Context, name string, c backendConfig) (store.Store, error) {
	open, ok := backends[name]
	if !ok {
		names := make([]string, 0, len(backends))
		for n := range backends {
			names = append(names, n)
		}
		sort.Strings(names)
		return nil, fmt.Errorf("unknown --backend %q (one of %s)", name, strings.Join(names, ", "))
	}
	s, err := open(ctx, c)
	if err != nil {
		return nil, fmt.Errorf("open %s backend: %w", name, err)
	}
	return s, nil
}
