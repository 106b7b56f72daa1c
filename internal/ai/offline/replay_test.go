package offline

// The replay of the final ranking: re-scores captured searches with other
// rerank weights and fusion weights in seconds, without running the loop.
// It is how the reranker's signals and weights were chosen (see
// docs/BENCHMARKS.md, "Search quality"). Capture a set once:
//
//	gds eval --corpus C --queries Q --json --details DIR/base-SET.jsonl --capture DIR/cap-SET.jsonl
//
// then:
//
//	RERANK_REPLAY=DIR RERANK_SETS=en,ja go test -run 'TestReplay' -v ./internal/ai/offline/
//
// TestReplay prints the shipped weights' figures and each signal left out;
// TestReplayAscent fits the weights by coordinate ascent over a round grid
// on all queries and by 2-fold cross-validation. The capture must come from
// a binary with the same query analysis and retrieval (the replay only
// redoes the rerank, FuseOrders and the complement). Without RERANK_REPLAY
// both skip.

import (
	"bufio"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/store"
)

// capRec is one line of a capture (search.RankTrace).
type capRec struct {
	Query     string         `json:"query"`
	Keywords  []string       `json:"keywords"`
	Cands     []ai.HitInfo   `json:"cands"`
	DocFreq   map[string]int `json:"docfreq"`
	Docs      int            `json:"docs"`
	Retrieval []string       `json:"retrieval"`
	Whole     []string       `json:"whole"`
	Final     []string       `json:"final"`
}

// detRec is one line of gds eval --details.
type detRec struct {
	ID       string   `json:"id"`
	Query    string   `json:"query"`
	Relevant []string `json:"relevant"`
	Rank     int      `json:"rank"`
	Files    []string `json:"files"`
}

func readJSONL[T any](t *testing.T, path string) []T {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<26)
	for sc.Scan() {
		var r T
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		out = append(out, r)
	}
	return out
}

// rrf is search.FuseOrders (keep 0: the first list's IDs only) and
// search.FuseKeep (keep n: both lists' IDs, the best n) with rank
// constant k: store.Fuse, as they call it with store.FusionK.
func rrf(k float64, first, second []string, w float64, keep int) []string {
	inFirst := make(map[string]bool, len(first))
	for _, id := range first {
		inFirst[id] = true
	}
	var out []string
	for _, h := range store.Fuse(k, store.Order[string]{Keys: first, Weight: 1}, store.Order[string]{Keys: second, Weight: w}) {
		if keep > 0 || inFirst[h.Key] {
			out = append(out, h.Key)
		}
	}
	if keep > 0 && len(out) > keep {
		out = out[:keep]
	}
	return out
}

// replaySet is one query set: the details of every query, the captures
// of the reranked ones (by index into dets), file names by ID, and each
// captured search's signals.
type replaySet struct {
	name  string
	dets  []detRec
	caps  map[int]capRec
	names map[string]string
	sig   map[int][nsig][]float64
}

func loadReplay(t *testing.T, dir, set string) replaySet {
	dets := readJSONL[detRec](t, filepath.Join(dir, "base-"+set+".jsonl"))
	caps := readJSONL[capRec](t, filepath.Join(dir, "cap-"+set+".jsonl"))
	byQ := map[string][]capRec{}
	names := map[string]string{}
	for _, c := range caps {
		byQ[c.Query] = append(byQ[c.Query], c)
		for _, h := range c.Cands {
			names[h.ID] = h.Name
		}
	}
	rs := replaySet{name: set, dets: dets, caps: map[int]capRec{}, names: names, sig: map[int][nsig][]float64{}}
	for i, d := range dets {
		l := byQ[d.Query]
		if len(l) == 0 {
			continue
		}
		c := l[0]
		byQ[d.Query] = l[1:]
		rs.caps[i] = c
		// The final order's files name the IDs the complement added.
		for j, id := range c.Final {
			if j < len(d.Files) {
				names[id] = d.Files[j]
			}
		}
		if len(c.Cands) > 0 {
			rs.sig[i] = rerankSignals(ai.RerankInput{Query: c.Query, Keywords: c.Keywords, Candidates: c.Cands, DocFreq: c.DocFreq, Docs: c.Docs})
		}
	}
	return rs
}

