package app

import "runtime/debug"

// CrawlGCPercent is the collector's target during a crawl (GOGC; Go's
// default is 100). A crawl's heap is mostly garbage made per file (file
// bytes, text, tokens): collecting at half the live heap instead of all
// of it lowered gds's own peak resident size from about 250 to 215 MB on
// the real documents of docs/BENCHMARKS.md, at no measurable cost in
// files/s.
const CrawlGCPercent = 50

// CrawlGC sets the crawl's collector target unless the user set GOGC
// (lookup is os.LookupEnv).
func CrawlGC(lookup func(string) (string, bool)) {
	if _, set := lookup("GOGC"); !set {
		debug.SetGCPercent(CrawlGCPercent)
	}
}
