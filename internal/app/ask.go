package app

import (
	"context"
	"fmt"
	"strings"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/offline/rules"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/tokenize"
)

// Limits of question answering.
const (
	DefaultTopK = 5
	MaxAskTopK  = 20  // gds ask, chat
	MaxTopK     = 100 // search endpoint
)

// RetrieveRequest is one hybrid chunk retrieval.
type RetrieveRequest struct {
	Query          string
	TopK           int     // 0: DefaultTopK
	MaxTopK        int     // the caller's limit (0: MaxTopK)
	ScoreThreshold float64 // 0–1
	Folder         string  // only this folder and its subfolders (as typed: resolveFolder)
	FileIDs        []string
	// Sources limits the chunks to these sources (store.Filter.Sources);
	// set by resolveFolder for a folder of one source.
	Sources []string
}

// resolveFolder resolves req's folder as a user typed it in the index
// (ResolveFolder): the stored path and, for a folder of one source, the
// source. An unknown folder is a *search.FolderError.
func resolveFolder(ctx context.Context, st folderCounter, req *RetrieveRequest) error {
	if strings.TrimSpace(req.Folder) == "" {
		return nil
	}
	scope, err := ResolveScope(ctx, st, req.Folder)
	if err != nil {
		return err
	}
	req.Folder = scope.Path
	if len(scope.Sources) > 0 {
		req.Sources = scope.Sources
	}
	return nil
}

// Source is one retrieved chunk with what a reader needs to cite it.
type Source struct {
	Ref     int    `json:"ref"` // citation number [n] in the answer
	FileID  string `json:"file_id"`
	Name    string `json:"name"`
	ChunkID string `json:"chunk_id"` // FileID#ordinal
	Ordinal int    `json:"chunk_index"`
	Page    int    `json:"page,omitempty"` // 1-based where the format has pages
	Text    string `json:"text"`
	// Quote is the sentence of Text the answer cites, with its neighbours
	// (Quote): what a reader checks the citation against. Empty for a
	// passage the answer does not cite.
	Quote    string  `json:"quote,omitempty"`
	Score    float64 `json:"score"` // fused 0–1
	Link     string  `json:"link"`
	Path     string  `json:"path,omitempty"` // the file's folder
	MimeType string  `json:"mime_type,omitempty"`
	// Account is the Google account of a Drive file ("default" or the name
	// of `gds auth login --account NAME`); "" for other sources.
	Account string `json:"account,omitempty"`
}

// checkRetrieve validates and fills the defaults of r.
func checkRetrieve(r *RetrieveRequest) error {
	if r.MaxTopK <= 0 {
		r.MaxTopK = MaxTopK
	}
	if r.TopK == 0 {
		r.TopK = DefaultTopK
	}
	if r.TopK < 1 || r.TopK > r.MaxTopK {
		return apperr.L(apperr.Usage, "ask.bad_top_k", r.TopK, r.MaxTopK)
	}
	if !(r.ScoreThreshold >= 0 && r.ScoreThreshold <= 1) {
		return apperr.L(apperr.Usage, "ask.bad_threshold", r.ScoreThreshold)
	}
	if strings.TrimSpace(r.Query) == "" {
		return apperr.L(apperr.Usage, "ask.no_question")
	}
	return nil
}

// Retrieve finds the chunks that best match the query: full text and
// vectors over the chunk index, fused (store.RetrieveChunks); offline,
// AskCandidates of them reranked (rerankChunks) and the best kept.
func (d *Deps) Retrieve(ctx context.Context, req RetrieveRequest) ([]Source, error) {
	if err := checkRetrieve(&req); err != nil {
		return nil, err
	}
	prov, err := d.Provider()
	if err != nil {
		return nil, err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return nil, err
	}
	defer st.Close()
	if err := resolveFolder(ctx, st, &req); err != nil {
		return nil, err
	}
	srcs, err := retrieve(ctx, st, prov, req)
	if err != nil {
		return nil, d.explainEmpty(err)
	}
	return srcs, nil
}

// Retrieved is what RetrieveWords found: the chunks, and what the index
// said of the query's words.
type Retrieved struct {
	Sources []Source
	// Missing holds, for each source, the query's keywords its file does
	// not contain (in query order; empty when it holds them all).
	Missing [][]string
	// Words is the query as the index saw it (search.CheckedQuery): its
	// Unmatched words with their corrections, the query searched
	// (SearchQuery) and the way back (InsteadQuery).
	Words search.State
	// Partial holds the query's most specific words when the best
	// sources' files each miss them (search.PartialWords): a weak match.
	Partial []string
}

// Unmatched are the query's words no indexed file contains, each with the
// close term searched in its place, if any.
func (r Retrieved) Unmatched() []search.Unmatched { return r.Words.Unmatched }

