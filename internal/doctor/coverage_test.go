package doctor

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/coverage"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
)

func TestCoverageCheck(t *testing.T) {
	cfg := loadConfig(t, nil)
	gone := coverage.Result{Listed: 2, Indexed: 3, Complete: 2, Groups: []coverage.Group{{Reason: coverage.Gone, Count: 1, Examples: []coverage.Example{{Name: "old.txt", Path: "A"}}}}}
	zip := coverage.Result{Listed: 5, Indexed: 5, Complete: 1, Groups: []coverage.Group{{Reason: coverage.SkippedType, Count: 4, Examples: []coverage.Example{{Name: "a.zip"}, {Name: "b.zip"}, {Name: "c.zip"}}}}}
	tests := []struct {
		name     string
		stats    IndexStats
		srcs     []coverage.Source
		err      error
		want     []Level
		contains []string
	}{
		{name: "no index yet", stats: func(context.Context) (store.Stats, error) { return store.Stats{}, ErrNoIndex }, want: []Level{Skip}},
		{name: "complete", srcs: []coverage.Source{{Source: "drive", Result: coverage.Result{Listed: 3, Indexed: 3, Complete: 3}}}, want: []Level{OK}, contains: []string{"all 3 listed files"}},
		{name: "gone is a warning with its fix", srcs: []coverage.Source{{Source: "drive@work", Result: gone, Fix: "gds crawl --source drive@work"}}, want: []Level{Warn}, contains: []string{"drive@work: 2 of 2", "1 gone from the source (A/old.txt)"}},
		{name: "skipped types need no crawl", srcs: []coverage.Source{{Source: "local:/d", Result: zip}}, want: []Level{OK}, contains: []string{"4 of a type gds does not read (a.zip, b.zip, c.zip, +1)"}},
		{name: "offline and failed sources", srcs: []coverage.Source{{Source: "drive", Skipped: true}, {Source: "drive@work", Error: "sign in again"}}, want: []Level{Skip, Warn}, contains: []string{"--offline", "sign in again"}},
		{name: "index unreadable", err: errors.New("locked"), want: []Level{Warn}, contains: []string{"locked"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			st := tt.stats
			if st == nil {
				st = stats(3, now)
			}
			r := Run(context.Background(), Inputs{Lang: i18n.En, Now: now, Config: cfg, Stats: st, Offline: true,
				Coverage: func(context.Context) ([]coverage.Source, error) { return tt.srcs, tt.err }})
			var got []Level
			var details []string
			for _, c := range r.Checks {
				if c.ID == "coverage" {
					got = append(got, c.Level)
					details = append(details, c.Detail)
					if c.Level == Warn && c.Coverage != nil && c.Coverage.Fix != c.Fix {
						t.Errorf("fix %q, want the source's %q", c.Fix, c.Coverage.Fix)
					}
				}
			}
			if strings.Join(levels(got), ",") != strings.Join(levels(tt.want), ",") {
				t.Errorf("levels %v, want %v (%q)", got, tt.want, details)
			}
			for _, s := range tt.contains {
				if !strings.Contains(strings.Join(details, "\n"), s) {
					t.Errorf("details %q lack %q", details, s)
				}
			}
		})
	}
}

func levels(ls []Level) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = string(l)
	}
	return out
}
