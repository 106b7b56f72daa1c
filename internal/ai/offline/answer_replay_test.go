package offline

// The replay of the offline answer: re-writes captured answers with other
// weights in seconds, without retrieval. It is how the answer's weights and
// gaps were chosen (docs/BENCHMARKS.md, "Question answering"). Capture a
// set once:
//
//	gds eval --mode answer --corpus C --queries Q --json --details DIR/details-SET.jsonl --capture DIR/cap-SET.jsonl
//
// then:
//
//	ANSWER_REPLAY=DIR ANSWER_SETS=en,ja go test -run 'TestAnswerReplay' -v ./internal/ai/offline/
//
// Questions are split by their id: the tuning half (the last byte of the
// id's SHA-256 even) and the held-out half. TestAnswerReplay prints the
// shipped settings' figures on both halves; TestAnswerReplayAscent fits
// the settings by coordinate ascent on the tuning half only (the held-out
// half is printed, never used). Without ANSWER_REPLAY both skip.

import (
	"crypto/sha256"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/eval"
)

// answerReplayCase is one question with its captured answer input.
type answerReplayCase struct {
	in    ai.AnswerInput
	golds []string
	tune  bool
}

// answerReplaySet is one set's questions (captured or not: a question without
// a capture had no passages and counts as a miss).
type answerReplaySet struct {
	name        string
	cases       []answerReplayCase
	tuneN, test int // questions in each half, captured or not
}

func loadAnswerReplay(t *testing.T) []answerReplaySet {
	dir := os.Getenv("ANSWER_REPLAY")
	if dir == "" {
		t.Skip("ANSWER_REPLAY not set")
	}
	sets := strings.Split(os.Getenv("ANSWER_SETS"), ",")
	if sets[0] == "" {
		sets = []string{"en", "ja"}
	}
	var out []answerReplaySet
	for _, set := range sets {
		type detail struct {
			ID      string   `json:"id"`
			Query   string   `json:"query"`
			Answers []string `json:"answers"`
		}
		dets := readJSONL[detail](t, filepath.Join(dir, "details-"+set+".jsonl"))
		caps := readJSONL[eval.AnswerCapture](t, filepath.Join(dir, "cap-"+set+".jsonl"))
		byQ := map[string][]eval.AnswerCapture{}
		for _, c := range caps {
			byQ[c.Question] = append(byQ[c.Question], c)
		}
		rs := answerReplaySet{name: set}
		for _, d := range dets {
			sum := sha256.Sum256([]byte(d.ID))
			tune := sum[31]%2 == 0
			if tune {
				rs.tuneN++
			} else {
				rs.test++
			}
			cs := byQ[d.Query]
			if len(cs) == 0 {
				continue
			}
			c := cs[0]
			byQ[d.Query] = cs[1:]
			rs.cases = append(rs.cases, answerReplayCase{in: ai.AnswerInput{Question: c.Question, Lang: c.Lang, Contexts: c.Contexts,
				DocFreq: c.DocFreq, Docs: c.Docs}, golds: d.Answers, tune: tune})
		}
		out = append(out, rs)
	}
	return out
}

// answerReplayScore is one half's figures.
type answerReplayScore struct {
	anywhere, first float64
	median          int
}

func (s answerReplayScore) String() string {
	return fmt.Sprintf("anywhere %.3f first %.3f median %d", s.anywhere, s.first, s.median)
}

// replay answers every case of the half (tune or not) with the current
// settings.
func answerReplay(rs answerReplaySet, tune bool) answerReplayScore {
	var cases []answerReplayCase
	for _, c := range rs.cases {
		if c.tune == tune {
			cases = append(cases, c)
		}
	}
	type res struct {
		any, first bool
		n          int
	}
	out := make([]res, len(cases))
	var wg sync.WaitGroup
	const workers = 2
	for w := range workers {
		wg.Go(func() {
			for i := w; i < len(cases); i += workers {
				a := strings.Join(answer(cases[i].in), "")
				out[i] = res{eval.ContainsAnswer(a, cases[i].golds), eval.ContainsAnswer(eval.FirstSentence(a), cases[i].golds), utf8.RuneCountInString(a)}
			}
		})
	}
	wg.Wait()
	n := rs.test
	if tune {
		n = rs.tuneN
	}
	var s answerReplayScore
	lengths := make([]int, 0, n)
	for _, r := range out {
		if r.any {
			s.anywhere++
		}
		if r.first {
			s.first++
		}
		lengths = append(lengths, r.n)
	}
	for len(lengths) < n {
		lengths = append(lengths, 0) // no passages: no answer text counted
	}
	sort.Ints(lengths)
	s.anywhere /= float64(n)
	s.first /= float64(n)
	if n > 0 {
		s.median = lengths[n/2]
	}
	return s
}