// replayKnobs are the weights replayed: the rerank signals', and
// run.go's weightRetrieval, weightWholeQuery, store.FusionK and KeepFirst.
type replayKnobs struct {
	w             [nsig]float64
	wRet, wWhole  float64
	k             float64
	keepWholeBest bool
}

// shipped are the weights in the code.
var shipped = replayKnobs{w: rerankWeights, wRet: 0.1, wWhole: 0.3, k: store.FusionK, keepWholeBest: true}

// ranks returns every query's rank of its first relevant file in the top
// 10 (0 = not there); queries that were not reranked keep the details'.
func (rs replaySet) ranks(kn replayKnobs) []int {
	out := make([]int, len(rs.dets))
	for i, d := range rs.dets {
		c, ok := rs.caps[i]
		if !ok {
			out[i] = d.Rank
			continue
		}
		var order []string
		if len(c.Cands) > 0 {
			order = combineSignals(ai.RerankInput{Candidates: c.Cands}, rs.sig[i], kn.w).Order
		}
		final := rrf(kn.k, order, c.Retrieval, kn.wRet, 0)
		if len(c.Whole) > 0 {
			final = rrf(kn.k, final, c.Whole, kn.wWhole, 10)
			if kn.keepWholeBest && !containsID(final, c.Whole[0]) && len(final) >= 10 {
				final[9] = c.Whole[0]
			}
		}
		rel := map[string]bool{}
		for _, r := range d.Relevant {
			rel[r] = true
		}
		for j, id := range final {
			if j < 10 && rel[rs.names[id]] {
				out[i] = j + 1
				break
			}
		}
	}
	return out
}

func containsID(ids []string, id string) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// metrics are R@1, R@10 and MRR@10 over the queries idx (nil = all).
func metrics(r []int, idx []int) (r1, r10, mrr float64) {
	if idx == nil {
		for i := range r {
			idx = append(idx, i)
		}
	}
	for _, i := range idx {
		if r[i] == 1 {
			r1++
		}
		if r[i] >= 1 && r[i] <= 10 {
			r10++
			mrr += 1 / float64(r[i])
		}
	}
	n := float64(len(idx))
	return r1 / n, r10 / n, mrr / n
}

// diff counts queries gained and lost at rank 1 and in the top 10.
func diff(a, b []int) string {
	in := func(x int) bool { return x >= 1 && x <= 10 }
	var g1, l1, g10, l10 int
	for i := range a {
		switch {
		case a[i] != 1 && b[i] == 1:
			g1++
		case a[i] == 1 && b[i] != 1:
			l1++
		}
		switch {
		case !in(a[i]) && in(b[i]):
			g10++
		case in(a[i]) && !in(b[i]):
			l10++
		}
	}
	return fmt.Sprintf("R@1 +%d/-%d, R@10 +%d/-%d", g1, l1, g10, l10)
}

func replaySets(t *testing.T) []replaySet {
	dir := os.Getenv("RERANK_REPLAY")
	if dir == "" {
		t.Skip("RERANK_REPLAY not set (see the comment at the top of replay_test.go)")
	}
	sets := os.Getenv("RERANK_SETS")
	if sets == "" {
		sets = "en,ja"
	}
	var out []replaySet
	for _, s := range strings.Split(sets, ",") {
		out = append(out, loadReplay(t, dir, s))
	}
	return out
}

var signalNames = [nsig]string{"bm25f", "coverage", "pairs", "sentence", "answer", "passage", "heading", "han"}

func TestReplay(t *testing.T) {
	sets := replaySets(t)
	line := func(name string, kn replayKnobs) {
		s := name
		for _, rs := range sets {
			var det []int
			for _, d := range rs.dets {
				det = append(det, d.Rank)
			}
			r := rs.ranks(kn)
			x, y, z := metrics(r, nil)
			s += fmt.Sprintf(" | %s %.4f/%.4f/%.4f (against the capture: %s)", rs.name, x, y, z, diff(det, r))
		}
		t.Log(s)
	}
	line("shipped", shipped)
	for i, nm := range signalNames {
		kn := shipped
		kn.w[i] = 0
		line("without "+nm, kn)
	}
	kn := shipped
	kn.keepWholeBest = false
	line("complement without KeepFirst", kn)
}

