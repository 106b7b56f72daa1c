// Package manpage documents the gds command tree for the shell: the man
// page gds.1, written from the urfave/cli commands themselves (their
// usage, descriptions, arguments and flags, and the exit codes of
// internal/apperr), so it never lists a command or flag gds does not
// have; and the `gds completion bash|zsh|fish|pwsh` command urfave/cli
// provides, made visible and described in the user's language. The
// release runs the hidden `gds man` to write gds.1; the Homebrew cask
// installs it with the completion scripts.
package manpage

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
)

// Completion configures urfave/cli's completion command (see
// cli.Command.ConfigureShellCompletionCommand): listed in the help, with
// its usage and description in lang.
func Completion(lang string) func(*cli.Command) {
	return func(c *cli.Command) {
		c.Hidden = false
		c.Usage = i18n.T(lang, "cmd.completion.usage")
		c.Description = i18n.T(lang, "cmd.completion.desc")
	}
}

// Command is the hidden `gds man`: the man page of the whole tree on w.
func Command(w io.Writer) *cli.Command {
	return &cli.Command{
		Name:   "man",
		Usage:  "print the man page gds.1 (roff), written from the command tree",
		Hidden: true,
		Action: func(_ context.Context, cmd *cli.Command) error {
			return Write(w, cmd.Root())
		},
	}
}

// Write writes the man page of root (section 1, roff man macros).
func Write(w io.Writer, root *cli.Command) error {
	var b strings.Builder
	name := root.Name
	fmt.Fprintf(&b, ".TH %s 1 \"\" %s \"User Commands\"\n", strings.ToUpper(name), quoted(name+" "+root.Version))
	fmt.Fprintf(&b, ".SH NAME\n%s \\- %s\n", esc(name), esc(root.Usage))
	fmt.Fprintf(&b, ".SH SYNOPSIS\n.B %s\n.RI [ command ] \" [\" options \"] [\" arguments ]\n", esc(name))
	if root.Description != "" {
		b.WriteString(".SH DESCRIPTION\n")
		paragraphs(&b, root.Description)
	}
	b.WriteString(".SH COMMANDS\n")
	for _, c := range visible(root.Commands) {
		command(&b, name, c)
	}
	if fs := flags(root); len(fs) > 0 {
		b.WriteString(".SH GLOBAL OPTIONS\n")
		for _, f := range fs {
			flag(&b, f)
		}
	}
	b.WriteString(".SH EXIT STATUS\n")
	for _, c := range exitCodes() {
		fmt.Fprintf(&b, ".TP\n.B %d\n%s\n", c.code, esc(strings.Join(c.kinds, ", ")))
	}
	fmt.Fprintf(&b, ".SH SEE ALSO\n%s help COMMAND, %s COMMAND \\-\\-help; https://github.com/gds\\-cli/gds\n", esc(name), esc(name))
	_, err := io.WriteString(w, b.String())
	return err
}

// command documents c (a subsection) and its subcommands, below it.
func command(b *strings.Builder, parent string, c *cli.Command) {
	full := parent + " " + c.Name
	fmt.Fprintf(b, ".SS %s\n", quoted(strings.TrimSpace(full+" "+c.ArgsUsage)))
	if c.Usage != "" {
		fmt.Fprintf(b, "%s\n", esc(sentence(c.Usage)))
	}
	if c.Description != "" {
		b.WriteString(".PP\n")
		paragraphs(b, c.Description)
	}
	for _, f := range flags(c) {
		flag(b, f)
	}
	for _, sub := range visible(c.Commands) {
		command(b, full, sub)
	}
}

// visible are the commands a user is told about (not hidden, not help).
func visible(cs []*cli.Command) []*cli.Command {
	var out []*cli.Command
	for _, c := range cs {
		if !c.Hidden && c.Name != "help" {
			out = append(out, c)
		}
	}
	return out
}

// flags are c's documented flags (not hidden, not --help).
func flags(c *cli.Command) []cli.DocGenerationFlag {
	var out []cli.DocGenerationFlag
	for _, f := range c.Flags {
		if v, ok := f.(cli.VisibleFlag); ok && !v.IsVisible() {
			continue
		}
		d, ok := f.(cli.DocGenerationFlag)
		if !ok || slices.Contains(f.Names(), "help") {
			continue
		}
		out = append(out, d)
	}
	return out
}

