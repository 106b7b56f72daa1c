package agent

import (
	"encoding/json"
	"reflect"
	"testing"
)

func runPlan(p *Plan, answers map[string][]DocRef) [][]string {
	var turns [][]string
	for range 10 {
		calls := p.Next()
		if calls == nil {
			return turns
		}
		var names []string
		for _, c := range calls {
			names = append(names, c.Name)
			if !json.Valid([]byte(c.Arguments)) {
				panic("invalid arguments " + c.Arguments)
			}
			p.Observe(c.Name, answers[c.Name])
		}
		turns = append(turns, names)
	}
	panic("the plan does not end")
}

func TestPlanOrder(t *testing.T) {
	a, b, c, d := DocRef{"a", "agenda.xlsx"}, DocRef{"b", "b.pdf"}, DocRef{"c", "c.pdf"}, DocRef{"d", "d.pdf"}
	inv := ToolInvestigate
	cases := []struct {
		name    string
		answers map[string][]DocRef
		want    [][]string
	}{
		{"agenda and matches: the agenda then the two best, before the evidence search",
			map[string][]DocRef{ToolDiscoverAgenda: {a}, ToolListDocuments: {b, c, d}},
			[][]string{{ToolDiscoverAgenda}, {ToolListDocuments}, {inv, inv, inv}, {ToolSearchEvidence}}},
		{"no agenda: the three best matches",
			map[string][]DocRef{ToolListDocuments: {b, c, d}},
			[][]string{{ToolDiscoverAgenda}, {ToolListDocuments}, {inv, inv, inv}, {ToolSearchEvidence}}},
		{"no listing match: investigate the evidence's files after the search",
			map[string][]DocRef{ToolDiscoverAgenda: {a}, ToolSearchEvidence: {c, c, d}},
			[][]string{{ToolDiscoverAgenda}, {ToolListDocuments}, {ToolSearchEvidence}, {inv, inv}}},
		{"nothing found anywhere: answer after the search",
			map[string][]DocRef{},
			[][]string{{ToolDiscoverAgenda}, {ToolListDocuments}, {ToolSearchEvidence}}},
	}
	for _, tc := range cases {
		got := runPlan(&Plan{Question: "q", Keywords: []string{"x", "y"}}, tc.answers)
		if !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s:\n got %v\nwant %v", tc.name, got, tc.want)
		}
	}
	// A folder with attachments: listed with the structure documents, the
	// first one investigated after the agenda.
	up := DocRef{"u", "agenda-upload.xlsx"}
	got := runPlan(&Plan{Question: "q", Attachments: true}, map[string][]DocRef{
		ToolDiscoverAgenda: {a}, ToolListAttachments: {up}, ToolListDocuments: {b, c}})
	want := [][]string{{ToolDiscoverAgenda, ToolListAttachments}, {ToolListDocuments}, {inv, inv, inv}, {ToolSearchEvidence}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("attachments:\n got %v\nwant %v", got, want)
	}
	p := &Plan{Question: "q", Attachments: true}
	p.Next()
	p.Observe(ToolDiscoverAgenda, []DocRef{a})
	p.Observe(ToolListAttachments, []DocRef{up})
	p.Next()
	p.Observe(ToolListDocuments, []DocRef{b, c})
	var ids []string
	for _, call := range p.Next() {
		var m map[string]string
		_ = json.Unmarshal([]byte(call.Arguments), &m)
		ids = append(ids, m["document_id"])
	}
	if !reflect.DeepEqual(ids, []string{"a", "u", "b"}) {
		t.Errorf("investigated %v, want the agenda, the attachment, the best match", ids)
	}
}

