package keystroke

import (
	"errors"
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/launcher"
)

func TestAlfredSources(t *testing.T) {
	lookup := func(v string, set bool) func(string) (string, bool) {
		return func(k string) (string, bool) {
			switch k {
			case launcher.AlfredSourceVar:
				return v, set
			case "HOME":
				return "/home/u", true
			}
			return "", false
		}
	}
	for _, c := range []struct {
		v    string
		set  bool
		want []string
	}{
		{"", false, nil},
		{" ", true, nil},
		{"local:~/Docs, drive", true, []string{"local:/home/u/Docs", "drive"}},
		{"drive:F1,drive:F1", true, []string{"drive:F1"}},
	} {
		got, err := AlfredSources(lookup(c.v, c.set))
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("AlfredSources(%q) = %q, %v; want %q", c.v, got, err, c.want)
		}
	}
	_, err := AlfredSources(lookup("/data/docs", true))
	if apperr.KindOf(err) != apperr.Usage || !errors.As(err, new(*config.SourceError)) {
		t.Errorf("AlfredSources(/data/docs) = %v, want a usage error", err)
	}
}
