package offline

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
)

func TestExtractGraphEnglish(t *testing.T) {
	p := New()
	text := "Super Bowl 50 was played at Levi's Stadium. The Denver Broncos defeated the Carolina Panthers.\nThe Denver Broncos won their third title."
	out := p.extractGraph(ai.GraphExtractInput{Text: text, Lang: "en"})
	var names []string
	for _, e := range out.Entities {
		names = append(names, e.Name)
		if e.Description == "" || !strings.HasSuffix(e.Description, ".") {
			t.Errorf("entity %+v: want its whole sentence", e)
		}
	}
	for _, want := range []string{"Super Bowl", "Denver Broncos", "Carolina Panthers", "Levi"} {
		if !slices.ContainsFunc(names, func(n string) bool { return strings.HasPrefix(n, want) || strings.HasPrefix(want, n) }) {
			t.Errorf("entities %v miss %q", names, want)
		}
	}
	if names[0] != "Denver Broncos" {
		t.Errorf("most frequent entity first: %v", names)
	}
	var strong *ai.GraphRelationship
	for i, r := range out.Relationships {
		if r.Source == "Denver Broncos" && r.Target == "Carolina Panthers" || r.Target == "Denver Broncos" && r.Source == "Carolina Panthers" {
			strong = &out.Relationships[i]
		}
	}
	if strong == nil || strong.Strength < 3 || !strings.Contains(strong.Description, "defeated") {
		t.Fatalf("Broncos–Panthers relationship = %+v, want the shared sentence and strength 3", strong)
	}
	for _, r := range out.Relationships {
		if strings.Contains(r.Description, "same passage") {
			t.Errorf("relationship %+v: a template, not the sentence that joins them", r)
		}
	}
	types := map[string]string{}
	for _, e := range out.Entities {
		types[e.Name] = e.Type
	}
	if types["Denver Broncos"] != entOrg || types["Super Bowl 50"] != entEvent || types["Levi's Stadium"] != entGeo {
		t.Errorf("types %v", types)
	}
	if g := p.extractGraph(ai.GraphExtractInput{Text: text, Previous: &out}); len(g.Entities)+len(g.Relationships) != 0 {
		t.Errorf("gleaning pass found %+v, want nothing", g)
	}
}

func TestExtractGraphJapanese(t *testing.T) {
	p := New()
	text := "グスタフ・マーラーはオーストリアの作曲家である。マーラーはウィーン宮廷歌劇場の指揮者を務めた。ウィーン宮廷歌劇場は多くの存在を集めた。"
	out := p.extractGraph(ai.GraphExtractInput{Text: text, Lang: "ja"})
	var names []string
	for _, e := range out.Entities {
		names = append(names, e.Name)
	}
	if !slices.Contains(names, "ウィーン宮廷歌劇場") || !slices.ContainsFunc(names, func(n string) bool { return strings.Contains(n, "マーラ") }) {
		t.Fatalf("entities = %v, want the noun compounds", names)
	}
	if slices.Contains(names, "存在") {
		t.Errorf("entities %v hold a common two-character noun seen once", names)
	}
	if len(out.Relationships) == 0 {
		t.Fatal("no co-occurrence relationship")
	}
}

func TestGraphMapAndAnswer(t *testing.T) {
	ctx := "-----Reports-----\nid|title|occurrence weight|content|rank\n" +
		"3|Broncos|1.0000|# Broncos\\n\\nThe Denver Broncos won Super Bowl 50.\\n\\nThey play in Denver.|7\n" +
		"5|Opera|0.5000|# Opera\\n\\nMahler conducted in Vienna.|4"
	m := graphMap(ai.GraphMapInput{Question: "Who won Super Bowl 50?", Context: ctx})
	if len(m.Points) == 0 || m.Points[0].Score <= 0 || !strings.Contains(m.Points[0].Description, "[Data: Reports (3)]") {
		t.Fatalf("map points = %+v", m.Points)
	}
	none := graphMap(ai.GraphMapInput{Question: "quantum chromodynamics", Context: ctx})
	if len(none.Points) != 1 || none.Points[0].Score != 0 {
		t.Fatalf("unrelated question: %+v, want one point scored 0", none.Points)
	}
	reduce := "----Analyst 1----\nImportance Score: 80\nThe Denver Broncos won Super Bowl 50. [Data: Reports (3)]\n\n" +
		"----Analyst 2----\nImportance Score: 60\nThe Denver Broncos won Super Bowl 50. [Data: Reports (9)]"
	pieces := graphAnswer(ai.GraphAnswerInput{Mode: ai.GraphModeGlobal, Question: "Who won Super Bowl 50?", Context: reduce})
	if len(pieces) != 1 || strings.Contains(pieces[0], "Analyst") {
		t.Fatalf("answer pieces = %q, want the sentence once without the analyst headers", pieces)
	}
	// Through the provider: structured output is valid JSON of the schema's shape.
	raw, err := New().Structured(context.Background(), ai.Request{Task: ai.TaskGraphMap, Input: ai.GraphMapInput{Question: "Super Bowl", Context: ctx}})
	if err != nil {
		t.Fatal(err)
	}
	var res ai.GraphMapResult
	if err := json.Unmarshal(raw, &res); err != nil || len(res.Points) == 0 {
		t.Fatalf("Structured(graph_map) = %s, %v", raw, err)
	}
}

