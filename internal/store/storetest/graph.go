package storetest

import (
	"context"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/store"
)

// RunGraph runs the contract suite of store.GraphStore. newStore must
// return a fresh, empty, migrated store for every call.
func RunGraph(t *testing.T, newStore func(t *testing.T) store.GraphStore) {
	t.Helper()
	for _, tc := range []struct {
		name string
		fn   func(t *testing.T, s store.GraphStore)
	}{
		{"Empty", testGraphEmpty},
		{"Extractions", testGraphExtractions},
		{"Reports", testGraphReports},
		{"ReplaceAndLoad", testGraphReplaceAndLoad},
		{"ReplacePrunesReports", testGraphReplacePrunes},
		{"Reset", testGraphReset},
	} {
		t.Run(tc.name, func(t *testing.T) { tc.fn(t, newStore(t)) })
	}
}

func testGraphEmpty(t *testing.T, s store.GraphStore) {
	ctx := context.Background()
	g, err := s.LoadGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !g.BuiltAt.IsZero() || len(g.Entities)+len(g.Relationships)+len(g.Communities) != 0 {
		t.Fatalf("empty store: LoadGraph = %+v, want the zero graph", g)
	}
	h, err := s.GraphTextHashes(ctx)
	if err != nil || len(h) != 0 {
		t.Fatalf("GraphTextHashes = %v, %v; want empty", h, err)
	}
	r, err := s.GraphReports(ctx, nil)
	if err != nil || len(r) != 0 {
		t.Fatalf("GraphReports = %v, %v; want empty", r, err)
	}
}

func testGraphExtractions(t *testing.T, s store.GraphStore) {
	ctx := context.Background()
	put := func(file string, ord int, hash, data string) {
		t.Helper()
		if err := s.PutGraphExtraction(ctx, store.GraphExtraction{FileID: file, Ordinal: ord, TextHash: hash, Data: []byte(data)}); err != nil {
			t.Fatal(err)
		}
	}
	put("b", 0, "h1", `{"x":1}`)
	put("a", 10, "h2", `{"x":2}`)
	put("a", 2, "h3", `{"x":3}`)
	put("a#b", 1, "h4", `{}`) // a file ID containing '#'
	put("a", 2, "h3b", `{"x":4}`)
	h, err := s.GraphTextHashes(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"b#0": "h1", "a#10": "h2", "a#2": "h3b", "a#b#1": "h4"}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("GraphTextHashes = %v, want %v", h, want)
	}
	all, err := s.GraphExtractions(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, e := range all {
		keys = append(keys, e.FileID+"/"+string(rune('0'+e.Ordinal%10))+"/"+string(e.Data))
	}
	wantKeys := []string{`a/2/{"x":4}`, `a/0/{"x":2}`, `a#b/1/{}`, `b/0/{"x":1}`}
	if !slices.Equal(keys, wantKeys) {
		t.Fatalf("GraphExtractions(nil) = %v, want %v (file ID by bytes, then ordinal numerically)", keys, wantKeys)
	}
	some, err := s.GraphExtractions(ctx, []string{"b#0", "a#10", "nope#1"})
	if err != nil || len(some) != 2 || some[0].FileID != "a" || some[1].FileID != "b" {
		t.Fatalf("GraphExtractions(ids) = %+v, %v", some, err)
	}
	none, err := s.GraphExtractions(ctx, []string{})
	if err != nil || len(none) != 0 {
		t.Fatalf("GraphExtractions([]) = %+v, %v; want none", none, err)
	}
	if err := s.DeleteGraphExtractions(ctx, []string{"a#10", "b#0", "unknown#3"}); err != nil {
		t.Fatal(err)
	}
	h, _ = s.GraphTextHashes(ctx)
	if want := map[string]string{"a#2": "h3b", "a#b#1": "h4"}; !reflect.DeepEqual(h, want) {
		t.Fatalf("after delete: GraphTextHashes = %v, want %v", h, want)
	}
}

