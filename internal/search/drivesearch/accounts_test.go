package drivesearch

import (
	"context"
	"errors"
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/drive"
)

type fakeFinder struct {
	ids []string
	err error
}

func (f fakeFinder) Search(_ context.Context, _ drive.Query, fn func(drive.File) error) error {
	for _, id := range f.ids {
		if err := fn(drive.File{ID: id}); err != nil {
			return err
		}
	}
	return f.err
}

func TestAccountsSearch(t *testing.T) {
	revoked := errors.New("revoked")
	stop := errors.New("enough")
	for _, c := range []struct {
		name    string
		finders []AccountFinder
		stopAt  int // fn returns stop at this many files (0: never)
		want    []string
		failed  []string
		wantErr error
	}{
		{name: "both", finders: []AccountFinder{{"", fakeFinder{ids: []string{"a", "b"}}}, {"work", fakeFinder{ids: []string{"c"}}}}, want: []string{"a", "b", "c"}},
		{name: "one fails alone", finders: []AccountFinder{{"", fakeFinder{ids: []string{"a"}}}, {"work", fakeFinder{ids: []string{"c"}, err: revoked}}, {"home", fakeFinder{ids: []string{"d"}}}},
			want: []string{"a", "c", "d"}, failed: []string{"work"}},
		{name: "all fail", finders: []AccountFinder{{"", fakeFinder{err: revoked}}, {"work", fakeFinder{err: errors.New("down")}}},
			failed: []string{"", "work"}, wantErr: revoked},
		{name: "stop ends every account", finders: []AccountFinder{{"", fakeFinder{ids: []string{"a", "b"}}}, {"work", fakeFinder{ids: []string{"c"}}}},
			stopAt: 2, want: []string{"a", "b"}, wantErr: stop},
	} {
		t.Run(c.name, func(t *testing.T) {
			var got, failed []string
			a := Accounts{Finders: c.finders, OnFail: func(account string, err error) { failed = append(failed, account) }}
			err := a.Search(context.Background(), drive.Query{}, func(f drive.File) error {
				got = append(got, f.ID)
				if c.stopAt > 0 && len(got) == c.stopAt {
					return stop
				}
				return nil
			})
			if !errors.Is(err, c.wantErr) || c.wantErr == nil && err != nil {
				t.Errorf("err = %v, want %v", err, c.wantErr)
			}
			if !slices.Equal(got, c.want) || !slices.Equal(failed, c.failed) {
				t.Errorf("files %v failed %v, want %v %v", got, failed, c.want, c.failed)
			}
		})
	}
}