func TestGraphReportAndDrift(t *testing.T) {
	r := graphReport(ai.GraphReportInput{Entities: []string{"A", "B", "C", "D"}, Descriptions: []string{"A is first.", "B is second.", "", "D."}, Relations: 4})
	if r.Title != "A, B, C" || r.Summary != "A is first.\nB is second." || r.Rating <= 0 || r.Rating > 10 || len(r.Findings) != 4 || !strings.Contains(r.RatingExplanation, "Offline") {
		t.Fatalf("report = %+v", r)
	}
	d := graphDrift(ai.GraphDriftInput{Question: "Who won Super Bowl 50?", Context: "The Denver Broncos won Super Bowl 50. Mahler was a composer.", Entities: []string{"Super Bowl 50", "Denver Broncos", "Mahler", "Vienna"}, Lang: "en"})
	// The follow-ups stay on the question: an entity of the answer, not
	// Mahler of an unrelated sentence.
	if d.Score <= 0 || d.Response != "The Denver Broncos won Super Bowl 50." || !slices.Equal(d.FollowUpQueries, []string{"How are Denver Broncos and Super Bowl related?"}) {
		t.Fatalf("drift = %+v", d)
	}
	off := graphDrift(ai.GraphDriftInput{Question: "Who were the Normans?", Query: "What about Green Bay Packers?",
		Context: "The Green Bay Packers play football.", Entities: []string{"Green Bay Packers"}, Lang: "en"})
	if off.Score != 0 || len(off.FollowUpQueries) != 0 {
		t.Fatalf("a step off the question: %+v, want score 0 and no follow-ups", off)
	}
}

func TestEnglishEntityNames(t *testing.T) {
	for _, tc := range []struct {
		name  string
		sents []string
		want  []string // name/type, in order of mention
		not   []string
	}{
		{"a run of names split at its commas", []string{"The team drew fans from Los Angeles, Orange County, San Diego and Riverside."},
			[]string{"Los Angeles/geo", "Orange County/geo", "San Diego/other", "Riverside/other"}, nil},
		{"common words that open sentences are not names", []string{"Town life was quiet.", "The town grew.", "Busiest of all was the port of Warsaw."},
			[]string{"Warsaw/other"}, []string{"Town", "Busiest"}},
		{"a leading The is not part of a name", []string{"The Normans came from Normandy."}, []string{"Normans/other", "Normandy/geo"}, nil},
		{"a surname joins the full name", []string{"Nikola Tesla was an inventor.", "Tesla worked for Edison in New York City."},
			[]string{"Nikola Tesla/other", "Nikola Tesla/other", "Edison/other", "New York City/geo"}, nil},
		{"connectors inside a name and a numeral after it", []string{"He studied at the University of Warsaw before Super Bowl XLVIII."},
			[]string{"University of Warsaw/organization", "Super Bowl XLVIII/event"}, nil},
		{"rules type people, works and dates", []string{`King Louis XIV praised "My Inventions" on February 7, a book by Tesla, who wrote it.`},
			[]string{"King Louis XIV/person", "My Inventions/work", "February 7/date", "Tesla/other"}, nil},
		{"a possessive is dropped", []string{"Denver's defense ranked first in the NFL."}, []string{"Denver/other", "NFL/organization"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got []string
			for _, ms := range englishEntityNames(tc.sents) {
				for _, m := range ms {
					got = append(got, m.name+"/"+m.typ)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("got %q\nwant %q", got, tc.want)
			}
			for _, n := range tc.not {
				if slices.ContainsFunc(got, func(g string) bool { return strings.HasPrefix(g, n+"/") }) {
					t.Errorf("%q named", n)
				}
			}
		})
	}
}
