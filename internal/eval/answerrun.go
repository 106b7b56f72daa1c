package eval

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/textseg"
)

// FileNamer loads the files of retrieved chunks (every Store has it).
type FileNamer interface {
	GetFiles(ctx context.Context, ids []string) ([]store.File, error)
}

// AnswerSetup is what RunAnswers measures.
type AnswerSetup struct {
	// Systems retrieve chunks; the first one's chunks feed the Answerer.
	Systems []ChunkSystem
	// Embed embeds a question once for all systems; nil gives them no
	// vector (the vector system then finds nothing).
	Embed func(ctx context.Context, text string) ([]float32, error)
	// Provider names the provider of the embeddings ("" for none).
	Provider string
	// Files names the files of the hits.
	Files FileNamer
	// Answerer, when set, answers every question from the first system's
	// top ContextK chunks, as gds ask does.
	Answerer Answerer
}

// ChunkRef is a retrieved chunk in a result: its file's name and ordinal.
type ChunkRef struct {
	File    string `json:"file"`
	Ordinal int    `json:"chunk_index"`
}

// SystemResult is what one chunk system retrieved for one query.
type SystemResult struct {
	Chunks []ChunkRef
	// AnswerRank is the 1-based position of the first chunk holding a gold
	// answer (AnswerRank), 0 if none does.
	AnswerRank int
	// FileRank is the 1-based position of the first chunk of a relevant
	// file, 0 if none is.
	FileRank int
	Elapsed  time.Duration
}

// AnswerResult is one query's result in answer mode.
type AnswerResult struct {
	Query Query
	// Systems are in the order of AnswerSetup.Systems.
	Systems []SystemResult
	// Answer is the Answerer's answer ("" without one, or when the first
	// system retrieved no chunk: gds ask then says so and asks no model).
	Answer string
	// AnswerHit is true when Answer contains a gold answer (ContainsAnswer).
	AnswerHit bool
	// FirstHit is true when the answer's first sentence (FirstSentence)
	// contains one.
	FirstHit      bool
	AnswerElapsed time.Duration
}

// ContextReport is the context recall of one chunk system.
type ContextReport struct {
	System string `json:"system"`
	// ContextRecallAt5 is the share of queries with a gold answer in one of
	// the top ContextK chunks.
	ContextRecallAt5 float64 `json:"context_recall_at_5"`
	// ContextRecallAt1 is the share with a gold answer in the first chunk.
	ContextRecallAt1 float64 `json:"context_recall_at_1"`
	// FileRecallAt5 is the share with a chunk of the relevant file among
	// the top ContextK chunks.
	FileRecallAt5 float64 `json:"file_recall_at_5"`
	// MeanChunks is the mean number of chunks returned.
	MeanChunks float64 `json:"mean_chunks"`
	// LatencyMS is the retrieval time per query (the question's embedding,
	// shared by the systems, not included).
	LatencyMS Latency `json:"latency_ms"`
}

// AnswerScore measures the answers written from the first system's chunks.
type AnswerScore struct {
	// From is the system whose chunks the answers rest on.
	From     string `json:"from"`
	Provider string `json:"provider"`
	// ContainsAnswer is the share of queries whose answer contains a gold
	// answer string.
	ContainsAnswer float64 `json:"contains_answer"`
	// ContainsAnswerGivenContext is that share among the queries whose
	// chunks held a gold answer (how much the answer step loses).
	ContainsAnswerGivenContext float64 `json:"contains_answer_given_context"`
	// FirstSentenceContainsAnswer is the share whose answer's first
	// sentence (FirstSentence) contains a gold answer.
	FirstSentenceContainsAnswer float64 `json:"first_sentence_contains_answer"`
	// MedianAnswerChars is the median length of the answers in characters
	// (runes, citations included), and P90AnswerChars the 90th percentile.
	MedianAnswerChars int `json:"median_answer_chars"`
	P90AnswerChars    int `json:"p90_answer_chars"`
	// Answered is the number of answers that cite a passage (an answer
	// that cites none says the passages do not answer).
	Answered  int     `json:"answered"`
	LatencyMS Latency `json:"latency_ms"`
}

// AnswerReport is the result of an answer-mode evaluation.
type AnswerReport struct {
	Queries int `json:"queries"`
	// K is ContextK.
	K int `json:"k"`
	// Provider embedded the questions and the index.
	Provider string `json:"provider"`
	// Normalization is how answers and texts are normalised before matching.
	Normalization string          `json:"normalization"`
	Systems       []ContextReport `json:"systems"`
	Answer        *AnswerScore    `json:"answer,omitempty"`
}

// ErrNoAnswers is returned for a query without gold answers: answer mode
// needs them.
var ErrNoAnswers = errors.New("the query has no gold \"answers\"")

