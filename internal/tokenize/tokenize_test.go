package tokenize

import (
	"reflect"
	"strings"
	"testing"
)

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Q3 Roadmap", []string{"q3", "roadmap"}},
		{"議事録", []string{"議事", "事録"}},
		{"先月の議事録PDF", []string{"先月", "月の", "の議", "議事", "事録", "pdf"}},
		{"梅", []string{"梅"}},
		{"ＡＢＣ１２３", []string{"abc123"}}, // NFKC folds full-width forms
		{"don't-stop", []string{"don", "t", "stop"}},
		{"", nil},
		{"  ,.; ", nil},
	}
	for _, tt := range tests {
		if got := Tokens(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// A term's tokens appear contiguously in the tokens of any text containing it.
func TestSubstringProperty(t *testing.T) {
	doc := "本年度の設計ドキュメントはプロジェクトアルファの共有フォルダにあります"
	for _, term := range []string{"設計", "設計ドキュメント", "プロジェクトアルファ", "共有フォルダ"} {
		if !strings.Contains(" "+Join(doc)+" ", " "+Join(term)+" ") {
			t.Errorf("tokens of %q not contiguous in document tokens", term)
		}
	}
}

func FuzzTokens(f *testing.F) {
	f.Add("先月の議事録PDF")
	f.Add("Q3 roadmap slides from 2024")
	f.Fuzz(func(t *testing.T, s string) {
		for _, tok := range Tokens(s) {
			if tok == "" || strings.ContainsAny(tok, " \t\n") {
				t.Fatalf("bad token %q from %q", tok, s)
			}
		}
	})
}

func TestUnique(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"the cat and the hat", []string{"the", "cat", "and", "hat"}},
		{"議事録の議事", []string{"議事", "事録", "録の", "の議"}},
		{"The THE the", []string{"the"}},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Unique(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Unique(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
