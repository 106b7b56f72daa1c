package graph_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline"
	"github.com/gds-cli/gds/internal/ai/tokens"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/graph"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/postgres"
	"github.com/gds-cli/gds/internal/store/sqlite"
	"github.com/gds-cli/gds/internal/store/storetest"
)

// testStore is an index with its graph storage.
type testStore interface {
	store.Store
	store.GraphStore
}

// backends returns a fresh store of each back end that can run here:
// SQLite always, Postgres when GDS_TEST_DATABASE_URL is set.
func backends(t *testing.T) map[string]func(t *testing.T) testStore {
	out := map[string]func(t *testing.T) testStore{
		"sqlite": func(t *testing.T) testStore {
			s, err := sqlite.Open(context.Background(), filepath.Join(t.TempDir(), "index.db"), sqlite.Options{})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		},
	}
	if url := os.Getenv("GDS_TEST_DATABASE_URL"); url != "" {
		out["postgres"] = func(t *testing.T) testStore {
			s, err := postgres.Open(context.Background(), url, postgres.WithSchema(storetest.FreshSchema(t, url, "gds_graph_")))
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { s.Close() })
			return s
		}
	}
	return out
}

// chunkText splits text into chunks of about size characters at line ends.
func chunkText(text string, size int) []string {
	var out []string
	var cur strings.Builder
	for _, line := range strings.Split(text, "\n") {
		if cur.Len() > 0 && cur.Len()+len(line) > size {
			out = append(out, cur.String())
			cur.Reset()
		}
		cur.WriteString(line)
		cur.WriteByte('\n')
	}
	if strings.TrimSpace(cur.String()) != "" {
		out = append(out, cur.String())
	}
	return out
}

// index writes a file and its chunks with offline embeddings.
func index(t *testing.T, s store.Store, id, name, text string, chunkSize int) int {
	t.Helper()
	ctx := context.Background()
	if err := s.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: offline.EmbeddingModelName, Dim: offline.EmbeddingDim}); err != nil {
		t.Fatal(err)
	}
	var chunks []store.Chunk
	for i, c := range chunkText(text, chunkSize) {
		chunks = append(chunks, store.Chunk{Ordinal: i, Text: c, Embedding: offline.Embedding(c)})
	}
	f := store.File{ID: id, Name: name, Text: text, Embedding: offline.Embedding(name), MimeType: "text/plain",
		WebLink: "file:///docs/" + name, ModifiedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC), IndexedAt: time.Now(), Source: "local"}
	if err := s.UpsertFile(ctx, f, chunks); err != nil {
		t.Fatal(err)
	}
	return len(chunks)
}

// corpus indexes two articles of testdata/graphcorpus (one English, the
// short Japanese one, to keep the race build of the test quick) and
// returns file ID → name.
func corpus(t *testing.T, s store.Store) (map[string]string, int) {
	t.Helper()
	dir := filepath.Join("..", "..", "testdata", "graphcorpus")
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	names := map[string]string{}
	n := 0
	for _, e := range entries {
		if e.Name() != "squad-0001.txt" && e.Name() != "jsquad-0004.txt" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		id := "id-" + strings.TrimSuffix(e.Name(), ".txt")
		names[id] = e.Name()
		n += index(t, s, id, e.Name(), string(b), 3000)
	}
	return names, n
}

func checkChain(t *testing.T, res graph.Result, names map[string]string) {
	t.Helper()
	refs := res.References
	if strings.TrimSpace(res.Answer) == "" {
		t.Fatalf("%s: empty answer", res.Mode)
	}
	if len(refs.Documents) == 0 || len(refs.Chunks) == 0 || len(refs.Entities) == 0 {
		t.Fatalf("%s: reference chain has %d documents, %d chunks, %d entities", res.Mode, len(refs.Documents), len(refs.Chunks), len(refs.Entities))
	}
	docs := map[string]bool{}
	for _, d := range refs.Documents {
		if names[d.ID] != d.Name || d.Link != "file:///docs/"+d.Name {
			t.Errorf("%s: document %+v is not a corpus file", res.Mode, d)
		}
		docs[d.ID] = true
	}
	chunks := map[string]bool{}
	for _, c := range refs.Chunks {
		if !docs[c.DocumentID] || c.ID != store.ChunkID(c.DocumentID, c.Ordinal) {
			t.Errorf("%s: chunk %+v has no document in the chain", res.Mode, c)
		}
		chunks[c.ID] = true
	}
	for _, e := range refs.Entities {
		for _, c := range e.ChunkIDs {
			if !chunks[c] {
				t.Errorf("%s: entity %s names chunk %s, missing from the chain", res.Mode, e.ID, c)
			}
		}
	}
	ents := map[string]bool{}
	for _, e := range refs.Entities {
		ents[e.ID] = true
	}
	if res.Mode == graph.ModeGlobal {
		if len(refs.Reports) == 0 {
			t.Fatalf("global: no report in the chain")
		}
		for _, r := range refs.Reports {
			for _, e := range r.EntityIDs {
				if !ents[e] {
					t.Errorf("global: report %s names entity %s, missing from the chain", r.ID, e)
				}
			}
		}
	}
}

