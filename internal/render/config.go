package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/gds-cli/gds/internal/config"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/termsafe"
)

// ConfigShowDoc is the --json output of `gds config show`.
type ConfigShowDoc struct {
	Home     string   `json:"home"`
	EnvFiles []string `json:"env_files"`
	// EnvFilesUnread are .env files found but not read (see Problems).
	EnvFilesUnread []string         `json:"env_files_unread,omitempty"`
	Settings       []config.Setting `json:"settings"`
	// Problems are the configuration's problems, when it has any (the
	// settings then show every value that could be read).
	Problems []JSONError `json:"problems,omitempty"`
}

// NewConfigShowDoc describes cfg and its problems.
func NewConfigShowDoc(cfg *config.Config, problems []JSONError) ConfigShowDoc {
	envFiles := cfg.EnvFiles
	if envFiles == nil {
		envFiles = []string{}
	}
	return ConfigShowDoc{Home: cfg.Home, EnvFiles: envFiles, EnvFilesUnread: cfg.EnvFilesUnread, Settings: cfg.Settings(), Problems: problems}
}

// ConfigShowText prints the home, the .env files read and a table of
// every setting with its value and where it came from.
func ConfigShowText(w io.Writer, doc ConfigShowDoc, lang string) error {
	fmt.Fprintf(w, "%s: %s\n", i18n.T(lang, "out.config.home"), termsafe.String(doc.Home))
	files := i18n.T(lang, "out.config.none")
	if len(doc.EnvFiles) > 0 {
		files = termsafe.String(strings.Join(doc.EnvFiles, ", "))
	}
	fmt.Fprintf(w, "%s: %s\n", i18n.T(lang, "out.config.env_files"), files)
	if len(doc.EnvFilesUnread) > 0 {
		fmt.Fprintf(w, "%s: %s\n", i18n.T(lang, "out.config.env_unread"), termsafe.String(strings.Join(doc.EnvFilesUnread, ", ")))
	}
	fmt.Fprintln(w)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, i18n.T(lang, "out.config.header"))
	for _, s := range doc.Settings {
		v := s.Value
		if v == "" {
			v = i18n.T(lang, "out.config.unset")
		}
		// A .env in the current directory may come with a download.
		fmt.Fprintf(tw, "%s\t%s\t%s\n", s.Name, termsafe.String(v), termsafe.String(s.Source))
	}
	return tw.Flush()
}

// ConfigPathDoc is the --json output of `gds config path`.
type ConfigPathDoc struct {
	Home    string `json:"home"`
	EnvFile string `json:"env_file"`
	DataDir string `json:"data_dir"`
	Index   string `json:"index"`
}

// NewConfigPathDoc names cfg's folders and index; a database URL's
// password is masked.
func NewConfigPathDoc(cfg *config.Config) ConfigPathDoc {
	index := cfg.IndexPath()
	if cfg.UsesPostgres() {
		index = config.MaskURL(cfg.DatabaseURL)
	}
	return ConfigPathDoc{Home: cfg.Home, EnvFile: cfg.EnvFilePath(), DataDir: cfg.DataDir, Index: index}
}

// ConfigPathText prints doc as a two-column table.
func ConfigPathText(w io.Writer, doc ConfigPathDoc, lang string) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "%s\t%s\n", i18n.T(lang, "out.path.home"), doc.Home)
	fmt.Fprintf(tw, "%s\t%s\n", i18n.T(lang, "out.path.env"), doc.EnvFile)
	fmt.Fprintf(tw, "%s\t%s\n", i18n.T(lang, "out.path.data"), doc.DataDir)
	fmt.Fprintf(tw, "%s\t%s\n", i18n.T(lang, "out.path.index"), doc.Index)
	return tw.Flush()
}
