package cliflag

import (
	"errors"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

func TestCheckValue(t *testing.T) {
	limit := IntRange(&cli.IntFlag{Name: "limit"}, 1, 100)
	level := IntRange(&cli.IntFlag{Name: "level"}, 0, NoMax)
	thr := FloatRange(&cli.FloatFlag{Name: "threshold"}, 0, 1)
	timeout := Positive(&cli.DurationFlag{Name: "timeout"})
	wait := &cli.DurationFlag{Name: "wait"} // no range: any duration
	cases := []struct {
		f   cli.Flag
		val string
		en  string // "" = accepted
		ja  string
	}{
		{limit, "5", "", ""},
		{limit, "1", "", ""},
		{limit, "100", "", ""},
		{limit, "0x10", "", ""},
		{limit, "0", "--limit must be between 1 and 100, got 0", "--limit は 1 から 100 までにしてください（0 が渡されました）"},
		{limit, "101", "--limit must be between 1 and 100, got 101", ""},
		{limit, "abc", `--limit takes a whole number, got "abc"`, `--limit には整数を指定してください（"abc" が渡されました）`},
		{limit, "99999999999999999999", `--limit takes a whole number, got "99999999999999999999"`, ""},
		{level, "-1", "--level must be 0 or more, got -1", ""},
		{level, "123456", "", ""},
		{thr, "0.5", "", ""},
		{thr, "1.5", "--threshold must be between 0 and 1, got 1.5", "--threshold は 0 から 1 までにしてください（1.5 が渡されました）"},
		{thr, "NaN", "--threshold must be between 0 and 1, got NaN", ""},
		{thr, "high", `--threshold takes a number, got "high"`, ""},
		{&cli.StringFlag{Name: "name"}, "anything", "", ""},
		{timeout, "5s", "", ""},
		{timeout, "1500ms", "", ""},
		{timeout, "banana", `--timeout takes a duration such as 5s, 1500ms or 2m, got "banana"`, `--timeout には 5s、1500ms、2m のような時間を指定してください（"banana" が渡されました）`},
		{timeout, "5", `--timeout takes a duration such as 5s, 1500ms or 2m, got "5"`, ""},
		{timeout, "-5s", "--timeout must be positive, got -5s", "--timeout には正の値を指定してください（指定値: -5s）"},
		{timeout, "0s", "--timeout must be positive, got 0s", ""},
		{wait, "-1s", "", ""},
		{wait, "soon", `--wait takes a duration such as 5s, 1500ms or 2m, got "soon"`, ""},
	}
	for _, c := range cases {
		err := CheckValue(c.f, c.val)
		if c.en == "" {
			if err != nil {
				t.Errorf("%s=%s: %v", c.f.Names()[0], c.val, err)
			}
			continue
		}
		if !errors.Is(err, apperr.Usage) {
			t.Fatalf("%s=%s: %v is not a usage error", c.f.Names()[0], c.val, err)
		}
		if got := apperr.Message(err, i18n.En); got != c.en {
			t.Errorf("%s=%s: %q, want %q", c.f.Names()[0], c.val, got, c.en)
		}
		if c.ja != "" {
			if got := apperr.Message(err, i18n.Ja); got != c.ja {
				t.Errorf("%s=%s ja: %q, want %q", c.f.Names()[0], c.val, got, c.ja)
			}
		}
	}
}

func TestWantsJSON(t *testing.T) {
	cases := []struct {
		args []string
		want bool
	}{
		{[]string{"search", "--json", "q"}, true},
		{[]string{"search", "q", "--json=true"}, true},
		{[]string{"search", "q"}, false},
		{[]string{"search", "--", "--json"}, false},
		{[]string{"search", "--jsonx"}, false},
	}
	for _, c := range cases {
		if got := WantsJSON(c.args); got != c.want {
			t.Errorf("%v: %v", c.args, got)
		}
	}
}

func TestUncheckedAndUnknownFlag(t *testing.T) {
	root := &cli.Command{Name: "gds", Commands: []*cli.Command{{
		Name: "search",
		Flags: []cli.Flag{IntRange(&cli.IntFlag{Name: "limit"}, 1, 9), &cli.IntFlag{Name: "depth"},
			Positive(&cli.DurationFlag{Name: "timeout"}), &cli.DurationFlag{Name: "wait"}},
	}}}
	if u := Unchecked(root); len(u) != 1 || !strings.HasSuffix(u[0], "--depth") {
		t.Errorf("Unchecked = %v", u)
	}
	err := CheckArgv(root.Commands[0], []string{"--limt", "3"})
	var h HintedError
	if !errors.As(err, &h) || h.Hint(i18n.En) != "did you mean --limit?" {
		t.Errorf("--limt: %v", err)
	}
	if err := CheckArgv(root.Commands[0], []string{"--", "--limt"}); err != nil {
		t.Errorf("after --: %v", err)
	}
}
