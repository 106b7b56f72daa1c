package sqlite

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/storetest"
)

func openTemp(t *testing.T, opts Options) *Store {
	t.Helper()
	s, err := Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), opts)
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func TestContract(t *testing.T) {
	storetest.Run(t, func(t *testing.T) store.Store { return openTemp(t, Options{}) })
}
