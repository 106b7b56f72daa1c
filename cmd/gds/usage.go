package main

import (
	"context"
	"strconv"
	"strings"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/suggest"
)

// hintedError is a usage error with its own hint (a suggestion), in the
// reader's language.
type hintedError struct {
	err     error
	hintKey i18n.Key
	hintArg []any
}

func (e hintedError) Error() string        { return e.err.Error() }
func (e hintedError) Unwrap() error        { return e.err }
func (e hintedError) Is(target error) bool { return target == apperr.Usage }
func (e hintedError) Hint(lang string) string {
	return i18n.T(lang, e.hintKey, e.hintArg...)
}

// unknownCommandError reports name as no command of cmd, suggesting the
// closest command when one is near enough.
func unknownCommandError(cmd *cli.Command, name string) error {
	err := apperr.L(apperr.Usage, "err.unknown_command", name)
	var names []string
	for _, c := range cmd.Commands {
		if c.Hidden {
			continue
		}
		names = append(names, c.Names()...)
	}
	if s, ok := suggest.Closest(name, names); ok {
		return hintedError{err: err, hintKey: "cli.hint_did_you_mean", hintArg: []any{cmd.FullName() + " " + s}}
	}
	return usageError{err: err}
}

// installUsageChecks makes every command's usage errors explain themselves
// from the user's argv (args without the program name): an unknown flag
// gets the closest flag of that command, a bad number names the flag and
// the kind of value it takes (ranges are checked by the commands, so that
// --json still answers with a JSON error document). The
// parser's own error is kept only when argv shows none of these.
func installUsageChecks(root *cli.Command, args []string) {
	_ = root.Walk(func(c *cli.Command) error {
		c.OnUsageError = func(_ context.Context, cmd *cli.Command, err error, _ bool) error {
			if e := checkArgv(cmd, args); e != nil {
				return e
			}
			return usageError{err: err}
		}
		return nil
	})
}

// commandFlags are the flags cmd accepts: its own, its mutually exclusive
// groups', and its ancestors' (help, version and persistent flags).
func commandFlags(cmd *cli.Command) (own []cli.Flag, all []cli.Flag) {
	for i, c := range cmd.Lineage() {
		fs := append([]cli.Flag(nil), c.Flags...)
		for _, g := range c.MutuallyExclusiveFlags {
			for _, grp := range g.Flags {
				fs = append(fs, grp...)
			}
		}
		if i == 0 {
			own = fs
		}
		all = append(all, fs...)
	}
	return own, all
}

func flagByName(fs []cli.Flag, name string) cli.Flag {
	for _, f := range fs {
		for _, n := range f.Names() {
			if n == name {
				return f
			}
		}
	}
	return nil
}

// checkArgv walks args as the parser does (flags of cmd and its
// ancestors; "--" ends the flags) and returns the first problem it can
// name, or nil.
func checkArgv(cmd *cli.Command, args []string) error {
	own, all := commandFlags(cmd)
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			return nil
		}
		if len(a) < 2 || a[0] != '-' {
			continue
		}
		if _, err := strconv.ParseFloat(a, 64); err == nil {
			continue // a negative number given as a value
		}
		name := strings.TrimLeft(a, "-")
		val, hasVal := "", false
		if k, v, ok := strings.Cut(name, "="); ok {
			name, val, hasVal = k, v, true
		}
		f := flagByName(all, name)
		if f == nil {
			if name == "help" || name == "h" || name == "version" {
				continue
			}
			var names []string
			for _, o := range own {
				names = append(names, o.Names()...)
			}
			err := apperr.L(apperr.Usage, "err.unknown_flag", dashed(name))
			if s, ok := suggest.Closest(name, names); ok {
				return hintedError{err: err, hintKey: "cli.hint_did_you_mean", hintArg: []any{dashed(s)}}
			}
			return usageError{err: err}
		}
		tv, ok := f.(interface{ TakesValue() bool })
		if !ok || !tv.TakesValue() {
			continue
		}
		if !hasVal {
			if i+1 >= len(args) {
				return nil
			}
			i++
			val = args[i]
		}
		if err := checkFlagValue(f, val); err != nil {
			return err
		}
	}
	return nil
}

func dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// checkFlagValue parses val as f's kind (integer or number flags).
func checkFlagValue(f cli.Flag, val string) error {
	name := dashed(f.Names()[0])
	bad := func(key i18n.Key) error {
		return usageError{err: apperr.L(apperr.Usage, key, name, val)}
	}
	switch f.(type) {
	case *cli.IntFlag:
		if _, err := strconv.ParseInt(val, 0, 64); err != nil {
			return bad("err.flag_int")
		}
	case *cli.FloatFlag:
		if _, err := strconv.ParseFloat(val, 64); err != nil {
			return bad("err.flag_number")
		}
	}
	return nil
}
