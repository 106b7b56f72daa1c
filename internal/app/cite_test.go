package app

import (
	"reflect"
	"testing"
)

func TestClaims(t *testing.T) {
	for _, tc := range []struct {
		answer string
		want   map[int][]string
	}{
		{"Denver won. [1] It was cold. [2][1]", map[int][]string{1: {"Denver won.", "It was cold."}, 2: {"It was cold."}}},
		{"A claim [1, 3] and a tail without one.", map[int][]string{1: {"A claim"}, 3: {"A claim"}}},
		{"The passages do not answer this question.", map[int][]string{}},
		{"東京は首都である。 [2]\n人口は多い。 [2]", map[int][]string{2: {"東京は首都である。", "人口は多い。"}}},
	} {
		if got := claims(tc.answer); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("claims(%q) = %v, want %v", tc.answer, got, tc.want)
		}
	}
}

func TestSplitCited(t *testing.T) {
	srcs := []Source{{Ref: 1}, {Ref: 2}, {Ref: 3}}
	cited, _ := splitCited("Yes. [3] And so. [1]", srcs)
	if len(cited) != 2 || cited[0].Ref != 1 || cited[1].Ref != 3 {
		t.Errorf("cited %+v", cited)
	}
	if cited, _ := splitCited("The passages do not answer this question.", srcs); len(cited) != 0 {
		t.Errorf("an answer without citations cites %+v", cited)
	}
	if cited, _ := splitCited("Made up. [9]", srcs); len(cited) != 0 {
		t.Errorf("a citation of no passage cites %+v", cited)
	}
}

func TestQuote(t *testing.T) {
	passage := "Super Bowl 50 was an American football game. It determined the champion of the NFL. " +
		"The game was played on February 7, 2016,\nat Levi's Stadium. The Broncos won. Fans cheered loudly."
	for _, tc := range []struct {
		name    string
		passage string
		claims  []string
		want    string
	}{
		{"the cited sentence with its neighbours, a PDF line joined", passage, []string{"The game was played on February 7, 2016, at Levi's Stadium."},
			"It determined the champion of the NFL. The game was played on February 7, 2016, at Levi's Stadium. The Broncos won."},
		{"the first sentence and the next", passage, []string{"Super Bowl 50 was an American football game."},
			"Super Bowl 50 was an American football game. It determined the champion of the NFL."},
		{"the last sentence and the one before", passage, []string{"Fans cheered loudly."},
			"The Broncos won. Fans cheered loudly."},
		{"a model's paraphrase finds its sentence", passage, []string{"Denver's Broncos won the game."},
			"The game was played on February 7, 2016, at Levi's Stadium. The Broncos won. Fans cheered loudly."},
		{"Japanese joins without spaces", "梅雨は雨季である。梅雨明けを出梅という。夏が来る。", []string{"梅雨明けを出梅という。"},
			"梅雨は雨季である。梅雨明けを出梅という。夏が来る。"},
		{"no shared word", passage, []string{"Quantum gravity."}, ""},
		{"no claim", passage, nil, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Quote(tc.passage, tc.claims); got != tc.want {
				t.Errorf("Quote\n got %q\nwant %q", got, tc.want)
			}
		})
	}
}
