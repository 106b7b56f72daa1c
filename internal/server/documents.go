package server

import (
	"context"
	"net/http"
	"time"

	"github.com/danielgtaylor/huma/v2"

	"github.com/gds-cli/gds/internal/app"
	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/store"
)

const uploadPath = "/api/v1/documents/upload"

// DocumentBody is a document as the seed shows it.
type DocumentBody struct {
	ID         string   `json:"id"`
	Filename   string   `json:"filename"`
	Title      string   `json:"title"`
	FilePath   string   `json:"file_path" doc:"an upload's stored name in GDS_UPLOAD_DIR; a crawled file's folder path"`
	FileSize   int64    `json:"file_size"`
	MimeType   string   `json:"mime_type"`
	Tags       []string `json:"tags"`
	Status     string   `json:"status" enum:"indexed"`
	ChunkCount int      `json:"chunk_count"`
	Source     string   `json:"source" enum:"upload,drive,local" doc:"the kind of source; only uploads can be deleted"`
	// SourceLabel says where the document comes from, for people.
	SourceLabel string    `json:"source_label" doc:"the source in the request's language: \"Uploaded\", \"Google Drive\", \"Google Drive (work)\", \"Local folder ~/Docs\""`
	Account     string    `json:"account,omitempty" doc:"only for a Google Drive document: the Google account it was crawled with (\"default\", or the NAME of gds auth login --account NAME)"`
	CreatedAt   time.Time `json:"created_at"`
	UpdatedAt   time.Time `json:"updated_at"`
}

// ChunkBody is one chunk of a document.
type ChunkBody struct {
	ID            string    `json:"id"`
	DocumentID    string    `json:"document_id"`
	Content       string    `json:"content"`
	ChunkIndex    int       `json:"chunk_index"`
	PageNumber    *int      `json:"page_number"`
	ChunkMetadata any       `json:"chunk_metadata"`
	CreatedAt     time.Time `json:"created_at"`
}

// DocumentDetailBody is a document with its chunks.
type DocumentDetailBody struct {
	DocumentBody
	Chunks []ChunkBody `json:"chunks"`
}

// DocumentListBody is one page of documents.
type DocumentListBody struct {
	Items   []DocumentBody `json:"items"`
	Total   int            `json:"total"`
	Page    int            `json:"page"`
	PerPage int            `json:"per_page"`
}

// UploadForm is the multipart form of an upload.
type UploadForm struct {
	File  huma.FormFile `form:"file" required:"true" doc:"the document (PDF, DOCX, XLSX, PPTX, HTML, Markdown, text, CSV)"`
	Title string        `form:"title" required:"false" doc:"title (default: the file name)"`
	Tags  []string      `form:"tags" required:"false" doc:"tags: repeat the field, separate them with commas, or send one JSON array of strings ([\"a\",\"b\"])"`
}

type uploadIn struct {
	RawBody huma.MultipartFormFiles[UploadForm]
}

type uploadOut struct {
	Status int
	Body   DocumentBody
}

type listIn struct {
	Page    int    `query:"page" minimum:"1" default:"1"`
	PerPage int    `query:"per_page" minimum:"1" maximum:"100" default:"20"`
	Tag     string `query:"tag" maxLength:"50"`
}

type docIn struct {
	ID string `path:"document_id" minLength:"1" maxLength:"200"`
}

type deleteOut struct{}

// documentBody is d as the API shows it in lang.
func (s *Server) documentBody(d app.Document, lang string) DocumentBody {
	return DocumentBody{
		ID: d.ID, Filename: d.Filename, Title: d.Title, FilePath: d.FilePath, FileSize: d.FileSize, MimeType: d.MimeType,
		Tags: d.Tags, Status: "indexed", ChunkCount: d.ChunkCount, Source: sourceKind(d.Source), SourceLabel: s.sourceLabel(d.Source, lang),
		Account: store.DriveAccount(d.Source), CreatedAt: d.CreatedAt, UpdatedAt: d.UpdatedAt,
	}
}

// sourceKind is the kind of a source key: "upload", "drive" or "local".
func sourceKind(key string) string { return store.SourceKindOf(key) }

