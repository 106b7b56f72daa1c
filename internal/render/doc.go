// Package render turns results into output. Each output mode has one place:
//
//   - text.go: search results as text for terminals and logs, with OSC 8
//     links when the terminal supports them (HyperlinksSupported);
//   - interactive.go: the interactive terminal — pterm spinners for the
//     loop's steps, the numbered question prompt, line wrapping by display
//     width (package render/textwidth);
//   - json.go: the `--json` documents (SearchDoc, WriteJSON);
//   - alfred.go: Alfred Script Filter items for `gds alfred filter`, and the
//     query markers that carry a search's state between keystrokes;
//   - crawl.go: crawl progress (a bar on a terminal, counts or plain lines
//     otherwise) and the crawl summary.
//
// Progress and notices go to stderr; stdout stays clean for results.
package render
