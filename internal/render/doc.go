// Package render turns results into output. Each output mode has one place:
//
//   - text.go: search results as text for terminals and logs, with OSC 8
//     links when the terminal supports them (iostreams.HyperlinksSupported);
//   - interactive.go: the interactive terminal — pterm spinners for the
//     loop's steps, the numbered question prompt, line wrapping by display
//     width (package render/textwidth);
//   - json.go: the `--json` documents (SearchDoc, WriteJSON);
//   - package render/alfred: Alfred Script Filter items for `gds alfred
//     filter`, and the query markers that carry a search's state between
//     keystrokes — a package of its own, importing no terminal library, so
//     that the launcher (the `gds` front binary) renders the keystroke path
//     with the same code without linking the rest of render;
//   - crawl.go: crawl progress (a bar on a terminal, counts or plain lines
//     otherwise) and the crawl summary.
//
// Progress and notices go to stderr; stdout stays clean for results.
//
// Also here: the prompt loop REPL/RunREPL shared by gds search, gds ask and
// gds federate (Ctrl-C cancels the line, twice exits; SIGTERM is an
// interruption) and the search prompt's result commands (ParseREPLLine,
// pure: a number or "o N" opens result N, "c N" copies its link; ResultLinks
// acts through an injected Opener); the init wizard's prompter
// (InitPrompter: pterm on a terminal, numbered menus over lines otherwise);
// config, auth, schedule and eval texts; FailJSON, a --json run's error
// document. render/scriptfilter holds the Script Filter types, the query
// grammar, the message item and the prompt, which the front binary links
// without the search; render/rendertest the fixtures and golden-file check
// both renderers' tests share.
package render
