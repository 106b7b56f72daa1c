package app

import (
	"runtime/debug"
	"testing"
)

// A crawl collects at CrawlGCPercent unless the user chose GOGC.
func TestCrawlGC(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  map[string]string
		want int
	}{
		{"GOGC unset", map[string]string{}, CrawlGCPercent},
		{"GOGC set by the user", map[string]string{"GOGC": "200"}, 137},
		{"GOGC set empty", map[string]string{"GOGC": ""}, 137},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := debug.SetGCPercent(137)
			defer debug.SetGCPercent(old)
			CrawlGC(func(k string) (string, bool) { v, ok := tc.env[k]; return v, ok })
			if got := debug.SetGCPercent(137); got != tc.want {
				t.Fatalf("GC percent %d, want %d", got, tc.want)
			}
		})
	}
}
