package search

import (
	"bytes"
	"compress/flate"
	"encoding/base64"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
)

// pendingState is a state waiting for an answer, as the loop leaves it.
func pendingState() State {
	s := NewState("議事録 2024 PDF", "ja", time.Date(2026, 5, 1, 9, 0, 0, 0, time.UTC), 5)
	s.Loop = 1
	s.Cond = Conditions{Keywords: []string{"議事録"}, Filters: ai.Filters{FileType: "pdf", ModifiedAfter: "2024-01-01", ModifiedBefore: "2025-01-01"}}
	s.Rounds = []Round{{Loop: 1, Conditions: s.Cond, Hits: 240, Branch: BranchClarify}}
	for i := range NoAnswerKeep {
		s.Hits = append(s.Hits, fmt.Sprintf("1%032x", i*7919))
	}
	s.Question = &ai.Question{Question: "どの種類ですか？", Choices: []ai.Choice{
		{Label: "PDF", Filters: ai.Filters{FileType: "pdf"}},
		{Label: "定例会", Keyword: "定例会"},
	}}
	return s
}

var tokenAlphabet = regexp.MustCompile(`^g1\.[A-Za-z0-9_-]+$`)

func TestStateTokenRoundTrip(t *testing.T) {
	cases := map[string]State{
		"pending question": pendingState(),
		"fresh":            NewState("steam engine", "en", time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), 1),
		"ended": func() State {
			s := pendingState()
			s.Question, s.Hits, s.End, s.Results = nil, nil, EndResults, []string{"a", "b"}
			return s
		}(),
		"control characters and quotes": NewState("a\"b'c`$(rm -rf)\n\t\x00 ;|&", "en", time.Unix(0, 0).UTC(), 3),
	}
	for name, s := range cases {
		t.Run(name, func(t *testing.T) {
			tok, err := EncodeState(s)
			if err != nil {
				t.Fatal(err)
			}
			if !tokenAlphabet.MatchString(tok) {
				t.Fatalf("token %q has characters outside [A-Za-z0-9_-] after the prefix", tok)
			}
			got, err := DecodeState(tok)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, s) {
				t.Fatalf("round trip changed the state:\n got %+v\nwant %+v", got, s)
			}
		})
	}
}

func TestStateTokenIsCompact(t *testing.T) {
	// 100 Drive-like IDs, rounds and a question must stay small enough for
	// an Alfred autocomplete and a shell argument.
	tok, err := EncodeState(pendingState())
	if err != nil {
		t.Fatal(err)
	}
	if len(tok) > 8<<10 {
		t.Fatalf("token is %d bytes", len(tok))
	}
}

// tokenOf packs arbitrary JSON the way EncodeState does.
func tokenOf(t *testing.T, prefix, js string) string {
	t.Helper()
	var buf bytes.Buffer
	zw, _ := flate.NewWriter(&buf, flate.BestSpeed)
	zw.Write([]byte(js))
	zw.Close()
	return prefix + base64.RawURLEncoding.EncodeToString(buf.Bytes())
}

func TestDecodeStateRejects(t *testing.T) {
	good, err := EncodeState(pendingState())
	if err != nil {
		t.Fatal(err)
	}
	bomb := tokenOf(t, TokenPrefix, `{"query":"`+strings.Repeat("a", maxStateJSON)+`"}`)
	cases := []struct {
		name string
		tok  string
		want error
	}{
		{"empty", "", ErrBadToken},
		{"garbage", "hello world", ErrBadToken},
		{"other version", "g2." + good[len(TokenPrefix):], ErrTokenVersion},
		{"old version", "g0.abc", ErrTokenVersion},
		{"bad base64", TokenPrefix + "!!!!", ErrBadToken},
		{"truncated", good[:len(good)/2], ErrBadToken},
		{"not deflate", TokenPrefix + base64.RawURLEncoding.EncodeToString([]byte(`{"query":"x"}`)), ErrBadToken},
		{"not json", tokenOf(t, TokenPrefix, `not json`), ErrBadToken},
		{"unknown field", tokenOf(t, TokenPrefix, `{"query":"x","max_loops":3,"api_key":"sk-x"}`), ErrBadToken},
		{"trailing data", tokenOf(t, TokenPrefix, `{"query":"x","max_loops":3}{}`), ErrBadToken},
		{"empty query", tokenOf(t, TokenPrefix, `{"query":" ","max_loops":3}`), ErrBadToken},
		{"loop beyond cap", tokenOf(t, TokenPrefix, `{"query":"x","max_loops":3,"loop":4}`), ErrBadToken},
		{"no max loops", tokenOf(t, TokenPrefix, `{"query":"x"}`), ErrBadToken},
		{"unknown end", tokenOf(t, TokenPrefix, `{"query":"x","max_loops":3,"end":"maybe"}`), ErrBadToken},
		{"inflates too far", bomb, ErrBadToken},
		{"too long", TokenPrefix + strings.Repeat("A", MaxTokenLen), ErrBadToken},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := DecodeState(c.tok)
			if !errors.Is(err, c.want) {
				t.Fatalf("DecodeState = %v, want %v", err, c.want)
			}
		})
	}
}

