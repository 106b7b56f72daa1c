package rules

import (
	"regexp"
	"sync"
)

// The package's patterns and word tables are built on first use, never at
// package initialisation: every gds process links this package (gds version,
// each Alfred keystroke), and compiling some 60 regexps and filling the word
// sets before main cost about 5 ms per process.

// LazyRegexp returns a function that compiles expr on its first call and
// returns the same *regexp.Regexp afterwards. An invalid expr panics on that
// first call, as regexp.MustCompile does; the package's tests call each one.
func LazyRegexp(expr string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(expr) })
}

// LazySet returns a function that builds the set of words on its first call.
func LazySet(words ...string) func() map[string]bool {
	return sync.OnceValue(func() map[string]bool { return setOf(words...) })
}
