package app

import (
	"context"
	"errors"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/gds-cli/gds/internal/agent"
	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/ai/tokens"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store"
)

// Ask modes.
const (
	ModeRAG     = "rag"
	ModeAgentic = "agentic"
)

// CheckMode returns an apperr.Usage error for a mode that is neither
// "rag" nor "agentic" ("" is rag).
func CheckMode(mode string) error {
	switch mode {
	case "", ModeRAG, ModeAgentic:
		return nil
	}
	return apperr.L(apperr.Usage, "agent.bad_mode", mode)
}

// AgentRequest is one agentic question.
type AgentRequest struct {
	Question string
	Folder   string // the scope; required unless the index holds one source folder
	Limits   agent.Limits
	// Emit receives every event (tool_call, tool_result, chunk, evidence,
	// done last); an error from it stops the run.
	Emit func(agent.Event) error
}

// Agent answers a question by agentic search over one folder: the agent
// plans, lists and picks documents, has a sub-agent read whole documents,
// cross-checks with the chunk retrieval of Ask, and answers, streaming
// every step to req.Emit. With the offline provider a deterministic plan
// runs the same tools and the answer is an extract of the evidence.
func (d *Deps) Agent(ctx context.Context, req AgentRequest) (agent.Result, error) {
	if strings.TrimSpace(req.Question) == "" {
		return agent.Result{}, apperr.L(apperr.Usage, "ask.no_question")
	}
	cfg, err := d.RequireConfig()
	if err != nil {
		return agent.Result{}, err
	}
	prov, err := d.Provider()
	if err != nil {
		return agent.Result{}, err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return agent.Result{}, err
	}
	defer st.Close()
	stats, err := st.Stats(ctx)
	if err != nil {
		return agent.Result{}, err
	}
	if stats.Files == 0 {
		return agent.Result{}, d.emptyIndex()
	}
	scope, err := ResolveScope(ctx, st, req.Folder)
	if err != nil {
		return agent.Result{}, err
	}
	eng := &agentEngine{st: st, prov: prov, xr: d.Extractor, sources: scope.Sources}
	folder := scope.Path
	docs, err := eng.FolderDocuments(ctx, folder)
	if err != nil {
		return agent.Result{}, err
	}
	if folder == "" && len(scope.Sources) == 0 && len(cfg.DriveFolderIDs) > 1 && slices.ContainsFunc(docs, func(d agent.Doc) bool { return store.SourceKindOf(d.Source) == "drive" }) {
		return agent.Result{}, apperr.L(apperr.Usage, "agent.no_folder", strings.Join(topFolders(docs), ", ")).Wrap(ErrNoFolder)
	}
	if len(docs) == 0 && folder != "" {
		return agent.Result{}, apperr.L(apperr.NotFound, "agent.empty_folder", folder)
	}
	emit := req.Emit
	if emit == nil {
		emit = func(agent.Event) error { return nil }
	}
	var counter agent.Counter = tokens.O200k
	if _, ok := prov.(ai.ToolCaller); !ok {
		counter = nil // the offline plan needs no exact counts
	}
	return agent.Run(ctx, agent.Options{
		Question: req.Question, Folder: folder, Provider: prov, Engine: eng, Limits: req.Limits,
		Counter: counter, Lang: d.Lang, Now: d.Now, Emit: emit,
	})
}

// ErrNoFolder is wrapped by the error of an agentic run without a folder
// over an index of several source folders (a front words it its own way).
var ErrNoFolder = errors.New("agentic search needs a folder")

// topFolders are the distinct first segments of the documents' folders.
func topFolders(docs []agent.Doc) []string {
	seen := map[string]bool{}
	var out []string
	for _, d := range docs {
		top, _, _ := strings.Cut(d.Folder, "/")
		if !seen[top] {
			seen[top] = true
			out = append(out, top)
		}
	}
	sort.Strings(out)
	return out
}

// agentEngine is agent.Engine over an open index.
type agentEngine struct {
	st   store.Store
	prov ai.Provider
	xr   crawl.Extractor // reads files the index does not hold
	// sources limit the documents to these sources (a --folder naming a
	// source's folder); none: all.
	sources []string

	mu      sync.Mutex
	skipped map[string]agent.Doc   // files of a local source the index does not hold, by ID
	folders map[string][]agent.Doc // FolderDocuments of this run, by folder
}

func agentDoc(f store.File, m store.DocumentMeta, chunks int) agent.Doc {
	d := agent.Doc{
		ID: f.ID, Name: f.Name, Title: m.Title, Folder: f.Path, MimeType: f.MimeType, Status: agent.StatusIndexed,
		Chunks: chunks, Tags: m.Tags, ModifiedAt: f.ModifiedAt, Link: f.WebLink, Source: f.Source,
		Summary: f.Summary, Keywords: f.Keywords,
	}
	return d
}

// allDocuments pages through every indexed file.
func (e *agentEngine) allDocuments(ctx context.Context) ([]store.Document, error) {
	const page = 500
	var out []store.Document
	for off := 0; ; off += page {
		p, err := e.st.ListDocuments(ctx, store.DocumentQuery{Offset: off, Limit: page})
		if err != nil {
			return nil, err
		}
		out = append(out, p.Items...)
		if len(p.Items) < page || len(out) >= p.Total {
			return out, nil
		}
	}
}

