package agent

import (
	"context"
	"time"

	"github.com/gds-cli/gds/internal/ai"
)

// The tools, named as in the seed ("meeting" read as folder).
const (
	ToolListDocuments   = "list_meeting_documents"
	ToolDiscoverAgenda  = "discover_agenda_documents"
	ToolSearchEvidence  = "search_evidence"
	ToolSummary         = "get_document_summary"
	ToolInvestigate     = "investigate_document"
	ToolListAttachments = "list_meeting_attachments"
	ToolReadAttachment  = "read_attachment"
	// ToolContent is the sub-agent's only tool.
	ToolContent = "get_document_content"
)

// Document statuses.
const (
	StatusIndexed    = "indexed"
	StatusNotIndexed = "not_indexed" // in the folder, but the index skipped it; read from the original
)

// Doc is a document of the folder (or an attachment) as the tools show it.
type Doc struct {
	ID         string    `json:"document_id"`
	Name       string    `json:"filename"`
	Title      string    `json:"title,omitempty"`
	Folder     string    `json:"folder"`
	MimeType   string    `json:"mime_type,omitempty"`
	Status     string    `json:"status"`
	Chunks     int       `json:"chunks,omitempty"`
	Tags       []string  `json:"tags,omitempty"`
	ModifiedAt time.Time `json:"modified_at,omitzero"`
	Link       string    `json:"-"`
	Source     string    `json:"-"` // store.File.Source: a source key ("drive", "drive:ID", "local:/path") or "upload"
	Summary    string    `json:"-"` // the crawl's stored summary
	Keywords   []string  `json:"-"`
}

// Passage is one chunk of a document, in order.
type Passage struct {
	Evidence
	Ordinal int
}

// Engine is what the agent reads, implemented over the index by
// internal/app (app.Retrieve, the store's chunks and documents).
type Engine interface {
	// FolderDocuments returns the documents of folder ("" for the whole
	// index) and its subfolders, uploads excluded, by folder and name; with
	// the files the index skipped (Status StatusNotIndexed) where the source
	// can list them.
	FolderDocuments(ctx context.Context, folder string) ([]Doc, error)
	// SearchEvidence is the chunk retrieval of `gds ask` over folder.
	SearchEvidence(ctx context.Context, query, folder string, topK int) ([]Evidence, error)
	// Document returns one document (an indexed file, an upload, or a file
	// the index skipped) with its stored summary; an apperr.NotFound error
	// when there is none.
	Document(ctx context.Context, id string) (Doc, error)
	// Content returns the first max passages of a document in order (for a
	// file that is not indexed, the extracted text of the original, cut
	// like the crawl cuts chunks) and whether it has more.
	Content(ctx context.Context, id string, limit int) ([]Passage, bool, error)
	// Attachments returns the documents uploaded through `gds serve` with
	// any of tags.
	Attachments(ctx context.Context, tags []string) ([]Doc, error)
}

func obj(props map[string]any, required ...string) map[string]any {
	if required == nil {
		required = []string{}
	}
	return map[string]any{"type": "object", "properties": props, "required": required, "additionalProperties": false}
}

func str(desc string) map[string]any { return map[string]any{"type": "string", "description": desc} }
func integer(desc string) map[string]any {
	return map[string]any{"type": "integer", "description": desc}
}

// MainTools are the main agent's tools.
func MainTools() []ai.Tool {
	folder := str("the folder (path as indexed; \"\" for the whole index)")
	return []ai.Tool{
		{Name: ToolListDocuments, Description: "List the documents of the folder (file name, title, status), optionally only those whose name, title, keywords or summary contain words of search_text; paged (page from 1, page_size up to 50). Returns documents, total, page, page_size.",
			Parameters: obj(map[string]any{"folder": folder, "search_text": str("words to match, or \"\" for all"), "page": integer("page number from 1"), "page_size": integer("documents per page, at most 50")}, "folder")},
		{Name: ToolDiscoverAgenda, Description: "Find the folder's structure documents by file name (agenda, tdoc_list, index, contents, minutes, 目次, 議事, 議題 …), indexed or not, with their status.",
			Parameters: obj(map[string]any{"folder": folder}, "folder")},
		{Name: ToolSearchEvidence, Description: "Search the passages of the folder's documents that best match query (full text and vectors). Each result has a ref number: cite it as [3] in the answer.",
			Parameters: obj(map[string]any{"query": str("what to find"), "folder": folder, "top_k": integer("passages, 1 to 20")}, "query")},
		{Name: ToolSummary, Description: "The stored summary and keywords of one document.",
			Parameters: obj(map[string]any{"document_id": str("a document_id from a listing")}, "document_id")},
		{Name: ToolInvestigate, Description: "Have a document analyst read one whole document and answer investigation_query about it. Returns its analysis and the number of passages it cited (evidence_count); the passages become evidence refs you may cite.",
			Parameters: obj(map[string]any{"document_id": str("a document_id from a listing"), "investigation_query": str("what to find out from this document")}, "document_id", "investigation_query")},
		{Name: ToolListAttachments, Description: "List the documents users uploaded with the folder's tag (for example an agenda as a spreadsheet).",
			Parameters: obj(map[string]any{"folder": folder}, "folder")},
		{Name: ToolReadAttachment, Description: "Read the text of one uploaded attachment.",
			Parameters: obj(map[string]any{"document_id": str("a document_id from list_meeting_attachments")}, "document_id")},
	}
}

// SubTools are the sub-agent's tools: reading the document, nothing else
// (seed: the sub-agent has no evidence search).
func SubTools() []ai.Tool {
	return []ai.Tool{{Name: ToolContent, Description: "Read the document: all its passages in order (at most 500), each as [c<n>] with its page.",
		Parameters: obj(map[string]any{"document_id": str("the document to read")}, "document_id")}}
}

// Counter counts and truncates text in model tokens (ai/tokens.O200k).
type Counter interface {
	Count(text string) int
	Truncate(text string, limit int) string
}

// roughCounter estimates tokens as bytes/4 when no Counter is given.
type roughCounter struct{}

func (roughCounter) Count(s string) int { return (len(s) + 3) / 4 }
func (roughCounter) Truncate(s string, limit int) string {
	if len(s) <= limit*4 {
		return s
	}
	s = s[:limit*4]
	for len(s) > 0 && s[len(s)-1]&0xC0 == 0x80 {
		s = s[:len(s)-1]
	}
	if len(s) > 0 && s[len(s)-1] >= 0xC0 {
		s = s[:len(s)-1]
	}
	return s
}