func TestBuildIncrementalAndQuery(t *testing.T) {
	for name, open := range backends(t) {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			s := open(t)
			names, nChunks := corpus(t, s)
			prov := offline.New()
			searcher := &graph.Searcher{Graph: s, Index: s, Provider: prov, Counter: tokens.O200k, Lang: "en"}
			q := graph.Query{Question: "Which team won Super Bowl 50 and who was its quarterback?", Params: graph.DefaultParams(), NoData: "NO DATA"}

			// Before any build: the error names gds graph build.
			_, err := searcher.Run(ctx, q)
			if !errors.Is(err, apperr.NoIndex) || !errors.Is(err, graph.ErrNoGraph) || !strings.Contains(err.Error(), "gds graph build") {
				t.Fatalf("query before build: %v, want a no_index error naming gds graph build", err)
			}

			var phases []string
			b := &graph.Builder{Index: s, Graph: s, Provider: prov, Counter: tokens.O200k, Lang: "en", Concurrency: 2,
				OnProgress: func(p graph.Progress) {
					if len(phases) == 0 || phases[len(phases)-1] != p.Phase {
						phases = append(phases, p.Phase)
					}
				}}
			st, err := b.Build(ctx, graph.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if st.Chunks != nChunks || st.Extracted != nChunks || st.ExtractCalls != 2*nChunks {
				t.Fatalf("first build: %+v; want %d chunks all extracted with one gleaning call each", st, nChunks)
			}
			if st.Entities == 0 || st.Communities == 0 || st.Reports != st.Communities || st.ReportCalls != st.Communities {
				t.Fatalf("first build: %+v", st)
			}
			if !slices.Equal(phases, []string{graph.PhaseScan, graph.PhaseExtract, graph.PhaseEmbed, graph.PhaseCommunity, graph.PhaseReport, graph.PhaseSave}) {
				t.Errorf("progress phases = %v", phases)
			}

			// Nothing changed: no model call.
			st2, err := b.Build(ctx, graph.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if st2.Extracted != 0 || st2.ExtractCalls != 0 || st2.ReportCalls != 0 || st2.ReportsReused != st.Communities || st2.Communities != st.Communities {
				t.Fatalf("unchanged rebuild: %+v", st2)
			}

			// One file changes: only its chunk is extracted again and only
			// the communities it reaches get a new report.
			index(t, s, "id-extra", "extra.txt", "Peyton Manning met Ada Lovelace in Denver.\n", 3000)
			st3, err := b.Build(ctx, graph.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if st3.Extracted != 1 || st3.Reused != nChunks {
				t.Fatalf("after adding a file: %+v, want 1 chunk extracted", st3)
			}
			if st3.ReportCalls == 0 || st3.ReportCalls >= st3.Communities {
				t.Fatalf("after adding a file: %d report calls for %d communities, want some but not all", st3.ReportCalls, st3.Communities)
			}

			// The file is deleted: its contributions go.
			if err := s.DeleteFiles(ctx, []string{"id-extra"}); err != nil {
				t.Fatal(err)
			}
			st4, err := b.Build(ctx, graph.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if st4.Removed != 1 || st4.Extracted != 0 || st4.Entities != st.Entities {
				t.Fatalf("after deleting the file: %+v, want 1 removed and the first build's %d entities", st4, st.Entities)
			}
			g, err := s.LoadGraph(ctx)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range g.Entities {
				if slices.ContainsFunc(e.ChunkIDs, func(c string) bool { return strings.HasPrefix(c, "id-extra#") }) {
					t.Fatalf("entity %s still cites the deleted file", e.Name)
				}
			}

			for _, mode := range graph.Modes {
				q.Mode = mode
				var streamed strings.Builder
				q.OnText = func(s string) error { streamed.WriteString(s); return nil }
				res, err := searcher.Run(ctx, q)
				if err != nil {
					t.Fatalf("%s: %v", mode, err)
				}
				if streamed.String() != res.Answer || !res.Extractive || res.Mode != mode {
					t.Errorf("%s: streamed %q, answer %q, extractive %v", mode, streamed.String(), res.Answer, res.Extractive)
				}
				checkChain(t, res, names)
				switch mode {
				case graph.ModeGlobal:
					if res.Calls.Map != res.Batches || res.Batches == 0 || res.Calls.Answer != 1 || res.Calls.PromptTokens == 0 {
						t.Errorf("global calls = %+v, %d batches", res.Calls, res.Batches)
					}
					if !slices.ContainsFunc(res.References.Documents, func(d graph.RefDocument) bool { return d.Name == "squad-0001.txt" }) {
						t.Errorf("global: the Super Bowl article is not among the sources %v", res.References.Documents)
					}
				case graph.ModeLocal:
					if res.Calls.Map != 0 || res.Calls.Answer != 1 || res.Calls.Embed != 1 {
						t.Errorf("local calls = %+v", res.Calls)
					}
				case graph.ModeDrift:
					if res.Calls.Drift < 2 || len(res.Steps) != res.Calls.Drift || !slices.ContainsFunc(res.Steps, func(a graph.DriftAnswer) bool { return a.Depth > 0 }) {
						t.Errorf("drift: %d calls, steps %+v: want a primer and follow-ups", res.Calls.Drift, res.Steps)
					}
				}
			}

			// Min rank above every report: nothing to read, the fixed reply, no map call.
			q.Mode, q.OnText = graph.ModeGlobal, nil
			q.MinCommunityRank = 10.5
			res, err := searcher.Run(ctx, q)
			if err != nil {
				t.Fatal(err)
			}
			if !res.NoData || res.Answer != "NO DATA" || res.Calls.Map != 0 {
				t.Fatalf("min rank 10.5: %+v", res)
			}
			// Level 0 only reads fewer (coarser) reports than level 2.
			q.MinCommunityRank = 0
			q.CommunityLevel = 0
			top, _ := searcher.Run(ctx, q)
			q.CommunityLevel = 2
			deep, _ := searcher.Run(ctx, q)
			if top.Batches > deep.Batches || len(graph.SelectReports(g.Communities, nil, 0, 0, true)) != 0 {
				t.Errorf("level 0: %d batches, level 2: %d", top.Batches, deep.Batches)
			}

			// --full forgets everything and extracts again.
			st5, err := b.Build(ctx, graph.BuildOptions{Full: true})
			if err != nil {
				t.Fatal(err)
			}
			if st5.Extracted != nChunks || st5.Reports != st5.Communities {
				t.Fatalf("full rebuild: %+v", st5)
			}
		})
	}
}

// failing fails every extraction call after the first n.
type failing struct {
	ai.Provider
	n     int64
	calls atomic.Int64
}

var errBoom = errors.New("boom")

func (f *failing) Structured(ctx context.Context, req ai.Request) (json.RawMessage, error) {
	if req.Task == ai.TaskGraphExtract && f.calls.Add(1) > f.n {
		return nil, errBoom
	}
	return f.Provider.Structured(ctx, req)
}

func TestBuildResumesAfterAFailure(t *testing.T) {
	ctx := context.Background()
	s := backends(t)["sqlite"](t)
	_, n := corpus(t, s)
	// Two calls per chunk (extraction and gleaning): three chunks are
	// committed before the seventh call fails.
	f := &failing{Provider: offline.New(), n: 6}
	b := &graph.Builder{Index: s, Graph: s, Provider: f, Counter: tokens.O200k, Concurrency: 1}
	if _, err := b.Build(ctx, graph.BuildOptions{}); !errors.Is(err, errBoom) {
		t.Fatalf("Build = %v, want the provider's error", err)
	}
	h, _ := s.GraphTextHashes(ctx)
	if len(h) != 3 {
		t.Fatalf("%d extractions committed before the failure, want 3", len(h))
	}
	b.Provider = offline.New()
	st, err := b.Build(ctx, graph.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if st.Extracted != n-3 || st.Reused != 3 {
		t.Fatalf("resumed build: %+v, want %d extracted and 3 reused", st, n-3)
	}

}

// A graph without entities, communities, weights or reports cannot be
// searched globally: the error names gds graph build.
func TestQueryRefusesAnIncompleteGraph(t *testing.T) {
	ctx := context.Background()
	ent := store.GraphEntity{ID: "e1", Name: "A", ChunkIDs: []string{"f#0"}}
	comm := store.GraphCommunity{ID: "0", EntityIDs: []string{"e1"}, Weight: 1, Signature: "s"}
	built := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		name   string
		g      store.Graph
		report bool
	}{
		{"no entities", store.Graph{Communities: []store.GraphCommunity{comm}, BuiltAt: built}, true},
		{"no communities", store.Graph{Entities: []store.GraphEntity{ent}, BuiltAt: built}, true},
		{"no weight", store.Graph{Entities: []store.GraphEntity{ent}, Communities: []store.GraphCommunity{{ID: "0", EntityIDs: []string{"e1"}, Signature: "s"}}, BuiltAt: built}, true},
		{"no reports", store.Graph{Entities: []store.GraphEntity{ent}, Communities: []store.GraphCommunity{comm}, BuiltAt: built}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := backends(t)["sqlite"](t)
			if tc.report {
				if err := s.PutGraphReport(ctx, store.GraphReport{Signature: "s", Data: []byte(`{"title":"t","rank":5}`)}); err != nil {
					t.Fatal(err)
				}
			}
			if err := s.ReplaceGraph(ctx, tc.g); err != nil {
				t.Fatal(err)
			}
			se := &graph.Searcher{Graph: s, Index: s, Provider: offline.New(), Counter: tokens.O200k}
			_, err := se.Run(ctx, graph.Query{Question: "q", Params: graph.DefaultParams()})
			if !errors.Is(err, graph.ErrNoGraph) || !errors.Is(err, apperr.NoIndex) || !strings.Contains(err.Error(), "gds graph build") {
				t.Fatalf("Run = %v, want the missing-graph error", err)
			}
		})
	}
}

// --folder builds the graph of one folder's documents and keeps the
// extractions of the others for a later build of the whole index.
func TestBuildFolder(t *testing.T) {
	ctx := context.Background()
	s := backends(t)["sqlite"](t)
	index(t, s, "a", "a.txt", "The Denver Broncos beat the Carolina Panthers.\n", 3000)
	index(t, s, "b", "b.txt", "Ada Lovelace worked with Charles Babbage in London.\n", 3000)
	f, err := s.GetFiles(ctx, []string{"b"})
	if err != nil || len(f) != 1 {
		t.Fatal(f, err)
	}
	f[0].Path = "Notes/History"
	f[0].Text = "Ada Lovelace worked with Charles Babbage in London.\n"
	emb := offline.Embedding(f[0].Text)
	if err := s.UpsertFile(ctx, f[0], []store.Chunk{{Ordinal: 0, Text: f[0].Text, Embedding: emb}}); err != nil {
		t.Fatal(err)
	}
	b := &graph.Builder{Index: s, Graph: s, Provider: offline.New(), Counter: tokens.O200k}
	if _, err := b.Build(ctx, graph.BuildOptions{}); err != nil {
		t.Fatal(err)
	}
	st, err := b.Build(ctx, graph.BuildOptions{Folder: "/Notes/"})
	if err != nil {
		t.Fatal(err)
	}
	if st.Folder != "Notes" || st.Chunks != 1 || st.Extracted != 0 || st.Removed != 0 {
		t.Fatalf("folder build: %+v", st)
	}
	g, _ := s.LoadGraph(ctx)
	for _, e := range g.Entities {
		if strings.Contains(e.Name, "Broncos") {
			t.Fatalf("the folder's graph holds %q from outside it", e.Name)
		}
	}
	if g.Folder != "Notes" {
		t.Fatalf("graph folder = %q", g.Folder)
	}
	if h, _ := s.GraphTextHashes(ctx); len(h) != 2 {
		t.Fatalf("%d extractions kept, want both", len(h))
	}
}
