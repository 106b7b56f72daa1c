package render

import (
	"fmt"
	"io"
	"time"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/coverage"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/termsafe"
)

// IndexStatusDoc is the --json form of the index status (`gds db status`,
// `gds db migrate`).
type IndexStatusDoc struct {
	Backend        string     `json:"backend"`
	Location       string     `json:"location"`
	SchemaVersion  int        `json:"schema_version"`
	Files          int        `json:"files"`
	Chunks         int        `json:"chunks"`
	EmbeddingModel string     `json:"embedding_model,omitempty"`
	EmbeddingDim   int        `json:"embedding_dim,omitempty"`
	LastSync       *time.Time `json:"last_sync,omitempty"`   // when the last crawl committed
	NewestFile     *time.Time `json:"newest_file,omitempty"` // newest modification time among indexed files
	// Coverage compares each source's listing with the index (gds db
	// status --coverage); absent without the flag.
	Coverage []coverage.Source `json:"coverage,omitempty"`
}

// Coverage prints the coverage of each source under a heading: one line
// per source, and its fix indented under it. Nothing without sources.
func Coverage(w io.Writer, srcs []coverage.Source, lang string) {
	if len(srcs) == 0 {
		return
	}
	fmt.Fprintln(w, i18n.T(lang, "out.db.status.coverage"))
	for _, s := range srcs {
		var line string
		switch {
		case s.Skipped:
			line = i18n.T(lang, "doctor.coverage.offline", s.Source)
		case s.Error != "":
			line = i18n.T(lang, "doctor.coverage.error", s.Source, s.Error)
		case len(s.Groups) == 0:
			line = i18n.T(lang, "doctor.coverage.ok", s.Source, s.Listed)
		default:
			line = i18n.T(lang, "doctor.coverage.diff", s.Source, s.Complete, s.Listed, coverage.Describe(s.Result, lang))
		}
		fmt.Fprintf(w, "  %s\n", termsafe.String(line))
		if s.Fix != "" {
			fmt.Fprintf(w, "    %s %s\n", i18n.T(lang, "doctor.fix"), termsafe.String(s.Fix))
		}
	}
}

// NewIndexStatusDoc describes st; a database URL's password is masked.
func NewIndexStatusDoc(st store.Stats) IndexStatusDoc {
	out := IndexStatusDoc{
		Backend: st.Backend, Location: config.MaskURL(st.Location), SchemaVersion: st.SchemaVersion,
		Files: st.Files, Chunks: st.Chunks, EmbeddingModel: st.Space.Model, EmbeddingDim: st.Space.Dim,
	}
	// "Last sync" is when a crawl last committed (SyncState.UpdatedAt),
	// not the newest file's date, which can be years old.
	if !st.Sync.UpdatedAt.IsZero() {
		t := st.Sync.UpdatedAt.UTC()
		out.LastSync = &t
	}
	if !st.Sync.ModifiedAt.IsZero() {
		t := st.Sync.ModifiedAt.UTC()
		out.NewestFile = &t
	}
	return out
}

// IndexStatus prints the index status as a two-column table.
func IndexStatus(w io.Writer, st store.Stats, lang string) {
	j := NewIndexStatusDoc(st)
	emb := i18n.T(lang, "out.db.no_embedding")
	if j.EmbeddingModel != "" {
		emb = fmt.Sprintf("%s (%d)", j.EmbeddingModel, j.EmbeddingDim)
	}
	sync := i18n.T(lang, "out.db.never")
	if j.LastSync != nil {
		sync = j.LastSync.Format(time.RFC3339)
	}
	t := func(k i18n.Key) string { return i18n.T(lang, k) }
	table(w, [][2]string{
		{t("out.db.backend"), j.Backend},
		{t("out.db.location"), j.Location},
		{t("out.db.schema"), fmt.Sprint(j.SchemaVersion)},
		{t("out.db.files"), fmt.Sprint(j.Files)},
		{t("out.db.chunks"), fmt.Sprint(j.Chunks)},
		{t("out.db.embedding"), emb},
		{t("out.db.last_sync"), sync},
	}, "")
}