func TestAnswerReplay(t *testing.T) {
	for _, rs := range loadAnswerReplay(t) {
		t.Logf("%s: tune %v; held out %v", rs.name, answerReplay(rs, true), answerReplay(rs, false))
	}
}

// answerReplayKnob is one setting the ascent moves.
type answerReplayKnob struct {
	name string
	p    *float64
	grid []float64
}

func answerReplayKnobs() []answerReplayKnob {
	var ks []answerReplayKnob
	names := []string{"coverage", "window", "prev", "passage", "pairs", "type", "rank", "length", "density", "pronoun", "slot"}
	for i := range answerWeights {
		if i == featCoverage {
			continue // the scale
		}
		ks = append(ks, answerReplayKnob{name: names[i], p: &answerWeights[i], grid: []float64{-0.5, -0.3, -0.2, -0.1, -0.05, -0.02, 0, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 1.25, 1.5}})
	}
	return append(ks,
		answerReplayKnob{"second_gap", &answerSecondGap, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1}},
		answerReplayKnob{"second_gap_long", &answerSecondGapLong, []float64{0, 0.05, 0.1, 0.2, 0.3, 0.5}},
		answerReplayKnob{"tie_gap", &answerTieGap, []float64{0, 0.02, 0.05, 0.1}},
		answerReplayKnob{"type_gap", &answerTypeGap, []float64{0, 0.2, 0.35, 0.5, 0.7, 1}},
		answerReplayKnob{"global_idf", &answerGlobalIDF, []float64{0, 0.25, 0.5, 0.75, 1}},
		answerReplayKnob{"heading_credit", &answerHeadingCredit, []float64{0, 0.25, 0.5, 0.75, 1}},
		answerReplayKnob{"lead_credit", &answerLeadCredit, []float64{0, 0.15, 0.25, 0.35, 0.5}},
		answerReplayKnob{"min_coverage", &answerMinCoverage, []float64{0.05, 0.1, 0.15, 0.2, 0.25, 0.3}},
	)
}

// TestAnswerReplayAscent fits the settings on the tuning half: the mean of
// the sets' first-sentence shares, provided no set's anywhere share falls
// more than 0.002 below the shipped settings' and the English median stays
// within 250 characters.
func TestAnswerReplayAscent(t *testing.T) {
	sets := loadAnswerReplay(t)
	base := make([]answerReplayScore, len(sets))
	for i, rs := range sets {
		base[i] = answerReplay(rs, true)
	}
	objective := func() (float64, bool) {
		sum := 0.0
		for i, rs := range sets {
			s := answerReplay(rs, true)
			if s.anywhere < base[i].anywhere-0.002 || rs.name == "en" && s.median > 250 {
				return 0, false
			}
			sum += s.first
		}
		return sum / float64(len(sets)), true
	}
	best, _ := objective()
	t.Logf("start %.4f", best)
	knobs := answerReplayKnobs()
	if only := os.Getenv("ANSWER_KNOBS"); only != "" { // a subset, e.g. echo,prev
		var keep []answerReplayKnob
		for _, k := range knobs {
			if strings.Contains(","+only+",", ","+k.name+",") {
				keep = append(keep, k)
			}
		}
		knobs = keep
	}
	for round := range 3 {
		improved := false
		for _, k := range knobs {
			keep := *k.p
			for _, v := range k.grid {
				*k.p = v
				if o, ok := objective(); ok && o > best+1e-9 {
					best, keep, improved = o, v, true
				}
			}
			*k.p = keep
			t.Logf("round %d %s = %g: %.4f", round, k.name, keep, best)
		}
		if !improved {
			break
		}
	}
	t.Logf("weights %v second_gap %g long %g tie %g type_gap %g global_idf %g heading_credit %g lead_credit %g min_coverage %g", answerWeights,
		answerSecondGap, answerSecondGapLong, answerTieGap, answerTypeGap, answerGlobalIDF, answerHeadingCredit, answerLeadCredit, answerMinCoverage)
	for _, rs := range sets {
		t.Logf("%s: tune %v; held out %v", rs.name, answerReplay(rs, true), answerReplay(rs, false))
	}
}