// RunAnswers runs every query through every chunk system (top ContextK)
// and, with an Answerer, answers it from the first system's chunks. It
// returns the report and the queries' results in input order; the first
// failing query stops the run.
func RunAnswers(ctx context.Context, s AnswerSetup, queries []Query, opts Options) (AnswerReport, []AnswerResult, error) {
	if len(s.Systems) == 0 {
		return AnswerReport{}, nil, errors.New("answer evaluation: no system")
	}
	for _, q := range queries {
		if len(normalizeAnswers(q.Answers)) == 0 {
			return AnswerReport{}, nil, fmt.Errorf("query %s (%q): %w", q.ID, q.Query, ErrNoAnswers)
		}
	}
	clock := opts.Clock
	if clock == nil {
		clock = time.Now
	}
	results := make([]AnswerResult, len(queries))
	err := forEachQuery(ctx, queries, opts.Workers, opts.Progress, func(ctx context.Context, i int) error {
		r, err := answerQuery(ctx, s, queries[i], clock)
		results[i] = r
		return err
	})
	if err != nil {
		return AnswerReport{}, nil, err
	}
	return summarizeAnswers(s, results), results, nil
}

// answerQuery runs one query.
func answerQuery(ctx context.Context, s AnswerSetup, q Query, clock func() time.Time) (AnswerResult, error) {
	res := AnswerResult{Query: q, Systems: make([]SystemResult, len(s.Systems))}
	question := Question{Text: q.Query}
	if s.Embed != nil {
		v, err := s.Embed(ctx, q.Query)
		if err != nil {
			return res, fmt.Errorf("embed the question: %w", err)
		}
		question.Vector = v
	}
	hits := make([][]store.ChunkHit, len(s.Systems))
	for i, sys := range s.Systems {
		start := clock()
		h, err := sys.Retrieve(ctx, question, ContextK)
		res.Systems[i].Elapsed = clock().Sub(start)
		if err != nil {
			return res, fmt.Errorf("%s: %w", sys.Name(), err)
		}
		hits[i] = h[:min(ContextK, len(h))]
	}
	names, err := fileNames(ctx, s.Files, hits)
	if err != nil {
		return res, err
	}
	for i, hs := range hits {
		sr := &res.Systems[i]
		texts := make([]string, len(hs))
		files := make([]string, len(hs))
		for j, h := range hs {
			texts[j] = h.Text
			files[j] = names[h.FileID]
			sr.Chunks = append(sr.Chunks, ChunkRef{File: files[j], Ordinal: h.Ordinal})
		}
		sr.AnswerRank = AnswerRank(texts, q.Answers)
		sr.FileRank = Rank(files, q.Relevant)
	}
	if s.Answerer != nil && len(hits[0]) > 0 {
		ps := make([]Passage, len(hits[0]))
		for j, h := range hits[0] {
			ps[j] = Passage{File: names[h.FileID], Page: h.Page, Text: h.Text}
		}
		start := clock()
		a, err := s.Answerer.Answer(ctx, q.Query, ps)
		res.AnswerElapsed = clock().Sub(start)
		if err != nil {
			return res, fmt.Errorf("answer: %w", err)
		}
		res.Answer, res.AnswerHit = a, ContainsAnswer(a, q.Answers)
		res.FirstHit = ContainsAnswer(FirstSentence(a), q.Answers)
	}
	return res, nil
}

// fileNames maps the file IDs of the hits to the files' names.
func fileNames(ctx context.Context, fn FileNamer, hits [][]store.ChunkHit) (map[string]string, error) {
	names := map[string]string{}
	var ids []string
	for _, hs := range hits {
		for _, h := range hs {
			if _, ok := names[h.FileID]; !ok {
				names[h.FileID] = h.FileID // until loaded
				ids = append(ids, h.FileID)
			}
		}
	}
	if len(ids) == 0 || fn == nil {
		return names, nil
	}
	files, err := fn.GetFiles(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load the files of the chunks: %w", err)
	}
	for _, f := range files {
		names[f.ID] = f.Name
	}
	return names, nil
}