// RetrieveWords is Retrieve as a search surface does it (the HTTP API's
// search): the query's words are looked up in the index first
// (search.CheckWords with the offline query rules' keywords) — a word no
// file contains is named, and replaced by the index's close term when
// there is one (search.Correct, did you mean), or left out of the query
// searched; a query none of whose words any file holds finds nothing.
// Each source then carries the keywords its file lacks, and a weak match
// is named (search.MissingWords), as the loop's results are.
func (d *Deps) RetrieveWords(ctx context.Context, req RetrieveRequest) (Retrieved, error) {
	if err := checkRetrieve(&req); err != nil {
		return Retrieved{}, err
	}
	prov, err := d.Provider()
	if err != nil {
		return Retrieved{}, err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return Retrieved{}, err
	}
	defer st.Close()
	if err := resolveFolder(ctx, st, &req); err != nil {
		return Retrieved{}, err
	}
	if _, err := indexedFiles(ctx, st); err != nil {
		return Retrieved{}, d.explainEmpty(err)
	}
	qa := rules.AnalyzeQuery(ai.QueryInput{Query: req.Query, Now: d.Now(), Lang: d.Lang})
	check, err := search.CheckWords(ctx, st, req.Query, qa.Keywords, false)
	if err != nil {
		return Retrieved{}, err
	}
	if check.Corrections, err = search.Correct(ctx, st, req.Query, check); err != nil {
		return Retrieved{}, err
	}
	out := Retrieved{Words: search.CheckedQuery(req.Query, qa.Keywords, check)}
	if out.Words.NothingMatched() {
		return out, nil
	}
	searched := req
	searched.Query = out.Words.SearchQuery()
	if out.Sources, err = retrieve(ctx, st, prov, searched); err != nil {
		return Retrieved{}, d.explainEmpty(err)
	}
	ids := make([]string, len(out.Sources))
	for i, s := range out.Sources {
		ids[i] = s.FileID
	}
	missing, w, err := search.MissingWords(ctx, st, search.MissingTerms(out.Words.Cond.Keywords), ids, check.DocFreq, check.Files)
	if err != nil {
		return Retrieved{}, err
	}
	out.Missing, out.Partial = missing, w.Partial
	return out, nil
}

// indexedFiles is the number of indexed files; none is errIndexEmpty.
func indexedFiles(ctx context.Context, st store.Store) (int, error) {
	stats, err := st.Stats(ctx)
	if err != nil {
		return 0, err
	}
	if stats.Files == 0 {
		return 0, errIndexEmpty
	}
	return stats.Files, nil
}

// retrieve runs req (already checked) on an open index.
func retrieve(ctx context.Context, st store.Store, prov ai.Provider, req RetrieveRequest) ([]Source, error) {
	stats, err := st.Stats(ctx)
	if err != nil {
		return nil, err
	}
	if stats.Files == 0 {
		return nil, errIndexEmpty
	}
	vecs, err := prov.Embed(ctx, []string{req.Query})
	if err != nil {
		return nil, fmt.Errorf("embed the question: %w", err)
	}
	f := store.Filter{Folder: req.Folder, Sources: req.Sources}
	if req.FileIDs != nil {
		f.IDs = req.FileIDs
	}
	var vec []float32
	if len(vecs) == 1 && stats.Space.Model == prov.EmbeddingModel(ctx).Name {
		vec = vecs[0] // an index embedded by another model is searched by full text only
	}
	k := req.TopK
	if reranksPassages(prov) {
		k = max(k, AskCandidates) // the reranker keeps req.TopK of them
	}
	hits, err := store.RetrieveChunks(ctx, st, store.Retrieval{Query: req.Query, Vector: vec, Filter: f, TopK: k, ScoreThreshold: req.ScoreThreshold})
	if err != nil {
		return nil, err
	}
	ids := make([]string, 0, len(hits))
	seen := map[string]bool{}
	for _, h := range hits {
		if !seen[h.FileID] {
			seen[h.FileID] = true
			ids = append(ids, h.FileID)
		}
	}
	files, err := st.GetFiles(ctx, ids)
	if err != nil {
		return nil, fmt.Errorf("load the sources: %w", err)
	}
	byID := make(map[string]store.File, len(files))
	names := make(map[string]string, len(files))
	for _, f := range files {
		byID[f.ID] = f
		names[f.ID] = f.Name
	}
	if reranksPassages(prov) && len(hits) > 0 {
		dc, _ := st.(docFreqCounter)
		if hits, err = rerankChunks(ctx, prov, dc, req.Query, hits, names, req.TopK); err != nil {
			return nil, err
		}
	}
	out := make([]Source, 0, len(hits))
	for _, h := range hits {
		f := byID[h.FileID]
		out = append(out, Source{
			Ref: len(out) + 1, FileID: h.FileID, Name: f.Name, ChunkID: store.ChunkID(h.FileID, h.Ordinal), Ordinal: h.Ordinal,
			Page: h.Page, Text: h.Text, Score: h.Score, Link: f.WebLink, Path: f.Path, MimeType: f.MimeType,
			Account: store.DriveAccount(f.Source),
		})
	}
	return out, nil
}

