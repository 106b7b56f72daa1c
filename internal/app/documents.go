package app

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/store"
)

// DefaultMaxUpload bounds one uploaded file.
const DefaultMaxUpload = 50 << 20

// Limits of an upload's tags.
const (
	MaxTags   = 20
	MaxTagLen = 50
)

// uploadTypes are the extensions an upload may have: the formats extract
// reads.
var uploadTypes = map[string]bool{
	".txt": true, ".text": true, ".md": true, ".markdown": true, ".csv": true, ".tsv": true,
	".html": true, ".htm": true, ".xhtml": true, ".pdf": true, ".docx": true, ".xlsx": true, ".pptx": true,
}

// Document is an indexed file as the document endpoints show it: an
// upload, or a crawled Drive or local file (read-only).
type Document struct {
	ID         string
	Filename   string
	Title      string
	FilePath   string // an upload's stored name in the upload directory; a crawled file's folder path and name
	FileSize   int64
	MimeType   string
	Tags       []string
	Source     string // "upload", "drive" or "local"
	Link       string
	ChunkCount int
	CreatedAt  time.Time
	UpdatedAt  time.Time
}

// DocumentDetail is a document with its chunks.
type DocumentDetail struct {
	Document
	Chunks []store.Chunk
}

// UploadRequest is one uploaded file.
type UploadRequest struct {
	Filename string // as the client named it; only its base name is kept
	Body     io.Reader
	Title    string
	Tags     []string
	MaxBytes int64 // <= 0: DefaultMaxUpload
	// Timeout bounds reading and indexing the file (<= 0:
	// DefaultUploadTimeout).
	Timeout time.Duration
}

// DefaultUploadTimeout bounds reading and indexing one upload.
const DefaultUploadTimeout = 2 * time.Minute

func docOf(f store.File, m store.DocumentMeta, chunks int) Document {
	d := Document{
		ID: f.ID, Filename: f.Name, Title: m.Title, FileSize: f.Size, MimeType: f.MimeType, Tags: m.Tags,
		Source: f.Source, Link: f.WebLink, ChunkCount: chunks, CreatedAt: f.IndexedAt, UpdatedAt: f.IndexedAt,
	}
	if d.Title == "" {
		d.Title = f.Name
	}
	if d.Tags == nil {
		d.Tags = []string{}
	}
	if m.FileID != "" {
		d.CreatedAt, d.UpdatedAt, d.FilePath = m.CreatedAt, m.UpdatedAt, m.StoredName
	} else {
		d.FilePath = path.Join(f.Path, f.Name)
	}
	return d
}

// newUUID is a random (version 4) UUID.
func newUUID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // never fails (crypto/rand)
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}