// FolderDocuments lists the folder once per run (an engine serves one run).
func (e *agentEngine) FolderDocuments(ctx context.Context, folder string) ([]agent.Doc, error) {
	e.mu.Lock()
	docs, ok := e.folders[folder]
	e.mu.Unlock()
	if ok {
		return docs, nil
	}
	docs, err := e.folderDocuments(ctx, folder)
	if err != nil {
		return nil, err
	}
	e.mu.Lock()
	if e.folders == nil {
		e.folders = map[string][]agent.Doc{}
	}
	e.folders[folder] = docs
	e.mu.Unlock()
	return docs, nil
}

func (e *agentEngine) folderDocuments(ctx context.Context, folder string) ([]agent.Doc, error) {
	all, err := e.allDocuments(ctx)
	if err != nil {
		return nil, err
	}
	var out []agent.Doc
	indexed := make(map[string]bool, len(all))
	root := ""
	for _, d := range all {
		indexed[d.File.ID] = true
		if r, ok := localRoot(d.File); ok && root == "" && store.InSources(d.File.Source, e.sources) {
			root = r
		}
		if d.File.Source == store.SourceUpload || !store.InFolder(d.File.Path, folder) || !store.InSources(d.File.Source, e.sources) {
			continue
		}
		out = append(out, agentDoc(d.File, d.Meta, d.Chunks))
	}
	if root != "" {
		skipped, err := skippedFiles(ctx, root, folder, indexed)
		if err != nil {
			return nil, err
		}
		e.mu.Lock()
		if e.skipped == nil {
			e.skipped = map[string]agent.Doc{}
		}
		for id, d := range skipped {
			e.skipped[id] = d
			out = append(out, d)
		}
		e.mu.Unlock()
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Folder != out[j].Folder {
			return out[i].Folder < out[j].Folder
		}
		if out[i].Name != out[j].Name {
			return out[i].Name < out[j].Name
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

func (e *agentEngine) SearchEvidence(ctx context.Context, query, folder string, topK int) ([]agent.Evidence, error) {
	req := RetrieveRequest{Query: query, TopK: topK, MaxTopK: MaxAskTopK, Folder: folder, Sources: e.sources}
	if err := checkRetrieve(&req); err != nil {
		return nil, err
	}
	srcs, err := retrieve(ctx, e.st, e.prov, req)
	if err != nil {
		return nil, err
	}
	out := make([]agent.Evidence, 0, len(srcs))
	for _, s := range srcs {
		out = append(out, agent.Evidence{FileID: s.FileID, Name: s.Name, ChunkID: s.ChunkID, Page: s.Page, Text: s.Text, Link: s.Link})
	}
	return out, nil
}

func (e *agentEngine) Document(ctx context.Context, id string) (agent.Doc, error) {
	files, err := e.st.GetFiles(ctx, []string{id})
	if err != nil {
		return agent.Doc{}, err
	}
	if len(files) == 0 {
		e.mu.Lock()
		d, ok := e.skipped[id]
		e.mu.Unlock()
		if ok {
			return d, nil
		}
		return agent.Doc{}, apperr.L(apperr.NotFound, "serve.not_found")
	}
	metas, err := e.st.DocumentMetas(ctx, []string{id})
	if err != nil {
		return agent.Doc{}, err
	}
	return agentDoc(files[0], metas[id], 0), nil
}

func (e *agentEngine) Content(ctx context.Context, id string, limit int) ([]agent.Passage, bool, error) {
	doc, err := e.Document(ctx, id)
	if err != nil {
		return nil, false, err
	}
	if doc.Status == agent.StatusNotIndexed {
		return readSkipped(ctx, e.xr, doc, limit)
	}
	chunks, err := e.st.FileChunks(ctx, id, limit+1)
	if errors.Is(err, store.ErrNotFound) {
		return nil, false, apperr.L(apperr.NotFound, "serve.not_found").Wrap(err)
	}
	if err != nil {
		return nil, false, err
	}
	more := len(chunks) > limit
	if more {
		chunks = chunks[:limit]
	}
	out := make([]agent.Passage, len(chunks))
	for i, c := range chunks {
		out[i] = agent.Passage{Ordinal: c.Ordinal, Evidence: agent.Evidence{
			FileID: id, Name: doc.Name, ChunkID: store.ChunkID(id, c.Ordinal), Page: c.Page, Text: c.Text, Link: doc.Link}}
	}
	return out, more, nil
}

func (e *agentEngine) Attachments(ctx context.Context, tags []string) ([]agent.Doc, error) {
	ids, err := e.st.TaggedFileIDs(ctx, tags)
	if err != nil {
		return nil, err
	}
	files, err := e.st.GetFiles(ctx, ids)
	if err != nil {
		return nil, err
	}
	metas, err := e.st.DocumentMetas(ctx, ids)
	if err != nil {
		return nil, err
	}
	out := make([]agent.Doc, 0, len(files))
	for _, f := range files {
		out = append(out, agentDoc(f, metas[f.ID], 0))
	}
	return out, nil
}