func testGraphReports(t *testing.T, s store.GraphStore) {
	ctx := context.Background()
	for _, r := range []store.GraphReport{{Signature: "s1", Data: []byte(`{"a":1}`)}, {Signature: "s2", Data: []byte(`{"b":2}`)}, {Signature: "s1", Data: []byte(`{"a":3}`)}} {
		if err := s.PutGraphReport(ctx, r); err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.GraphReports(ctx, []string{"s1", "zz"})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || string(got["s1"].Data) != `{"a":3}` {
		t.Fatalf("GraphReports([s1 zz]) = %v", got)
	}
	all, _ := s.GraphReports(ctx, nil)
	if len(all) != 2 {
		t.Fatalf("GraphReports(nil) has %d reports, want 2", len(all))
	}
}

func sampleGraph() store.Graph {
	return store.Graph{
		Entities: []store.GraphEntity{
			{ID: "e1", Name: "東京", Type: "GEO", Description: "首都", ChunkIDs: []string{"f1#0", "f2#3"}, Degree: 2, Embedding: []float32{1, 0.5, -2, 0}},
			{ID: "e2", Name: "Alpha | Beta", Type: "ORG", Description: "line\nbreak", ChunkIDs: []string{"f1#0"}, Degree: 1},
			{ID: "e3", Name: "x", ChunkIDs: []string{}, Embedding: []float32{0, 0, 0, 1}},
		},
		Relationships: []store.GraphRelationship{
			{ID: "r1", Source: "e1", Target: "e2", Description: "related", Weight: 2.5, ChunkIDs: []string{"f1#0"}},
		},
		Communities: []store.GraphCommunity{
			{ID: "0", Level: 0, EntityIDs: []string{"e1", "e2", "e3"}, RelationshipIDs: []string{"r1"}, Weight: 2, Signature: "sigA"},
			{ID: "1", Level: 1, Parent: "0", EntityIDs: []string{"e1", "e2"}, RelationshipIDs: []string{"r1"}, Weight: 2, Signature: "sigB"},
			{ID: "10", Level: 1, Parent: "0", EntityIDs: []string{"e3"}, RelationshipIDs: []string{}, Weight: 1, Signature: "sigC"},
			{ID: "2", Level: 1, Parent: "0", EntityIDs: []string{"e3"}, RelationshipIDs: []string{}, Weight: 1, Signature: "sigD"},
		},
		BuiltAt:  time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC),
		Provider: "offline",
		Folder:   "Reports/2026",
	}
}

func testGraphReplaceAndLoad(t *testing.T, s store.GraphStore) {
	ctx := context.Background()
	g := sampleGraph()
	if err := s.ReplaceGraph(ctx, g); err != nil {
		t.Fatal(err)
	}
	got, err := s.LoadGraph(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !got.BuiltAt.Equal(g.BuiltAt) || got.Provider != g.Provider || got.Folder != g.Folder {
		t.Fatalf("meta = %v %q %q", got.BuiltAt, got.Provider, got.Folder)
	}
	got.BuiltAt = g.BuiltAt
	// Communities come back by level, then numerically by ID.
	wantOrder := []string{"0", "1", "2", "10"}
	var order []string
	for _, c := range got.Communities {
		order = append(order, c.ID)
	}
	if !slices.Equal(order, wantOrder) {
		t.Fatalf("community order = %v, want %v", order, wantOrder)
	}
	byID := map[string]store.GraphCommunity{}
	for _, c := range got.Communities {
		byID[c.ID] = c
	}
	for _, c := range g.Communities {
		if !reflect.DeepEqual(byID[c.ID], c) {
			t.Errorf("community %s = %+v, want %+v", c.ID, byID[c.ID], c)
		}
	}
	if !reflect.DeepEqual(got.Entities, g.Entities) {
		t.Errorf("entities = %+v\nwant %+v", got.Entities, g.Entities)
	}
	if !reflect.DeepEqual(got.Relationships, g.Relationships) {
		t.Errorf("relationships = %+v\nwant %+v", got.Relationships, g.Relationships)
	}
	// A second replace leaves only the new graph.
	g2 := store.Graph{Entities: g.Entities[:1], Communities: g.Communities[:1], BuiltAt: g.BuiltAt.Add(time.Hour), Provider: "openai"}
	if err := s.ReplaceGraph(ctx, g2); err != nil {
		t.Fatal(err)
	}
	got, _ = s.LoadGraph(ctx)
	if len(got.Entities) != 1 || len(got.Relationships) != 0 || len(got.Communities) != 1 || got.Provider != "openai" || got.Folder != "" {
		t.Fatalf("after the second replace: %d entities, %d relationships, %d communities, provider %q, folder %q",
			len(got.Entities), len(got.Relationships), len(got.Communities), got.Provider, got.Folder)
	}
}

func testGraphReplacePrunes(t *testing.T, s store.GraphStore) {
	ctx := context.Background()
	for _, sig := range []string{"sigA", "sigB", "old"} {
		if err := s.PutGraphReport(ctx, store.GraphReport{Signature: sig, Data: []byte(`{}`)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := s.ReplaceGraph(ctx, sampleGraph()); err != nil {
		t.Fatal(err)
	}
	all, _ := s.GraphReports(ctx, nil)
	var sigs []string
	for k := range all {
		sigs = append(sigs, k)
	}
	slices.Sort(sigs)
	if !slices.Equal(sigs, []string{"sigA", "sigB"}) {
		t.Fatalf("reports after replace = %v, want [sigA sigB] (no community names \"old\")", sigs)
	}
}

func testGraphReset(t *testing.T, s store.GraphStore) {
	ctx := context.Background()
	if err := s.PutGraphExtraction(ctx, store.GraphExtraction{FileID: "f", TextHash: "h", Data: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.PutGraphReport(ctx, store.GraphReport{Signature: "sigA", Data: []byte(`{}`)}); err != nil {
		t.Fatal(err)
	}
	if err := s.ReplaceGraph(ctx, sampleGraph()); err != nil {
		t.Fatal(err)
	}
	if err := s.ResetGraph(ctx); err != nil {
		t.Fatal(err)
	}
	testGraphEmpty(t, s)
}
