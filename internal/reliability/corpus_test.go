package reliability

import (
	"context"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/extract"
)

// docOf is a one-page document of text.
func docOf(text string) extract.Doc {
	return extract.Doc{Pages: []extract.Page{{Number: 1, Text: text}}}
}

// The expected IDs are the ones both sources report for the corpus files.
func TestCorpusExpectMatchesSources(t *testing.T) {
	ctx := context.Background()
	c, err := WriteCorpus(t.TempDir(), 80, 3)
	if err != nil {
		t.Fatal(err)
	}
	local, err := c.Expect(ctx, SourceLocal)
	if err != nil {
		t.Fatal(err)
	}
	src, err := crawl.NewLocalSource(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]time.Time{}
	if err := src.List(ctx, time.Time{}, func(e crawl.Entry) error { listed[e.ID] = e.ModifiedAt; return nil }); err != nil {
		t.Fatal(err)
	}
	skipped := 0
	for i, e := range local {
		if mt, ok := listed[e.ID]; !ok || !mt.Equal(e.ModTime) {
			t.Errorf("%s: listed %v at %v, want %v", e.Rel, ok, mt, e.ModTime)
		}
		if i > 0 && !local[i-1].ModTime.Before(e.ModTime) {
			t.Errorf("files not in strictly increasing time order at %d", i)
		}
		if !e.Indexable() {
			skipped++
		} else if len(e.Chunks) == 0 {
			t.Errorf("%s has no expected chunk", e.Rel)
		}
	}
	if skipped != 2 || len(listed) != 80 {
		t.Errorf("%d skipped files, %d listed; want 2 and 80", skipped, len(listed))
	}
	drive, err := c.Expect(ctx, SourceDrive)
	if err != nil {
		t.Fatal(err)
	}
	fx, err := driveemu.FromDir(c.Dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range drive {
		if fx.IDs[e.Rel] != e.ID {
			t.Errorf("%s: drive ID %s, emulator has %s", e.Rel, e.ID, fx.IDs[e.Rel])
		}
	}
	again, _ := WriteCorpus(t.TempDir(), 80, 3)
	againExp, _ := again.Expect(ctx, SourceDrive)
	for i := range drive {
		if drive[i].Hash != againExp[i].Hash {
			t.Fatal("the same seed wrote different content")
		}
	}
}
