// Package textwidth measures text in terminal columns: East Asian wide and
// fullwidth characters count two, combining marks none, and ambiguous-width
// characters one whatever the locale, so a layout does not depend on the
// environment. It is small on purpose: packages that align a table (doctor,
// the eval report) use it without linking the terminal renderer.
package textwidth

import "github.com/mattn/go-runewidth"

// cond ignores the locale's ambiguous-width rule (runewidth would read
// LC_ALL/LANG and count "…" or "○" as two columns in a CJK locale).
var cond = func() *runewidth.Condition {
	c := runewidth.NewCondition()
	c.EastAsianWidth = false
	return c
}()

// String returns the display width of s in columns.
func String(s string) int { return cond.StringWidth(s) }

// Rune returns the display width of r in columns.
func Rune(r rune) int { return cond.RuneWidth(r) }

// PadRight pads s with spaces to width columns (s as is when wider).
func PadRight(s string, width int) string { return cond.FillRight(s, width) }