func TestPlanArguments(t *testing.T) {
	p := &Plan{Question: "what changed?", Folder: "F", Keywords: []string{"change", "revision"}}
	p.Next()
	list := p.Next()[0]
	var m map[string]any
	if err := json.Unmarshal([]byte(list.Arguments), &m); err != nil {
		t.Fatal(err)
	}
	if m["folder"] != "F" || m["search_text"] != "change revision" || m["page_size"] != float64(50) {
		t.Errorf("list arguments %v", m)
	}
	p.Observe(ToolListDocuments, []DocRef{{"x", "x"}})
	inv := p.Next()[0]
	if err := json.Unmarshal([]byte(inv.Arguments), &m); err != nil {
		t.Fatal(err)
	}
	if m["document_id"] != "x" || m["investigation_query"] != "what changed?" {
		t.Errorf("investigate arguments %v", m)
	}
	if inv.ID == list.ID {
		t.Error("call IDs repeat")
	}
}

func TestIsAgendaName(t *testing.T) {
	cases := map[string]bool{
		"Agenda_SA2-162.docx": true, "TDoc_List_Meeting.xlsx": true, "index.html": true, "第3回議事録.pdf": true,
		"目次.txt": true, "議題一覧.xlsx": true, "toc.md": true, "minutes-2024.txt": true,
		"reindexed-data.csv": false, "docxrs-toc1-ja.docx": false, "S2-2401234.docx": false, "report.pdf": false,
	}
	for name, want := range cases {
		if got := IsAgendaName(name); got != want {
			t.Errorf("IsAgendaName(%q) = %v, want %v", name, got, want)
		}
	}
}

func TestMatchDocuments(t *testing.T) {
	docs := []Doc{
		{ID: "1", Name: "budget.xlsx", Summary: "costs of 2024"},
		{ID: "2", Name: "notes.txt", Keywords: []string{"budget", "power"}},
		{ID: "3", Name: "power saving budget.docx"},
		{ID: "4", Name: "other.pdf"},
	}
	ids := func(ds []Doc) (out []string) {
		for _, d := range ds {
			out = append(out, d.ID)
		}
		return out
	}
	cases := []struct {
		text string
		want []string
	}{
		{"", []string{"1", "2", "3", "4"}},
		{"budget", []string{"1", "3", "2"}},       // names before keywords
		{"power budget", []string{"3", "2", "1"}}, // two terms, names first
		{"nothing", nil},
	}
	for _, tc := range cases {
		if got := ids(MatchDocuments(docs, tc.text)); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("MatchDocuments(%q) = %v, want %v", tc.text, got, tc.want)
		}
	}
}

func TestRankPassages(t *testing.T) {
	texts := []string{"the cat sat", "the budget of the team", "budget power saving", "the end"}
	cases := []struct {
		q    string
		n    int
		want []int
	}{
		{"power budget", 2, []int{2, 1}},
		{"the budget", 3, []int{1, 2, 0}},
		{"unrelated", 3, nil},
		{"予算", 1, nil},
	}
	for _, tc := range cases {
		if got := RankPassages(tc.q, texts, tc.n); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("RankPassages(%q) = %v, want %v", tc.q, got, tc.want)
		}
	}
}

func TestCitedAndArgs(t *testing.T) {
	read := []Passage{{Ordinal: 0, Evidence: Evidence{ChunkID: "f#0"}}, {Ordinal: 7, Evidence: Evidence{ChunkID: "f#7"}}}
	got := cited("see [c7] and [c0], again [c7], not [c9] or [7]", read)
	if len(got) != 2 || got[0].ChunkID != "f#7" || got[1].ChunkID != "f#0" {
		t.Errorf("cited = %+v", got)
	}
	if s := string(argsJSON(`{"a":1}`)); s != `{"a":1}` {
		t.Errorf("argsJSON valid = %s", s)
	}
	if s := string(argsJSON(`{"a":`)); s != `"{\"a\":"` {
		t.Errorf("argsJSON malformed = %s", s)
	}
	if tags := AttachmentTags("/Reports/2024/"); !reflect.DeepEqual(tags, []string{"Reports/2024", "2024"}) {
		t.Errorf("AttachmentTags = %v", tags)
	}
}