// cleanName is the base name of a client's file name (either slash), with
// control characters dropped.
func cleanName(name string) string {
	name = name[strings.LastIndexAny(name, `/\`)+1:]
	name = strings.Map(func(r rune) rune {
		if r < 0x20 || r == 0x7f {
			return -1
		}
		return r
	}, name)
	name = strings.TrimSpace(name)
	if name == "" || name == "." || name == ".." {
		return "upload"
	}
	return name
}

// cleanTags are the tags of an upload's form fields: each field one tag,
// tags separated by commas, or a JSON array of strings (["a","b"], what
// a client serialising a list sends); blank and repeated tags dropped.
func cleanTags(tags []string) ([]string, error) {
	out := []string{}
	seen := map[string]bool{}
	for _, field := range tags {
		parts := strings.Split(field, ",") // "a,b" from a plain form field
		if f := strings.TrimSpace(field); strings.HasPrefix(f, "[") {
			parts = nil
			if err := json.Unmarshal([]byte(f), &parts); err != nil {
				return nil, apperr.L(apperr.Usage, "serve.bad_tags_json").Wrap(err)
			}
		}
		for _, t := range parts {
			t = strings.TrimSpace(t)
			if t == "" || seen[t] {
				continue
			}
			if len([]rune(t)) > MaxTagLen {
				return nil, apperr.L(apperr.Usage, "serve.bad_tag")
			}
			seen[t] = true
			out = append(out, t)
		}
	}
	if len(out) > MaxTags {
		return nil, apperr.L(apperr.Usage, "serve.bad_tag")
	}
	return out, nil
}

// UploadDocument keeps an uploaded file in the upload directory under a
// new UUID-based name (the client's name never reaches a path) and indexes
// it at once like a crawled file, so `gds search`, `gds ask` and the API
// find it. Unsupported types (by extension and by content) and unreadable
// files are apperr.Usage errors; a file over the limit is apperr.TooLarge;
// a file that cannot be read within the limits that keep hostile files
// contained (extract.ErrTooComplex, or req.Timeout passing while it is
// read) is apperr.TooComplex.
func (d *Deps) UploadDocument(ctx context.Context, req UploadRequest) (Document, error) {
	cfg, err := d.RequireConfig()
	if err != nil {
		return Document{}, err
	}
	if req.MaxBytes <= 0 {
		req.MaxBytes = DefaultMaxUpload
	}
	if req.Timeout <= 0 {
		req.Timeout = DefaultUploadTimeout
	}
	name := cleanName(req.Filename)
	ext := strings.ToLower(filepath.Ext(name))
	if !uploadTypes[ext] {
		return Document{}, apperr.L(apperr.Usage, "serve.unsupported", name)
	}
	tags, err := cleanTags(req.Tags)
	if err != nil {
		return Document{}, err
	}
	if err := os.MkdirAll(cfg.UploadDir, 0o700); err != nil {
		return Document{}, uploadWriteError(cfg.UploadDir, fmt.Errorf("create the upload directory %s: %w", cfg.UploadDir, err))
	}
	id := newUUID()
	stored := id + ext
	final := filepath.Join(cfg.UploadDir, stored)
	size, err := saveNew(final, req.Body, req.MaxBytes)
	if err != nil {
		if errors.Is(err, errTooLarge) {
			return Document{}, apperr.L(apperr.TooLarge, "serve.file_too_large", name, req.MaxBytes>>20)
		}
		return Document{}, uploadWriteError(cfg.UploadDir, err)
	}
	keep := false
	defer func() {
		if !keep {
			_ = os.Remove(final)
		}
	}()
	prov, err := d.Provider()
	if err != nil {
		return Document{}, err
	}
	st, err := d.OpenStore(ctx)
	if err != nil {
		return Document{}, err
	}
	defer st.Close()
	em := prov.EmbeddingModel(ctx)
	if err := st.EnsureEmbeddingSpace(ctx, store.EmbeddingSpace{Model: em.Name, Dim: em.Dim}); err != nil {
		return Document{}, err
	}
	fh, err := os.Open(final)
	if err != nil {
		return Document{}, err
	}
	defer fh.Close()
	now := d.Now().UTC()
	entry := crawl.Entry{
		ID: id, Name: name, MimeType: extract.MimeTypeByName(name), ModifiedAt: now, Size: size,
		WebLink: (&url.URL{Scheme: "file", Path: filepath.ToSlash(final)}).String(),
	}
	ictx, cancel := context.WithTimeout(ctx, req.Timeout)
	defer cancel()
	res, err := crawl.IndexFile(ictx, crawl.FileOptions{
		Index: st, Provider: prov, SummaryMaxLength: cfg.SummaryMaxLength, MaxFileBytes: req.MaxBytes,
		Source: store.SourceUpload, Now: func() time.Time { return now }, Extractor: d.fileReader(cfg, prov),
		Extra: strings.Join(append([]string{strings.TrimSpace(req.Title)}, tags...), "\n"),
	}, entry, fh)
	if err != nil {
		return Document{}, uploadError(err, uploadFailure{
			Name: name, MaxBytes: req.MaxBytes, Timeout: req.Timeout,
			TimedOut: ictx.Err() == context.DeadlineExceeded && ctx.Err() == nil,
		})
	}
	meta := store.DocumentMeta{FileID: id, Title: strings.TrimSpace(req.Title), Tags: tags, StoredName: stored, CreatedAt: now, UpdatedAt: now}
	if err := st.PutDocumentMeta(ctx, meta); err != nil {
		_ = st.DeleteFiles(context.WithoutCancel(ctx), []string{id})
		return Document{}, err
	}
	keep = true
	files, err := st.GetFiles(ctx, []string{id})
	if err != nil || len(files) != 1 {
		return Document{}, errors.Join(errors.New("read the uploaded document back"), err)
	}
	return docOf(files[0], meta, res.Chunks), nil
}

// uploadFailure is what uploadError needs to know about a failed upload.
type uploadFailure struct {
	Name     string
	MaxBytes int64
	Timeout  time.Duration
	// TimedOut: the upload's own time limit passed (not the client's
	// request ending).
	TimedOut bool
}

// uploadError classifies the error of indexing an upload: what is wrong
// with the file is the client's (usage, too large, too complex); the time
// limit passing while the file was read means it is too complex to read
// safely, and passing later (the summary, the embeddings) that the
// service was too slow. Anything else keeps its own kind.
func uploadError(err error, f uploadFailure) error {
	switch {
	case errors.Is(err, extract.ErrTooComplex):
		return apperr.L(apperr.TooComplex, "serve.too_complex", f.Name).Wrap(err)
	case f.TimedOut && errors.Is(err, context.DeadlineExceeded) && errors.Is(err, crawl.ErrExtract):
		return apperr.L(apperr.TooComplex, "serve.too_complex_time", f.Name, f.Timeout.String()).Wrap(err)
	case f.TimedOut && errors.Is(err, context.DeadlineExceeded):
		return apperr.L(apperr.Unavailable, "serve.upload_timeout", f.Name, f.Timeout.String()).Wrap(err)
	case errors.Is(err, extract.ErrUnsupported):
		return apperr.L(apperr.Usage, "serve.unsupported", f.Name).Wrap(err)
	case errors.Is(err, extract.ErrTooLarge):
		return apperr.L(apperr.TooLarge, "serve.file_too_large", f.Name, f.MaxBytes>>20).Wrap(err)
	case errors.Is(err, crawl.ErrNoText):
		return apperr.L(apperr.Usage, "serve.no_text", f.Name).Wrap(err)
	case errors.Is(err, extract.ErrMalformed):
		return apperr.L(apperr.Usage, "serve.bad_file", f.Name, err.Error()).Wrap(err)
	}
	return err
}

var errTooLarge = errors.New("too large")

// saveNew writes r to a new file at p (never over an existing one), at
// most max bytes, and returns its size.
func saveNew(p string, r io.Reader, limit int64) (int64, error) {
	f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return 0, fmt.Errorf("save the upload: %w", err)
	}
	n, err := io.Copy(f, io.LimitReader(r, limit+1))
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && n > limit {
		err = errTooLarge
	}
	if err != nil {
		_ = os.Remove(p)
		if errors.Is(err, errTooLarge) {
			return 0, err
		}
		return 0, fmt.Errorf("save the upload: %w", err)
	}
	return n, nil
}

// DocumentList is one page of documents.
type DocumentList struct {
	Items   []Document
	Total   int
	Page    int
	PerPage int
}

// ListDocuments lists the indexed files (uploads and crawled files), most
// recently indexed first; tag keeps the documents with that tag.
func (d *Deps) ListDocuments(ctx context.Context, page, perPage int, tag string) (DocumentList, error) {
	out := DocumentList{Items: []Document{}, Page: page, PerPage: perPage}
	err := d.withStore(ctx, func(s store.Store) error {
		p, err := s.ListDocuments(ctx, store.DocumentQuery{Tag: tag, Offset: (page - 1) * perPage, Limit: perPage})
		if err != nil {
			return err
		}
		out.Total = p.Total
		for _, doc := range p.Items {
			out.Items = append(out.Items, docOf(doc.File, doc.Meta, doc.Chunks))
		}
		return nil
	})
	return out, err
}

// GetDocument returns a document and its chunks; apperr.NotFound when it
// is not indexed.
func (d *Deps) GetDocument(ctx context.Context, id string) (DocumentDetail, error) {
	var out DocumentDetail
	err := d.withStore(ctx, func(s store.Store) error {
		files, err := s.GetFiles(ctx, []string{id})
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return apperr.L(apperr.NotFound, "serve.not_found")
		}
		metas, err := s.DocumentMetas(ctx, []string{id})
		if err != nil {
			return err
		}
		chunks, err := s.FileChunks(ctx, id, store.MaxChunkOrdinal+1)
		if errors.Is(err, store.ErrNotFound) {
			return apperr.L(apperr.NotFound, "serve.not_found").Wrap(err)
		}
		if err != nil {
			return err
		}
		out = DocumentDetail{Document: docOf(files[0], metas[id], len(chunks)), Chunks: chunks}
		return nil
	})
	return out, err
}

// DeleteDocument removes an uploaded document: its rows, chunks and
// vectors, then its stored file. A crawled file is read-only (an
// apperr.Usage error); an unknown ID is apperr.NotFound.
func (d *Deps) DeleteDocument(ctx context.Context, id string) error {
	cfg, err := d.RequireConfig()
	if err != nil {
		return err
	}
	return d.withStore(ctx, func(s store.Store) error {
		files, err := s.GetFiles(ctx, []string{id})
		if err != nil {
			return err
		}
		if len(files) == 0 {
			return apperr.L(apperr.NotFound, "serve.not_found")
		}
		if files[0].Source != store.SourceUpload {
			return apperr.L(apperr.Usage, "serve.read_only", id, files[0].Source)
		}
		metas, err := s.DocumentMetas(ctx, []string{id})
		if err != nil {
			return err
		}
		if err := s.DeleteFiles(ctx, []string{id}); err != nil {
			return err
		}
		if name := metas[id].StoredName; name != "" && name == filepath.Base(name) && strings.HasPrefix(name, id) {
			if err := os.Remove(filepath.Join(cfg.UploadDir, name)); err != nil && !errors.Is(err, os.ErrNotExist) {
				return fmt.Errorf("remove the stored file of %s: %w", id, err)
			}
		}
		return nil
	})
}

// DocumentInfo returns the metadata of the documents among ids that have
// any (uploads).
func (d *Deps) DocumentInfo(ctx context.Context, ids []string) (map[string]store.DocumentMeta, error) {
	var out map[string]store.DocumentMeta
	err := d.withStore(ctx, func(s store.Store) (err error) {
		out, err = s.DocumentMetas(ctx, ids)
		return err
	})
	return out, err
}

// TaggedDocuments returns the IDs of the documents with any of tags.
func (d *Deps) TaggedDocuments(ctx context.Context, tags []string) ([]string, error) {
	var out []string
	err := d.withStore(ctx, func(s store.Store) (err error) {
		out, err = s.TaggedFileIDs(ctx, tags)
		return err
	})
	return out, err
}
