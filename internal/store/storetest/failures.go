package storetest

import (
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
)

// testFailures checks the crawl failures: recorded per source with their
// reason, counted on a repeat, cleared by ID within their source only,
// never searchable, and removed by Reset.
func testFailures(t *testing.T, newStore func(t *testing.T) store.Store) {
	ctx, s := open(t, newStore)
	if got, err := s.SourceFailures(ctx, "drive"); err != nil || len(got) != 0 {
		t.Fatalf("empty index: %v, %v", got, err)
	}
	at := time.Date(2026, 11, 27, 9, 30, 0, 0, jst)
	fail := func(source, id, name string) store.Failure {
		return store.Failure{Source: source, FileID: id, Name: name, Path: "Reports/2026", MimeType: "application/pdf",
			ModifiedAt: t0, Kind: "unavailable", Message: "download " + name + ": gave up after 3 tries", FailedAt: at, Attempts: 7}
	}
	if err := s.RecordFailures(ctx, []store.Failure{fail("drive", "f-b", "budget zebra.pdf"), fail("drive", "f-a", "annual zebra.pdf"), fail("local:/x", "f-a", "annual zebra.pdf")}); err != nil {
		t.Fatal(err)
	}
	got, err := s.SourceFailures(ctx, "drive")
	if err != nil || len(got) != 2 || got[0].FileID != "f-a" || got[1].FileID != "f-b" {
		t.Fatalf("drive failures %+v, %v; want f-a, f-b", got, err)
	}
	g := got[0]
	want := fail("drive", "f-a", "annual zebra.pdf")
	if g.Source != "drive" || g.Name != want.Name || g.Path != want.Path || g.MimeType != want.MimeType || g.Kind != want.Kind ||
		g.Message != want.Message || g.Attempts != 1 {
		t.Errorf("recorded %+v, want %+v with 1 attempt", g, want)
	}
	sameInstantUTC(t, "modified", g.ModifiedAt, t0)
	sameInstantUTC(t, "failed at", g.FailedAt, at)

	// A second failure of the same file replaces its reason, one attempt more.
	again := fail("drive", "f-a", "annual zebra.pdf")
	again.Kind, again.Message = "rate_limited", "quota"
	if err := s.RecordFailures(ctx, []store.Failure{again}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.SourceFailures(ctx, "drive"); len(got) != 2 || got[0].Kind != "rate_limited" || got[0].Message != "quota" || got[0].Attempts != 2 {
		t.Errorf("after a repeat: %+v, want rate_limited, quota, 2 attempts", got)
	}

	// Not a searchable file.
	upsert(t, ctx, s, file("f-c", "zebra notes.txt", "zebra"))
	wantKeyword(t, ctx, s, all("zebra"), "f-c")
	if ids, err := s.SourceIDs(ctx, "drive"); err != nil || len(ids) != 0 {
		t.Errorf("SourceIDs lists failures: %v, %v", ids, err)
	}

	// Cleared by ID within the source only; unknown IDs ignored.
	if err := s.ClearFailures(ctx, "drive", []string{"f-a", "nope"}); err != nil {
		t.Fatal(err)
	}
	if got, _ := s.SourceFailures(ctx, "drive"); len(got) != 1 || got[0].FileID != "f-b" {
		t.Errorf("after clearing f-a: %+v, want f-b", got)
	}
	if got, _ := s.SourceFailures(ctx, "local:/x"); len(got) != 1 || got[0].FileID != "f-a" {
		t.Errorf("another source's failure was cleared: %+v", got)
	}

	if err := s.Reset(ctx); err != nil {
		t.Fatal(err)
	}
	for _, src := range []string{"drive", "local:/x"} {
		if got, err := s.SourceFailures(ctx, src); err != nil || len(got) != 0 {
			t.Errorf("%s after Reset: %+v, %v", src, got, err)
		}
	}
}
