package launcher

import (
	"strings"

	"github.com/gds-cli/gds/internal/render/alfred"
)

// Action is what the front binary does with a command line.
type Action int

// Actions of Route.
const (
	Core        Action = iota // hand over to the full CLI with the same arguments
	Version                   // gds version
	VersionJSON               // gds version --json
	Keystroke                 // gds alfred filter QUERY: a plain typed query
)

// Route decides what the front does with args (args[0] is the program
// name). It answers only the exact forms it renders exactly as the full CLI
// does; any flag, any other command, help and no command at all go to the
// full CLI. For Keystroke, query is the trimmed typed text ("" shows the
// prompt item). An Alfred query carrying the marker (a full search, a
// pending question, an answer) needs the search loop and is handed over.
func Route(args []string) (act Action, query string) {
	if len(args) < 2 {
		return Core, ""
	}
	rest := args[1:]
	switch {
	case len(rest) == 1 && rest[0] == "version":
		return Version, ""
	case len(rest) == 2 && rest[0] == "version" && rest[1] == "--json":
		return VersionJSON, ""
	case len(rest) >= 2 && rest[0] == "alfred" && rest[1] == "filter":
		for _, a := range rest[2:] {
			if strings.HasPrefix(a, "-") || a == "help" || a == "h" {
				return Core, "" // a flag (--state, --help) or a word the CLI parser may read as help
			}
		}
		req := alfred.ParseQuery(strings.Join(rest[2:], " "))
		if req.Kind != alfred.Typed {
			return Core, ""
		}
		return Keystroke, req.Query
	}
	return Core, ""
}
