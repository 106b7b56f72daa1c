package cliflag

import (
	"math"
	"time"

	"github.com/urfave/cli/v3"

	"github.com/gds-cli/gds/internal/apperr"
)

// NoMax is the upper bound of a range without one.
const NoMax = math.MaxInt

// IntRange gives f the range [lo, hi] (hi NoMax: no upper bound): a value
// given outside it is a usage error that names the flag and the range, in
// the user's language. The default value is not checked (0 often means
// "not set" and picks the configured value).
func IntRange(f *cli.IntFlag, lo, hi int) *cli.IntFlag {
	f.Validator = func(n int) error {
		if n >= lo && n <= hi {
			return nil
		}
		return UsageError{Err: rangeError(Dashed(f.Name), lo, hi, n)}
	}
	return f
}

// FloatRange gives f the range [lo, hi], as IntRange does.
func FloatRange(f *cli.FloatFlag, lo, hi float64) *cli.FloatFlag {
	f.Validator = func(x float64) error {
		if x >= lo && x <= hi { // NaN fails both
			return nil
		}
		return UsageError{Err: apperr.L(apperr.Usage, "err.flag_range_number", Dashed(f.Name), lo, hi, x)}
	}
	return f
}

// Positive makes f refuse a duration of zero or less (a usage error naming
// the flag), as IntRange does for numbers. The default is not checked.
func Positive(f *cli.DurationFlag) *cli.DurationFlag {
	f.Validator = func(d time.Duration) error {
		if d > 0 {
			return nil
		}
		return UsageError{Err: apperr.L(apperr.Usage, "err.flag_positive", Dashed(f.Name), d.String())}
	}
	return f
}

// Timeout is a positive duration flag whose help shows def, a default
// applied elsewhere (the flag's own value stays 0 when it is not given, so
// a setting from the environment still applies).
func Timeout(name, usage string, def time.Duration) *cli.DurationFlag {
	return Positive(&cli.DurationFlag{Name: name, Usage: usage, DefaultText: def.String()})
}

// rangeError is the message for n outside [lo, hi].
func rangeError(name string, lo, hi, n int) error {
	if hi == NoMax {
		return apperr.L(apperr.Usage, "err.flag_min", name, lo, n)
	}
	return apperr.L(apperr.Usage, "err.flag_range", name, lo, hi, n)
}

// Unchecked lists the integer and number flags of the command tree under
// root that have no range, as "command path --flag" (a test keeps it empty,
// so a new number flag declares its range).
func Unchecked(root *cli.Command) []string {
	var out []string
	_ = root.Walk(func(c *cli.Command) error {
		for _, f := range Flags(c) {
			switch f := f.(type) {
			case *cli.IntFlag:
				if f.Validator == nil {
					out = append(out, c.FullName()+" "+Dashed(f.Name))
				}
			case *cli.FloatFlag:
				if f.Validator == nil {
					out = append(out, c.FullName()+" "+Dashed(f.Name))
				}

			}
		}
		return nil
	})
	return out
}