// flag is one .TP entry: the names (and value), then the usage, the
// default and the environment variables.
func flag(b *strings.Builder, f cli.DocGenerationFlag) {
	fl := f.(cli.Flag)
	var names []string
	for _, n := range fl.Names() {
		dash := "\\-\\-"
		if len([]rune(n)) == 1 {
			dash = "\\-"
		}
		names = append(names, "\\fB"+dash+esc(n)+"\\fR")
	}
	head := strings.Join(names, ", ")
	if f.TakesValue() {
		head += " \\fI" + esc(strings.ToUpper(typeName(f))) + "\\fR"
	}
	fmt.Fprintf(b, ".TP\n%s\n%s", head, esc(sentence(f.GetUsage())))
	if f.TakesValue() && f.IsDefaultVisible() {
		if def := f.GetDefaultText(); def != "" && def != `""` {
			fmt.Fprintf(b, " (default: %s)", esc(def))
		} else if v := f.GetValue(); v != "" && v != `""` && v != "0" && v != "false" {
			fmt.Fprintf(b, " (default: %s)", esc(v))
		}
	}
	if env := f.GetEnvVars(); len(env) > 0 {
		fmt.Fprintf(b, " [%s]", esc("$"+strings.Join(env, ", $")))
	}
	b.WriteString("\n")
}

func typeName(f cli.DocGenerationFlag) string {
	if t := f.TypeName(); t != "" {
		return strings.TrimPrefix(t, "[]")
	}
	return "value"
}

type exitCode struct {
	code  int
	kinds []string
}

// exitCodes are the exit codes of apperr's classes, each with the kinds
// that exit with it, by code.
func exitCodes() []exitCode {
	var out []exitCode
	add := func(code int, kind string) {
		for i := range out {
			if out[i].code == code {
				out[i].kinds = append(out[i].kinds, kind)
				return
			}
		}
		out = append(out, exitCode{code, []string{kind}})
	}
	add(apperr.ExitOK, "success")
	for _, c := range apperr.Classes() {
		add(c.Exit, c.Kind.Code())
	}
	slices.SortFunc(out, func(a, b exitCode) int { return a.code - b.code })
	return out
}

// paragraphs writes text's paragraphs (blank-line separated); indented
// lines (examples) are kept as they are, without filling.
func paragraphs(b *strings.Builder, text string) {
	for i, para := range strings.Split(strings.TrimSpace(text), "\n\n") {
		if i > 0 {
			b.WriteString(".PP\n")
		}
		lines := strings.Split(para, "\n")
		literal := false
		for _, l := range lines {
			if strings.HasPrefix(l, "  ") {
				literal = true
			}
		}
		if literal {
			b.WriteString(".nf\n")
		}
		for _, l := range lines {
			b.WriteString(esc(l) + "\n")
		}
		if literal {
			b.WriteString(".fi\n")
		}
	}
}

// sentence is s with its first letter upper case and a full stop.
func sentence(s string) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return s
	}
	r := []rune(s)
	r[0] = unicode.ToUpper(r[0])
	s = string(r)
	if !strings.HasSuffix(s, ".") && !strings.HasSuffix(s, ")") && !strings.HasSuffix(s, "。") {
		s += "."
	}
	return s
}

// esc escapes text for roff: backslashes, hyphens (so they stay
// hyphens), a control character (. or ') at the start of a line, and
// every non-ASCII character as \[uXXXX] (groff, mandoc and man-db read
// it without a preprocessor).
func esc(s string) string {
	var b strings.Builder
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		b.WriteString(`\&`)
	}
	for _, r := range s {
		switch {
		case r == '\\':
			b.WriteString(`\e`)
		case r == '-':
			b.WriteString(`\-`)
		case r > 0x7e:
			fmt.Fprintf(&b, `\[u%04X]`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// quoted is s as one quoted roff macro argument.
func quoted(s string) string { return `"` + strings.ReplaceAll(esc(s), `"`, `\(dq`) + `"` }
