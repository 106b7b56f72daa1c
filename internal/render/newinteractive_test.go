package render

import (
	"bytes"
	"testing"

	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/iostreams"
)

// The terminal renderer follows the IOStreams main decided: colour,
// hyperlinks and the wrap width of stdout, spinners only on a terminal
// stderr — no environment variable or file descriptor involved.
func TestNewInteractiveFollowsTheStreams(t *testing.T) {
	for _, tc := range []struct {
		name               string
		io                 iostreams.IOStreams
		color, links, spin bool
		width              int
	}{
		{"a terminal", iostreams.IOStreams{StdoutTTY: true, StderrTTY: true, Color: true, Hyperlinks: true, Width: 100}, true, true, true, 100},
		{"no colour asked", iostreams.IOStreams{StdoutTTY: true, StderrTTY: true, Width: 100}, false, false, true, 100},
		{"stderr redirected", iostreams.IOStreams{StdoutTTY: true, Color: true, Width: 60}, true, false, false, 60},
		{"a pipe", iostreams.IOStreams{StderrTTY: true, Width: 80}, false, false, false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var out, errOut bytes.Buffer
			s := tc.io
			s.Stdout, s.Stderr, s.Lang = &out, &errOut, i18n.Ja
			for _, verbose := range []bool{false, true} {
				r := NewInteractive(s, verbose)
				if r.Color != tc.color || r.Hyperlinks != tc.links || r.Width != tc.width || (r.StartSpinner != nil) != tc.spin {
					t.Errorf("colour %v, links %v, width %d, spinner %v; want %v, %v, %d, %v",
						r.Color, r.Hyperlinks, r.Width, r.StartSpinner != nil, tc.color, tc.links, tc.width, tc.spin)
				}
				if r.Out != &out || r.Err != &errOut || r.Lang != i18n.Ja || r.Verbose != verbose {
					t.Errorf("renderer writes to %v and %v in %q (verbose %v), want the given stdout and stderr in ja (verbose %v)",
						r.Out, r.Err, r.Lang, r.Verbose, verbose)
				}
			}
		})
	}
}