// knob returns the i-th replayed weight: the signals', then wRet, wWhole.
func knob(k *replayKnobs, i int) *float64 {
	switch {
	case i < nsig:
		return &k.w[i]
	case i == nsig:
		return &k.wRet
	default:
		return &k.wWhole
	}
}

func knobGrid(i int) []float64 {
	switch i {
	case nsig:
		return []float64{0, 0.1, 0.25, 0.5, 1}
	case nsig + 1:
		return []float64{0.3, 0.5, 0.7, 1, 1.5}
	}
	return []float64{0, 0.25, 0.5, 1, 1.5, 2, 3}
}

func (k replayKnobs) String() string {
	s := ""
	for i, n := range signalNames {
		s += fmt.Sprintf("%s=%g ", n, k.w[i])
	}
	return s + fmt.Sprintf("wRet=%g wWhole=%g", k.wRet, k.wWhole)
}

// objective is the mean over the sets of R@1 + MRR@10/10 on idx[set].
func objective(sets []replaySet, k replayKnobs, idx [][]int) float64 {
	var o float64
	for si, rs := range sets {
		r1, _, mrr := metrics(rs.ranks(k), idx[si])
		o += r1 + mrr/10
	}
	return o / float64(len(sets))
}

// ascend is coordinate ascent over the knobs' grids, up to three rounds.
func ascend(sets []replaySet, start replayKnobs, idx [][]int) replayKnobs {
	best, bo := start, objective(sets, start, idx)
	for range 3 {
		improved := false
		for i := range nsig + 2 {
			for _, v := range knobGrid(i) {
				k := best
				*knob(&k, i) = v
				if o := objective(sets, k, idx); o > bo+1e-9 {
					bo, best, improved = o, k, true
				}
			}
		}
		if !improved {
			break
		}
	}
	return best
}

func TestReplayAscent(t *testing.T) {
	sets := replaySets(t)
	report := func(label string, k replayKnobs, idx [][]int) {
		s := label
		for si, rs := range sets {
			x, y, z := metrics(rs.ranks(k), idx[si])
			s += fmt.Sprintf(" | %s %.4f/%.4f/%.4f", rs.name, x, y, z)
		}
		t.Log(s)
	}
	all := make([][]int, len(sets))
	fit := ascend(sets, shipped, all)
	t.Logf("fit on all: %v", fit)
	report("fit on all", fit, all)
	report("shipped on all", shipped, all)
	// 2-fold cross-validation by query position parity.
	folds := [2][][]int{make([][]int, len(sets)), make([][]int, len(sets))}
	for si, rs := range sets {
		for i := range rs.dets {
			folds[i%2][si] = append(folds[i%2][si], i)
		}
	}
	for f := range 2 {
		k := ascend(sets, shipped, folds[f])
		t.Logf("fold %d fit: %v", f, k)
		report(fmt.Sprintf("fold %d fit on fold %d (held out)", f, 1-f), k, folds[1-f])
		report(fmt.Sprintf("shipped on fold %d", 1-f), shipped, folds[1-f])
	}
}

// halfOf splits a query set by its questions' IDs: "tune" when the first
// byte of the ID's SHA-256 is even, else "report" — the half a change is
// developed on and the half its figure is reported on.
func halfOf(id string) string {
	if sha256.Sum256([]byte(id))[0]%2 == 0 {
		return "tune"
	}
	return "report"
}

// TestReplayHalves prints the shipped weights' figures on the tune half
// of every set (halfOf), and with RERANK_REPORT=1 on the report half:
// develop on the tune half, report the other once.
func TestReplayHalves(t *testing.T) {
	for _, rs := range replaySets(t) {
		r := rs.ranks(shipped)
		halves := []string{"tune"}
		if os.Getenv("RERANK_REPORT") == "1" {
			halves = append(halves, "report")
		}
		for _, h := range halves {
			var idx []int
			for i, d := range rs.dets {
				if halfOf(d.ID) == h {
					idx = append(idx, i)
				}
			}
			x, y, z := metrics(r, idx)
			t.Logf("%s %s (%d questions): R@1 %.4f R@10 %.4f MRR@10 %.4f", rs.name, h, len(idx), x, y, z)
		}
	}
}
