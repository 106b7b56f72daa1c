package suggest

import "testing"

func TestDistance(t *testing.T) {
	cases := []struct {
		a, b string
		want int
	}{
		{"", "", 0},
		{"search", "search", 0},
		{"serch", "search", 1},
		{"saerch", "search", 1}, // transposition
		{"limt", "limit", 1},
		{"", "abc", 3},
		{"kitten", "sitting", 3},
		{"検索", "検索する", 2},
	}
	for _, c := range cases {
		if got := Distance(c.a, c.b); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d", c.a, c.b, got, c.want)
		}
		if got := Distance(c.b, c.a); got != c.want {
			t.Errorf("Distance(%q, %q) = %d, want %d (symmetric)", c.b, c.a, got, c.want)
		}
	}
}

func TestClosest(t *testing.T) {
	commands := []string{"search", "ask", "graph", "crawl", "auth", "schedule", "alfred", "config", "db", "doctor", "eval", "serve", "mcp", "federate", "version"}
	flags := []string{"json", "alfred", "verbose", "answer", "state", "limit", "top-k", "help"}
	cases := []struct {
		word  string
		cands []string
		want  string
	}{
		{"serch", commands, "search"},
		{"saerch", commands, "search"},
		{"crawll", commands, "crawl"},
		{"docter", commands, "doctor"},
		{"sched", commands, "schedule"}, // prefix
		{"confg", commands, "config"},
		{"xyzzy", commands, ""},      // garbage: no suggestion
		{"qqqqqqqqqq", commands, ""}, // garbage: no suggestion
		{"d", commands, ""},          // too short to guess
		{"search", commands, ""},     // exact: nothing to suggest
		{"limt", flags, "limit"},
		{"jsno", flags, "json"},
		{"verbos", flags, "verbose"},
		{"topk", flags, "top-k"},
		{"frobnicate", flags, ""},
	}
	for _, c := range cases {
		got, ok := Closest(c.word, c.cands)
		if got != c.want || ok != (c.want != "") {
			t.Errorf("Closest(%q) = %q, %v; want %q", c.word, got, ok, c.want)
		}
	}
}
