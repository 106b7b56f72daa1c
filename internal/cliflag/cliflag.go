// Package cliflag makes the command line's usage errors explain
// themselves: a mistyped command or flag gets the closest name of that
// command ("did you mean …"), a value that is not a number names the flag
// and the kind it takes, and a number out of its flag's range names the
// range. It works on urfave/cli command trees and reads the user's argv,
// never the parser's error text.
package cliflag

import (
	"context"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/suggest"
)

// UsageError marks bad command-line usage (apperr.Usage).
type UsageError struct{ Err error }

func (e UsageError) Error() string        { return e.Err.Error() }
func (e UsageError) Unwrap() error        { return e.Err }
func (e UsageError) Is(target error) bool { return target == apperr.Usage }

// HintedError is a usage error with its own hint (a suggestion), in the
// reader's language.
type HintedError struct {
	Err     error
	HintKey i18n.Key
	HintArg []any
}

func (e HintedError) Error() string        { return e.Err.Error() }
func (e HintedError) Unwrap() error        { return e.Err }
func (e HintedError) Is(target error) bool { return target == apperr.Usage }

// Hint is the suggestion in lang (apperr.Hinter).
func (e HintedError) Hint(lang string) string {
	return i18n.T(lang, e.HintKey, e.HintArg...)
}

// UnknownCommand reports name as no command of cmd, suggesting the closest
// visible command when one is near enough.
func UnknownCommand(cmd *cli.Command, name string) error {
	err := apperr.L(apperr.Usage, "err.unknown_command", name)
	var names []string
	for _, c := range cmd.Commands {
		if c.Hidden {
			continue
		}
		names = append(names, c.Names()...)
	}
	if s, ok := suggest.Closest(name, names); ok {
		return HintedError{Err: err, HintKey: "cli.hint_did_you_mean", HintArg: []any{cmd.FullName() + " " + s}}
	}
	return UsageError{Err: err}
}

// Install makes every command's usage errors explain themselves from the
// user's argv (args without the program name): an unknown flag gets the
// closest flag of that command, a bad number names the flag and the kind
// of value it takes, a number out of range names the range (see IntRange).
// The parser's own error is kept only when argv shows none of these.
func Install(root *cli.Command, args []string) {
	_ = root.Walk(func(c *cli.Command) error {
		c.OnUsageError = func(_ context.Context, cmd *cli.Command, err error, _ bool) error {
			if e := CheckArgv(cmd, args); e != nil {
				return e
			}
			return UsageError{Err: err}
		}
		return nil
	})
}

// WantsJSON reports whether args (without the program name) ask for JSON
// output: a --json flag before any "--".
func WantsJSON(args []string) bool {
	for _, a := range args {
		switch a {
		case "--":
			return false
		case "--json", "-json", "--json=true":
			return true
		}
	}
	return false
}

// commandFlags are the flags cmd accepts: its own, its mutually exclusive
// groups', and its ancestors' (help, version and persistent flags).
func commandFlags(cmd *cli.Command) (own []cli.Flag, all []cli.Flag) {
	for i, c := range cmd.Lineage() {
		fs := Flags(c)
		if i == 0 {
			own = fs
		}
		all = append(all, fs...)
	}
	return own, all
}

// Flags are c's own flags, those of its mutually exclusive groups included.
func Flags(c *cli.Command) []cli.Flag {
	fs := append([]cli.Flag(nil), c.Flags...)
	for _, g := range c.MutuallyExclusiveFlags {
		for _, grp := range g.Flags {
			fs = append(fs, grp...)
		}
	}
	return fs
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

// CheckArgv walks args as the parser does (flags of cmd and its
// ancestors; "--" ends the flags) and returns the first problem it can
// name, or nil.
func CheckArgv(cmd *cli.Command, args []string) error {
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
			err := apperr.L(apperr.Usage, "err.unknown_flag", Dashed(name))
			if s, ok := suggest.Closest(name, names); ok {
				return HintedError{Err: err, HintKey: "cli.hint_did_you_mean", HintArg: []any{Dashed(s)}}
			}
			return UsageError{Err: err}
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
		if err := CheckValue(f, val); err != nil {
			return err
		}
	}
	return nil
}

// Dashed is a flag name as typed: -x for one letter, --name otherwise.
func Dashed(name string) string {
	if len([]rune(name)) == 1 {
		return "-" + name
	}
	return "--" + name
}

// CheckValue parses val as f's kind (integer, number or duration flags) and checks
// it against the flag's range (its Validator, set by IntRange/FloatRange).
func CheckValue(f cli.Flag, val string) error {
	name := Dashed(f.Names()[0])
	bad := func(key i18n.Key) error {
		return UsageError{Err: apperr.L(apperr.Usage, key, name, val)}
	}
	switch f := f.(type) {
	case *cli.IntFlag:
		n, err := strconv.ParseInt(val, 0, 64)
		if err != nil || n < math.MinInt || n > math.MaxInt {
			return bad("err.flag_int")
		}
		if f.Validator != nil {
			return f.Validator(int(n))
		}
	case *cli.FloatFlag:
		x, err := strconv.ParseFloat(val, 64)
		if err != nil {
			return bad("err.flag_number")
		}
		if f.Validator != nil {
			return f.Validator(x)
		}
	case *cli.DurationFlag:
		d, err := time.ParseDuration(val)
		if err != nil {
			return bad("err.flag_duration")
		}
		if f.Validator != nil {
			return f.Validator(d)
		}
	}
	return nil
}