// summarizeAnswers computes the report of the results.
func summarizeAnswers(s AnswerSetup, results []AnswerResult) AnswerReport {
	rep := AnswerReport{Queries: len(results), K: ContextK, Provider: s.Provider, Normalization: Normalization}
	n := float64(len(results))
	share := func(k int, of float64) float64 {
		if of == 0 {
			return 0
		}
		return round4(float64(k) / of)
	}
	for i, sys := range s.Systems {
		var at5, at1, file, chunks int
		lat := make([]time.Duration, 0, len(results))
		for _, r := range results {
			sr := r.Systems[i]
			if sr.AnswerRank > 0 {
				at5++
			}
			if sr.AnswerRank == 1 {
				at1++
			}
			if sr.FileRank > 0 {
				file++
			}
			chunks += len(sr.Chunks)
			lat = append(lat, sr.Elapsed)
		}
		rep.Systems = append(rep.Systems, ContextReport{
			System: sys.Name(), ContextRecallAt5: share(at5, n), ContextRecallAt1: share(at1, n),
			FileRecallAt5: share(file, n), MeanChunks: share(chunks, n), LatencyMS: latency(lat),
		})
	}
	if s.Answerer != nil {
		var hit, ctxHit, withCtx, first, answered int
		lat := make([]time.Duration, 0, len(results))
		lengths := make([]int, 0, len(results))
		for _, r := range results {
			if r.AnswerHit {
				hit++
			}
			if r.FirstHit {
				first++
			}
			if Cites(r.Answer) {
				answered++
			}
			lengths = append(lengths, utf8.RuneCountInString(r.Answer))
			if r.Systems[0].AnswerRank > 0 {
				withCtx++
				if r.AnswerHit {
					ctxHit++
				}
			}
			lat = append(lat, r.AnswerElapsed)
		}
		rep.Answer = &AnswerScore{
			From: s.Systems[0].Name(), Provider: s.Answerer.Provider(),
			ContainsAnswer: share(hit, n), ContainsAnswerGivenContext: share(ctxHit, float64(withCtx)),
			FirstSentenceContainsAnswer: share(first, n), MedianAnswerChars: percentile(lengths, 50),
			P90AnswerChars: percentile(lengths, 90), Answered: answered, LatencyMS: latency(lat),
		}
	}
	return rep
}

// AnswerDetail is one line of an answer-mode details file.
type AnswerDetail struct {
	ID       string                  `json:"id"`
	Query    string                  `json:"query"`
	Relevant []string                `json:"relevant"`
	Answers  []string                `json:"answers"`
	Systems  map[string]SystemDetail `json:"systems"`
	// Answer is the answer written from the first system's chunks.
	Answer    string `json:"answer,omitempty"`
	AnswerHit bool   `json:"answer_hit"`
	FirstHit  bool   `json:"first_sentence_hit"`
}

// SystemDetail is one system's retrieval in an AnswerDetail.
type SystemDetail struct {
	AnswerRank int        `json:"answer_rank"` // 0: no chunk holds a gold answer
	FileRank   int        `json:"file_rank"`   // 0: no chunk of the relevant file
	Chunks     []ChunkRef `json:"chunks"`
	MS         float64    `json:"ms"`
}

// WriteAnswerDetails writes every query's result to the file name as JSON
// Lines; names are the systems' names in the order of the results.
func WriteAnswerDetails(name string, names []string, results []AnswerResult) error {
	f, err := os.Create(name)
	if err != nil {
		return fmt.Errorf("write the details: %w", err)
	}
	enc := json.NewEncoder(f)
	enc.SetEscapeHTML(false)
	for _, r := range results {
		d := AnswerDetail{ID: r.Query.ID, Query: r.Query.Query, Relevant: r.Query.Relevant, Answers: r.Query.Answers,
			Systems: map[string]SystemDetail{}, Answer: r.Answer, AnswerHit: r.AnswerHit, FirstHit: r.FirstHit}
		for i, sr := range r.Systems {
			chunks := sr.Chunks
			if chunks == nil {
				chunks = []ChunkRef{}
			}
			d.Systems[names[i]] = SystemDetail{AnswerRank: sr.AnswerRank, FileRank: sr.FileRank, Chunks: chunks,
				MS: float64(sr.Elapsed.Microseconds()) / 1000}
		}
		if err := enc.Encode(d); err != nil {
			f.Close()
			return fmt.Errorf("write the details: %w", err)
		}
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("write the details: %w", err)
	}
	return nil
}

// reCitations matches a run of citations such as "[1]" or "[2][4]".
var reCitations = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?:\s*\[\d{1,3}\])+`) })

// FirstSentence is the first sentence of an answer (textseg.Sentences)
// with the citations that follow it: "S1 [1][3] S2 [2]" → "S1 [1][3]";
// "S1 S2 [1]" → "S1" (the citation follows the second sentence).
func FirstSentence(answer string) string {
	head := answer
	loc := reCitations().FindStringIndex(answer)
	if loc != nil {
		head = answer[:loc[0]]
	}
	sents := textseg.Sentences(head)
	switch {
	case len(sents) == 0 && loc != nil:
		return strings.TrimSpace(answer[:loc[1]]) // only citations
	case len(sents) == 0:
		return ""
	case len(sents) == 1 && loc != nil:
		return strings.TrimSpace(answer[:loc[1]])
	}
	return sents[0]
}

// Cites reports whether an answer cites a passage ("[n]").
func Cites(answer string) bool { return reCitations().MatchString(answer) }

// percentile is the nearest-rank p-th percentile of xs (Percentile), 0
// for none.
func percentile(xs []int, p int) int {
	ds := make([]time.Duration, len(xs))
	for i, x := range xs {
		ds[i] = time.Duration(x)
	}
	slices.Sort(ds)
	return int(Percentile(ds, float64(p)))
}
