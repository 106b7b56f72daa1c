package keystroke

import (
	"context"
	"errors"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/launcher"
)

func TestAlfredEmptyQueryOpensNoIndex(t *testing.T) {
	out, err := Alfred(context.Background(), func(context.Context) (Index, error) {
		t.Fatal("opened the index for an empty query")
		return nil, nil
	}, Request{Lang: i18n.En, Limit: AlfredLimit})
	if err != nil || len(out.Items) != 1 || out.Items[0].Title != i18n.T(i18n.En, "alfred.empty.title") {
		t.Errorf("Alfred(\"\") = %+v, %v", out, err)
	}
}

func TestAlfredMissingIndexIsNoIndex(t *testing.T) {
	cfg := &config.Config{DataDir: t.TempDir()}
	_, err := Alfred(context.Background(), func(ctx context.Context) (Index, error) { return OpenIndex(ctx, cfg) },
		Request{Query: "budget", Lang: i18n.En, Limit: AlfredLimit})
	if !errors.Is(err, apperr.NoIndex) {
		t.Fatalf("err = %v, want NoIndex", err)
	}
	if out := launcher.AlfredError(err, i18n.Ja); out.Items[0].Title != i18n.T(i18n.Ja, "alfred.err.no_index.title") {
		t.Errorf("error item = %+v", out.Items[0])
	}
}
