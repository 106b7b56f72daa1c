// Package render turns results into output. Each output mode has one place:
// text for terminals and logs (text.go, crawl.go), and later JSON and Alfred.
// Progress and notices go to stderr; stdout stays clean for results.
package render