// TestStateHoldsNoSecrets pins the fields a token can carry: a new State
// field must be added here after checking it never holds a credential.
func TestStateHoldsNoSecrets(t *testing.T) {
	want := []string{"Query", "Lang", "Now", "MaxLoops", "Scope", "Sources", "Loop", "Cond", "Rounds", "Hits", "Question", "Answer", "End", "Results", "FullText", "Loosened", "Words", "Unmatched"}
	var got []string
	typ := reflect.TypeOf(State{})
	for i := range typ.NumField() {
		got = append(got, typ.Field(i).Name)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("State fields = %v; review them for secrets and update this list (want %v)", got, want)
	}
}

func TestParseAnswer(t *testing.T) {
	q := ai.Question{Question: "?", Choices: []ai.Choice{{Label: "a"}, {Label: "b"}, {Label: "c"}}}
	cases := []struct {
		in   string
		want Answer
	}{
		{"1", Answer{Choice: 0}},
		{" 3 ", Answer{Choice: 2}},
		{"#2", Answer{Choice: 1}},
		{"0", Answer{Choice: -1, Text: "0"}},
		{"4", Answer{Choice: -1, Text: "4"}},
		{"2024", Answer{Choice: -1, Text: "2024"}},
		{"-1", Answer{Choice: -1, Text: "-1"}},
		{"+2", Answer{Choice: -1, Text: "+2"}},
		{"２", Answer{Choice: -1, Text: "２"}},
		{"PDF files", Answer{Choice: -1, Text: "PDF files"}},
		{"", Answer{Choice: -1}},
		{"   ", Answer{Choice: -1}},
	}
	for _, c := range cases {
		if got := ParseAnswer(q, c.in); got != c.want {
			t.Errorf("ParseAnswer(%q) = %+v, want %+v", c.in, got, c.want)
		}
	}
}

func FuzzDecodeState(f *testing.F) {
	good, _ := EncodeState(pendingState())
	f.Add(good)
	f.Add("g1.")
	f.Add("g2.abc")
	f.Add(good[:20])
	f.Fuzz(func(t *testing.T, tok string) {
		s, err := DecodeState(tok)
		if err != nil {
			if !errors.Is(err, ErrBadToken) && !errors.Is(err, ErrTokenVersion) {
				t.Fatalf("error %v wraps neither sentinel", err)
			}
			return
		}
		// Whatever decodes re-encodes to a token that decodes to the same state.
		again, err := EncodeState(s)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := DecodeState(again)
		if err != nil || !reflect.DeepEqual(s, s2) {
			t.Fatalf("re-encoding changed the state: %v", err)
		}
	})
}

func FuzzEncodeState(f *testing.F) {
	f.Add("steam engine", "議事録", "2024", 3)
	f.Add("\xff\xfe", "\x00", "", 1)
	f.Fuzz(func(t *testing.T, query, keyword, answer string, loops int) {
		if strings.TrimSpace(query) == "" {
			return
		}
		s := NewState(query, "en", time.Unix(1700000000, 0).UTC(), 1+abs(loops)%100)
		s.Cond.Keywords = []string{keyword}
		s.Answer = answer
		s.Question = &ai.Question{Question: query, Choices: []ai.Choice{{Label: keyword, Keyword: answer}}}
		tok, err := EncodeState(s)
		if err != nil {
			t.Fatal(err)
		}
		if !tokenAlphabet.MatchString(tok) {
			t.Fatalf("unsafe token %q", tok)
		}
		got, err := DecodeState(tok)
		if err != nil {
			t.Fatal(err)
		}
		// JSON replaces invalid UTF-8; compare through a second round trip.
		again, _ := EncodeState(got)
		if again2, _ := DecodeState(again); !reflect.DeepEqual(again2, got) {
			t.Fatal("second round trip changed the state")
		}
	})
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
