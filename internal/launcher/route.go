package launcher

import (
	"strings"

	"github.com/gds-cli/gds/internal/render/scriptfilter"
)

// Action is what the front binary does with a command line.
type Action int

// Actions of Route.
const (
	Core        Action = iota // hand over to the full CLI with the same arguments
	Version                   // gds version
	VersionJSON               // gds version --json
	Keystroke                 // gds alfred filter QUERY: a plain typed query
	// Served: a full search the keystroke server may run (the whole
	// command line, in its process): `gds search WORDS…` without flags, and
	// `gds alfred filter ⌕…` (run the loop, show or answer its question).
	// Without a server it goes to the full CLI.
	Served
)

// Typed is a typed Alfred query the front answers: `gds alfred filter
// [--folder F] QUERY`.
type Typed struct {
	Query string // the trimmed typed text ("" shows the prompt item)
	// Folder is --folder's value when FolderSet; otherwise the folder
	// comes from FolderEnv (Folder).
	Folder    string
	FolderSet bool
}

// FolderFrom is the folder the keystroke searches: --folder when given,
// else the environment's FolderEnv (the Alfred workflow variable), as the
// full CLI's flag reads it.
func (t Typed) FolderFrom(lookup func(string) (string, bool)) string {
	if t.FolderSet {
		return t.Folder
	}
	v, _ := lookup(FolderEnv)
	return v
}

// Route decides what the front does with args (args[0] is the program
// name). It answers only the exact forms it renders exactly as the full CLI
// does; any other flag, any other command, help and no command at all go
// to the full CLI. For Keystroke, typed holds the query and the --folder
// flag (first, as `--folder F` or `--folder=F`, at most once). An Alfred
// query carrying the marker (a full search, a pending question, an answer)
// and `gds search WORDS…` need the search loop: Served, the keystroke
// server's to run if one runs for the same environment (ServedEnvKey).
func Route(args []string) (act Action, typed Typed) {
	if len(args) < 2 {
		return Core, Typed{}
	}
	rest := args[1:]
	switch {
	case len(rest) >= 2 && rest[0] == "search" && plainWords(rest[1:]):
		return Served, Typed{}
	case len(rest) == 1 && rest[0] == "version":
		return Version, Typed{}
	case len(rest) == 2 && rest[0] == "version" && rest[1] == "--json":
		return VersionJSON, Typed{}
	case len(rest) >= 2 && rest[0] == "alfred" && rest[1] == "filter":
		words := rest[2:]
		var t Typed
		if len(words) > 0 {
			if v, ok := strings.CutPrefix(words[0], "--folder="); ok {
				t.Folder, t.FolderSet, words = v, true, words[1:]
			} else if words[0] == "--folder" && len(words) >= 2 {
				t.Folder, t.FolderSet, words = words[1], true, words[2:]
			}
		}
		for _, a := range words {
			if strings.HasPrefix(a, "-") || a == "help" || a == "h" {
				return Core, Typed{} // a flag (--state, --help) or a word the CLI parser may read as help
			}
		}
		req := scriptfilter.ParseQuery(strings.Join(words, " "))
		switch {
		case req.Kind == scriptfilter.Run || req.Kind == scriptfilter.Pending || req.Kind == scriptfilter.Answer:
			return Served, Typed{}
		case req.Kind != scriptfilter.Typed:
			return Core, Typed{}
		}
		t.Query = req.Query
		return Keystroke, t
	}
	return Core, Typed{}
}

// plainWords reports whether words are a query alone: no flag, no word the
// CLI parser may read as help, not blank.
func plainWords(words []string) bool {
	text := ""
	for _, w := range words {
		if strings.HasPrefix(w, "-") || w == "help" || w == "h" {
			return false
		}
		text += w
	}
	return strings.TrimSpace(text) != ""
}
