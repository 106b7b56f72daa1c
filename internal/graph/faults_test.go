package graph

import (
	"slices"
	"testing"
)

func TestFaults(t *testing.T) {
	for _, tc := range []struct {
		name, text string
		want       []string
	}{
		{"a clean answer", "The Normans settled in Normandy. They spoke Norman French.", nil},
		{"a literal escape", `The Normans settled.\n\nThey spoke French.`, []string{FaultEscape}},
		{"an entity ID and a context row", "68 r41c332ae1d22 John Fox Broncos coached both teams. 3", []string{FaultID}},
		{"a chunk ID", "See local-d6fa4a4952cadee48f5d689e#4 for more.", []string{FaultID}},
		{"a data reference", "The Broncos won. [Data: Reports (107)]", []string{FaultDataRef}},
		{"a table row", "id|title|content\n3|Broncos|The Broncos won.", []string{FaultRow, FaultFragment}},
		{"markup", "## Golden Super Bowl\n\nThe game was golden.", []string{FaultMarkup}},
		{"analyst headers", "----Analyst 1----\nImportance Score: 80\nThe Broncos won.", []string{FaultMarkup}},
		{"a DRIFT score", "Amatus, Montecassino 0.3788 The Normans came.", []string{FaultScore}},
		{"a repeated sentence", "Warsaw has lakes. Warsaw is big. Warsaw has lakes.", []string{FaultRepeated}},
		{"a fragment", "o solve them, such as time. The rest is whole.", []string{FaultFragment}},
		{"a cut description", "The league emphasized the golden anniversary with var…", []string{FaultFragment}},
		{"empty", " ", []string{FaultEmpty}},
		{"words of hex letters and years are not IDs", "They effaced the decade 1985 to 2003 in the Bay Area.", nil},
		{"Japanese", "ノルマン人はノルマンディーに定住した。\n彼らはフランス語を話した。", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := Faults(tc.text); !slices.Equal(got, tc.want) {
				t.Errorf("Faults(%q) = %q, want %q", tc.text, got, tc.want)
			}
		})
	}
	if n := RepeatedSentences("A b. C d. A b. A b."); n != 2 {
		t.Errorf("RepeatedSentences = %d, want 2", n)
	}
}