func (s *Server) registerDocuments(secured []map[string][]string) {
	tags := []string{"documents"}
	huma.Register(s.api, huma.Operation{
		OperationID: "upload-document", Method: http.MethodPost, Path: uploadPath, Summary: "Upload and index a document",
		Tags: tags, Security: secured, DefaultStatus: http.StatusCreated,
		MaxBodyBytes: s.opts.MaxUpload + multipartSlack,
		Errors:       []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusRequestEntityTooLarge, http.StatusUnprocessableEntity, http.StatusServiceUnavailable},
	}, s.upload)
	huma.Register(s.api, huma.Operation{
		OperationID: "list-documents", Method: http.MethodGet, Path: "/api/v1/documents", Summary: "List the indexed documents",
		Tags: tags, Security: secured, Errors: []int{http.StatusUnauthorized, http.StatusUnprocessableEntity},
	}, func(ctx context.Context, in *listIn) (*bodyOut[DocumentListBody], error) {
		l, err := s.d.WithLang(langOf(ctx)).ListDocuments(ctx, in.Page, in.PerPage, in.Tag)
		if err != nil {
			return nil, s.problem(ctx, err)
		}
		out := &bodyOut[DocumentListBody]{Body: DocumentListBody{Items: []DocumentBody{}, Total: l.Total, Page: l.Page, PerPage: l.PerPage}}
		for _, d := range l.Items {
			out.Body.Items = append(out.Body.Items, s.documentBody(d, langOf(ctx)))
		}
		return out, nil
	})
	huma.Register(s.api, huma.Operation{
		OperationID: "get-document", Method: http.MethodGet, Path: "/api/v1/documents/{document_id}", Summary: "A document with its chunks",
		Tags: tags, Security: secured, Errors: []int{http.StatusUnauthorized, http.StatusNotFound},
	}, func(ctx context.Context, in *docIn) (*bodyOut[DocumentDetailBody], error) {
		d, err := s.d.GetDocument(ctx, in.ID)
		if err != nil {
			return nil, s.problem(ctx, err)
		}
		out := &bodyOut[DocumentDetailBody]{Body: DocumentDetailBody{DocumentBody: s.documentBody(d.Document, langOf(ctx)), Chunks: []ChunkBody{}}}
		for _, c := range d.Chunks {
			out.Body.Chunks = append(out.Body.Chunks, ChunkBody{
				ID: store.ChunkID(d.ID, c.Ordinal), DocumentID: d.ID, Content: c.Text, ChunkIndex: c.Ordinal,
				PageNumber: page(c.Page), CreatedAt: d.UpdatedAt,
			})
		}
		return out, nil
	})
	huma.Register(s.api, huma.Operation{
		OperationID: "delete-document", Method: http.MethodDelete, Path: "/api/v1/documents/{document_id}",
		Summary: "Delete an uploaded document (crawled files are read-only)", DefaultStatus: http.StatusNoContent,
		Tags: tags, Security: secured, Errors: []int{http.StatusBadRequest, http.StatusUnauthorized, http.StatusNotFound},
	}, func(ctx context.Context, in *docIn) (*deleteOut, error) {
		if err := s.d.WithLang(langOf(ctx)).DeleteDocument(ctx, in.ID); err != nil {
			return nil, s.problem(ctx, err)
		}
		return &deleteOut{}, nil
	})
}

func (s *Server) upload(ctx context.Context, in *uploadIn) (*uploadOut, error) {
	form := in.RawBody.Data()
	if form == nil || !form.File.IsSet {
		return nil, s.problem(ctx, apperr.L(apperr.Usage, "serve.no_file"))
	}
	defer form.File.Close()
	if form.File.Size > s.opts.MaxUpload {
		return nil, s.problem(ctx, apperr.L(apperr.TooLarge, "serve.file_too_large", form.File.Filename, s.opts.MaxUpload>>20))
	}
	doc, err := s.d.WithLang(langOf(ctx)).UploadDocument(ctx, app.UploadRequest{
		Filename: form.File.Filename, Body: form.File, Title: form.Title, Tags: form.Tags, MaxBytes: s.opts.MaxUpload,
		Timeout: s.opts.UploadTimeout,
	})
	if err != nil {
		return nil, s.problem(ctx, err)
	}
	return &uploadOut{Status: http.StatusCreated, Body: s.documentBody(doc, langOf(ctx))}, nil
}