// AskRequest is one question.
type AskRequest struct {
	RetrieveRequest
	// History is the conversation so far (user and assistant turns).
	History []ai.Message
	// OnText receives the answer as it is written (may be nil).
	OnText func(string) error
	// NoContext is the message of the answer when no passage passes the
	// threshold, in the caller's own terms ("": the CLI's ask.no_context,
	// which names its flags); it is said in the answer's language.
	NoContext i18n.Key
}

// AskResult is an answer and the passages it rests on.
type AskResult struct {
	Question string `json:"question"`
	Answer   string `json:"answer"`
	// Sources are the passages the answer cites ([n] is their Ref), each
	// with the Quote it cites.
	Sources []Source `json:"sources"`
	// NoAnswer is true when the answer cites no passage: the passages
	// retrieved do not answer the question, and Closest lists them.
	NoAnswer bool `json:"no_answer"`
	// Closest are the passages retrieved when none answers (NoAnswer);
	// they are not sources of the answer.
	Closest  []Source `json:"closest,omitempty"`
	Provider string   `json:"provider"`
	// Extractive is true when the answer is the best sentences of the
	// sources (the offline provider), not text a model wrote.
	Extractive bool `json:"extractive"`
	// NoContext is true when no chunk passed the threshold: the answer
	// says so and no model was asked.
	NoContext bool `json:"no_context"`
	// Lang is the answer's language (i18n.En, i18n.Ja): the question's when
	// it is clearly Japanese or English, else the interface language
	// (AnswerLang). The words around the answer (the sources' label) are
	// said in it too.
	Lang string `json:"lang"`
}

// AnswerLang is the language of the answer to question: the question's
// when it is clearly Japanese or English, else d.Lang (i18n.ForText, as
// ai.Answer decides it).
func (d *Deps) AnswerLang(question string) string { return i18n.ForText(question, d.Lang) }

// Ask answers a question from the index: hybrid chunk retrieval (offline
// reranked, see Retrieve), then an answer written by the AI provider from
// the top chunks, streamed to OnText, citing them as [n]. The result's sources are the chunks the
// answer cites, each with the quote it cites; an answer that cites none
// is NoAnswer, its chunks only the closest passages. With no chunk above
// the threshold it says so and asks no model — it never invents an
// answer.
func (d *Deps) Ask(ctx context.Context, req AskRequest) (AskResult, error) {
	if req.MaxTopK <= 0 {
		req.MaxTopK = MaxAskTopK
	}
	if err := checkRetrieve(&req.RetrieveRequest); err != nil {
		return AskResult{}, err
	}
	prov, err := d.Provider()
	if err != nil {
		return AskResult{}, err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return AskResult{}, err
	}
	defer st.Close()
	if err := resolveFolder(ctx, st, &req.RetrieveRequest); err != nil {
		return AskResult{}, err
	}
	srcs, err := retrieve(ctx, st, prov, req.RetrieveRequest)
	if err != nil {
		return AskResult{}, d.explainEmpty(err)
	}
	res := AskResult{Question: req.Query, Sources: srcs, Provider: prov.Name(), Extractive: prov.Name() == config.ProviderOffline,
		Lang: d.AnswerLang(req.Query)}
	if len(srcs) == 0 {
		res.NoContext, res.Extractive = true, false
		key := req.NoContext
		if key == "" {
			key = "ask.no_context"
		}
		res.Answer = i18n.T(res.Lang, key)
		if req.OnText != nil {
			if err := req.OnText(res.Answer); err != nil {
				return res, err
			}
		}
		return res, nil
	}
	in := ai.AnswerInput{Question: req.Query, Lang: res.Lang, History: req.History}
	for _, s := range srcs {
		in.Contexts = append(in.Contexts, ai.AnswerContext{Ref: s.Ref, FileName: s.Name, Page: s.Page, Text: s.Text})
	}
	if dc, ok := st.(docFreqCounter); ok {
		// The offline answer weighs a question word by its rarity in the
		// whole index; without the counts it uses the passages alone.
		if df, n, err := dc.DocFreqs(ctx, tokenize.Unique(req.Query)); err == nil {
			in.DocFreq, in.Docs = df, n
		}
	}
	var b strings.Builder
	err = ai.Answer(ctx, prov, in, func(piece string) error {
		b.WriteString(piece)
		if req.OnText != nil {
			return req.OnText(piece)
		}
		return nil
	})
	res.Answer = b.String()
	if err != nil {
		return res, err
	}
	cited, byRef := splitCited(res.Answer, srcs)
	if len(cited) == 0 {
		res.NoAnswer, res.Closest, res.Sources = true, srcs, []Source{}
		return res, nil
	}
	for i := range cited {
		cited[i].Quote = Quote(cited[i].Text, byRef[cited[i].Ref])
	}
	res.Sources = cited
	return res, nil
}

// Shown are the passages to list after the answer: its sources, or when
// it answers nothing the closest passages.
func (r AskResult) Shown() []Source {
	if r.NoAnswer {
		return r.Closest
	}
	return r.Sources
}

// docFreqCounter is an index that counts the files each search token
// occurs in (the SQLite store).
type docFreqCounter interface {
	DocFreqs(ctx context.Context, terms []string) (df map[string]int, files int, err error)
}
