package server

import (
	"context"
	"net/http"
	"strings"

	"github.com/danielgtaylor/huma/v2"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
)

// FolderBody is a folder a chat (or the agent) can be scoped to.
type FolderBody struct {
	Name          string `json:"name" doc:"the folder's own name (the last segment of path)"`
	Path          string `json:"path" doc:"the folder as indexed: the value to send as folder"`
	Source        string `json:"source" enum:"drive,local" doc:"the kind of source the folder was crawled from"`
	SourceLabel   string `json:"source_label" doc:"the source in the request's language, e.g. \"Local folder ~/Docs\", \"Google Drive\""`
	DocumentCount int    `json:"document_count" doc:"indexed documents in the folder and its subfolders"`
	Account       string `json:"account,omitempty" doc:"only for a Google Drive folder: the Google account it was crawled with (\"default\", or the NAME of gds auth login --account NAME)"`
}

// FolderListBody is GET /api/v1/folders.
type FolderListBody struct {
	Items []FolderBody `json:"items"`
	Total int          `json:"total"`
}

func (s *Server) registerFolders(secured []map[string][]string) {
	huma.Register(s.api, huma.Operation{
		OperationID: "list-folders", Method: http.MethodGet, Path: "/api/v1/folders",
		Summary:     "List the indexed folders",
		Description: "Every folder of the crawled sources that holds documents (directly or in a subfolder), sorted by path: the values `folder` of a chat accepts. Uploads are in no folder.",
		Tags:        []string{"documents"}, Security: secured, Errors: []int{http.StatusUnauthorized},
	}, func(ctx context.Context, _ *struct{}) (*bodyOut[FolderListBody], error) {
		lang := langOf(ctx)
		folders, err := s.d.WithLang(lang).Folders(ctx)
		if err != nil {
			return nil, s.problem(ctx, err)
		}
		out := &bodyOut[FolderListBody]{Body: FolderListBody{Items: []FolderBody{}}}
		for _, f := range folders {
			out.Body.Items = append(out.Body.Items, FolderBody{
				Name: f.Name, Path: f.Path, Source: store.SourceKindOf(f.Source),
				SourceLabel: s.sourceLabel(f.Source, lang), DocumentCount: f.Files,
				Account: store.DriveAccount(f.Source),
			})
		}
		out.Body.Total = len(out.Body.Items)
		return out, nil
	})
}

// sourceLabel is a source key as a reader of the web UI sees it: "Google
// Drive", "Uploaded", "Local folder ~/Docs" (the user's home as ~).
func (s *Server) sourceLabel(key, lang string) string {
	return SourceLabel(key, lang, s.labels.redact)
}

// SourceLabel is the readable label of a source key in lang; redact
// rewrites a local folder's path for the reader (nil: as is).
func SourceLabel(key, lang string, redact func(string) string) string {
	_, rest, _ := strings.Cut(key, ":")
	switch store.SourceKindOf(key) {
	case store.SourceUpload:
		return i18n.T(lang, "serve.source.upload")
	case config.SourceDrive:
		if a := store.SourceAccountOf(key); a != "" {
			return i18n.T(lang, "serve.source.drive_account", a)
		}
		return i18n.T(lang, "serve.source.drive")
	case config.SourceLocal:
		if rest == "" {
			return i18n.T(lang, "serve.source.local_unknown")
		}
		if redact != nil {
			rest = redact(rest)
		}
		return i18n.T(lang, "serve.source.local", rest)
	}
	return key
}
