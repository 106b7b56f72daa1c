package ocr

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/gds-cli/gds/internal/extract"
)

// Cache keeps the text OCR read from a file, by the file's content hash
// and the engine, and from each rendered page of a PDF, by the page
// image's hash and the engine (a Doc of one page): a re-crawl or re-index
// of unchanged content never reads its images again.
type Cache interface {
	Get(key string) (extract.Doc, bool)
	Put(key string, doc extract.Doc) error
}

// DirCache is a Cache of small JSON files in a directory of the gds home
// (DirName), one per file read, sharded by the key's first two characters.
type DirCache struct{ Dir string }

// DirName is the cache's directory in the gds home.
const DirName = "ocr-cache"

type cached struct {
	V         int            `json:"v"`
	Engine    string         `json:"engine"`
	Pages     []extract.Page `json:"pages"`
	Truncated bool           `json:"truncated,omitempty"`
}

const cacheVersion = 1

func (c DirCache) path(key string) string {
	return filepath.Join(c.Dir, key[:2], key+".json")
}

// Get implements Cache; an unreadable or foreign entry is a miss.
func (c DirCache) Get(key string) (extract.Doc, bool) {
	if len(key) < 3 {
		return extract.Doc{}, false
	}
	b, err := os.ReadFile(c.path(key))
	if err != nil {
		return extract.Doc{}, false
	}
	var e cached
	if json.Unmarshal(b, &e) != nil || e.V != cacheVersion {
		return extract.Doc{}, false
	}
	return extract.Doc{Pages: e.Pages, Truncated: e.Truncated, OCR: e.Engine}, true
}

// Put implements Cache: the entry is written to a temporary file and
// renamed into place, so a reader never sees half of one.
func (c DirCache) Put(key string, doc extract.Doc) error {
	if len(key) < 3 {
		return fmt.Errorf("ocr cache: bad key %q", key)
	}
	p := c.path(key)
	if err := os.MkdirAll(filepath.Dir(p), 0o700); err != nil {
		return fmt.Errorf("ocr cache: %w", err)
	}
	b, err := json.Marshal(cached{V: cacheVersion, Engine: doc.OCR, Pages: doc.Pages, Truncated: doc.Truncated})
	if err != nil {
		return fmt.Errorf("ocr cache: %w", err)
	}
	f, err := os.CreateTemp(filepath.Dir(p), ".tmp-*")
	if err != nil {
		return fmt.Errorf("ocr cache: %w", err)
	}
	_, werr := f.Write(b)
	cerr := f.Close()
	if werr == nil {
		werr = cerr
	}
	if werr == nil {
		werr = os.Rename(f.Name(), p)
	}
	if werr != nil {
		os.Remove(f.Name())
		return fmt.Errorf("ocr cache: %w", werr)
	}
	return nil
}
