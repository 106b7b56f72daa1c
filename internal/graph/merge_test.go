package graph

import (
	"slices"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
)

func TestNormalizeName(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"Denver Broncos", "denver bronco"},
		{"  DENVER   broncos ", "denver bronco"},
		{"\"Denver Broncos\"", "denver bronco"},
		{"Normans", "norman"}, // an inflection: one entity with Norman
		{"Norman", "norman"},
		{"Denver's", "denver"},
		{"Paris", "paris"}, // not plurals
		{"Glass", "glass"},
		{"Campus", "campus"},
		{"Gas", "gas"},
		{"NFL's 2015 MVPs", "nfl's 2015 mvp"},
		{"ＧｏｏｇｌｅＤｒｉｖｅ", "googledrive"}, // full-width folded
		{"「東京大学」", "東京大学"},
		{"Acme Inc.", "acme inc."},
		{"", ""},
		{"、", ""},
	} {
		if got := NormalizeName(tc.in); got != tc.want {
			t.Errorf("NormalizeName(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRelationshipIDIsUndirected(t *testing.T) {
	if RelationshipID("a", "b") != RelationshipID("b", "a") {
		t.Fatal("RelationshipID depends on the order of its ends")
	}
	if RelationshipID("a", "b") == RelationshipID("a", "c") {
		t.Fatal("different pairs share an ID")
	}
}

func TestMerge(t *testing.T) {
	in := []ChunkExtraction{
		{ChunkID: "f1#0", GraphExtraction: ai.GraphExtraction{
			Entities: []ai.GraphEntity{
				{Name: "Denver Broncos", Type: "organization", Description: "A football team."},
				{Name: "Super Bowl 50", Type: "event", Description: "The 2016 final."},
			},
			Relationships: []ai.GraphRelationship{
				{Source: "Denver Broncos", Target: "Super Bowl 50", Description: "won", Strength: 8},
				{Source: "Denver Broncos", Target: "denver broncos", Description: "self", Strength: 3}, // self-loop dropped
			},
		}},
		{ChunkID: "f2#1", GraphExtraction: ai.GraphExtraction{
			Entities: []ai.GraphEntity{
				{Name: "DENVER BRONCOS", Type: "ORGANIZATION", Description: "A football team."}, // same description once
				{Name: "Denver Broncos", Type: "team", Description: "Based in Denver."},
			},
			Relationships: []ai.GraphRelationship{
				{Source: "Super Bowl 50", Target: "Denver Broncos", Description: "was won by", Strength: 0}, // reversed, strength defaults to 1
				{Source: "Denver Broncos", Target: "Carolina Panthers", Description: "played", Strength: 5}, // unlisted endpoint becomes an entity
			},
		}},
	}
	ents, rels := Merge(in)
	if len(ents) != 3 {
		t.Fatalf("Merge made %d entities, want 3: %+v", len(ents), ents)
	}
	by := map[string]int{}
	for i, e := range ents {
		by[NormalizeName(e.Name)] = i
	}
	d := ents[by["denver bronco"]]
	if d.Name != "Denver Broncos" || d.Type != "ORGANIZATION" {
		t.Errorf("merged entity = %q/%q, want the most frequent spelling and type Denver Broncos/ORGANIZATION", d.Name, d.Type)
	}
	if d.Description != "A football team.\nBased in Denver." {
		t.Errorf("description = %q", d.Description)
	}
	if !slices.Equal(d.ChunkIDs, []string{"f1#0", "f2#1"}) || d.Degree != 2 {
		t.Errorf("chunks %v degree %d, want [f1#0 f2#1] and 2", d.ChunkIDs, d.Degree)
	}
	if d.ID != EntityID("denver bronco") {
		t.Errorf("ID %q is not EntityID of the normalised name", d.ID)
	}
	if c := ents[by["carolina panther"]]; c.Description != "" || !slices.Equal(c.ChunkIDs, []string{"f2#1"}) {
		t.Errorf("endpoint-only entity = %+v", c)
	}
	if len(rels) != 2 {
		t.Fatalf("Merge made %d relationships, want 2: %+v", len(rels), rels)
	}
	for _, r := range rels {
		if r.Source >= r.Target {
			t.Errorf("relationship %s not ordered: %s, %s", r.ID, r.Source, r.Target)
		}
		if r.ID == RelationshipID(EntityID("denver broncos"), EntityID("super bowl 50")) {
			if r.Weight != 9 || r.Description != "won was won by" || len(r.ChunkIDs) != 2 {
				t.Errorf("merged relationship = %+v, want weight 8+1, both descriptions, both chunks", r)
			}
		}
	}
	for i := 1; i < len(ents); i++ {
		if ents[i-1].ID >= ents[i].ID {
			t.Errorf("entities not sorted by ID")
		}
	}
}
