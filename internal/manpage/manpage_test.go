package manpage

import (
	"bytes"
	"context"
	"os/exec"
	"strings"
	"testing"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/i18n"
)

func tree() *cli.Command {
	return &cli.Command{
		Name: "gds", Usage: "find files", Version: "1.2.3",
		Description: "gds finds files.\n\nExamples:\n  gds search \"先月の議事録\"\n  .hidden-looking line",
		Flags:       []cli.Flag{&cli.BoolFlag{Name: "verbose", Usage: "say more"}},
		Commands: []*cli.Command{
			{Name: "search", Usage: "search the index", ArgsUsage: "[QUERY]",
				Flags: []cli.Flag{
					&cli.IntFlag{Name: "limit", Aliases: []string{"n"}, Value: 10, Usage: "results to show"},
					&cli.StringFlag{Name: "folder", Usage: "only this folder", Sources: cli.EnvVars("GDS_FOLDER")},
					&cli.StringFlag{Name: "secret", Hidden: true},
				}},
			{Name: "db", Usage: "manage the index", Commands: []*cli.Command{{Name: "rebuild", Usage: "rebuild it"}}},
			{Name: "keyserver", Usage: "internal", Hidden: true},
		},
	}
}

func TestWrite(t *testing.T) {
	var b bytes.Buffer
	if err := Write(&b, tree()); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		".TH GDS 1 \"\" \"gds 1.2.3\"",
		"gds \\- find files\n",
		".SS \"gds search [QUERY]\"\nSearch the index.\n",
		"\\fB\\-\\-limit\\fR, \\fB\\-n\\fR \\fIINT\\fR\nResults to show. (default: 10)",
		"\\fB\\-\\-folder\\fR \\fISTRING\\fR\nOnly this folder. [$GDS_FOLDER]",
		".SS \"gds db rebuild\"",
		".SH GLOBAL OPTIONS\n.TP\n\\fB\\-\\-verbose\\fR\nSay more.",
		".nf\nExamples:\n  gds search \"\\[u5148]\\[u6708]\\[u306E]\\[u8B70]\\[u4E8B]\\[u9332]\"\n",
		".TP\n.B 2\nusage\n",
		".TP\n.B 130\ninterrupted\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the man page lacks %q:\n%s", want, out)
		}
	}
	for _, not := range []string{"keyserver", "secret", "\\fB\\-\\-help"} {
		if strings.Contains(out, not) {
			t.Errorf("the man page shows %q", not)
		}
	}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, ".") && !strings.HasPrefix(line, ".TH") && !strings.HasPrefix(line, ".S") && !strings.HasPrefix(line, ".TP") &&
			!strings.HasPrefix(line, ".PP") && !strings.HasPrefix(line, ".B") && !strings.HasPrefix(line, ".RI") && !strings.HasPrefix(line, ".nf") && !strings.HasPrefix(line, ".fi") {
			t.Errorf("a text line reads as a roff request: %q", line)
		}
	}
	if groff, err := exec.LookPath("groff"); err == nil {
		cmd := exec.Command(groff, "-man", "-Tutf8", "-ww", "-z")
		cmd.Stdin = strings.NewReader(out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil || stderr.Len() > 0 {
			t.Errorf("groff -man -ww: %v\n%s", err, stderr.String())
		}
	}
}

func TestEsc(t *testing.T) {
	for in, want := range map[string]string{
		`a\b`:      `a\eb`,
		"--json":   `\-\-json`,
		".dot":     `\&.dot`,
		"'quote":   `\&'quote`,
		"1–5 語":    `1\[u2013]5 \[u8A9E]`,
		"plain ok": "plain ok",
	} {
		if got := esc(in); got != want {
			t.Errorf("esc(%q) = %q, want %q", in, got, want)
		}
	}
}

// The completion command is listed and described in the user's language.
func TestCompletion(t *testing.T) {
	for _, lang := range []string{i18n.En, i18n.Ja} {
		var out bytes.Buffer
		root := tree()
		root.Writer = &out
		root.EnableShellCompletion = true
		root.ConfigureShellCompletionCommand = Completion(lang)
		if err := root.Run(context.Background(), []string{"gds", "completion", "zsh"}); err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(out.String(), "#compdef gds") {
			t.Errorf("gds completion zsh: %q", out.String())
		}
		var c *cli.Command
		for _, sub := range root.Commands {
			if sub.Name == "completion" {
				c = sub
			}
		}
		if c == nil || c.Hidden || c.Usage != i18n.T(lang, "cmd.completion.usage") {
			t.Errorf("%s: completion command %+v, want visible with its usage", lang, c)
		}
	}
}
