package eval

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/store"
	"github.com/gds-cli/gds/internal/store/sqlite"
)

// IndexOptions say which corpus to index, where, and with what.
type IndexOptions struct {
	// Corpus is the folder of documents.
	Corpus string
	// Dir holds the evaluation indexes, one subfolder per corpus folder.
	Dir string
	// Provider summarises and embeds the files.
	Provider ai.Provider
	// SummaryMaxLength and Concurrency are passed to the crawl.
	SummaryMaxLength int
	Concurrency      int
	// Progress reports the crawl (may be nil).
	Progress crawl.Progress
	// Now is the crawl's clock; nil means time.Now.
	Now func() time.Time
}

// Index is an opened evaluation index.
type Index struct {
	Store store.Store
	// Path is the SQLite file.
	Path string
	// Fingerprint identifies the corpus state and embedding model indexed.
	Fingerprint string
	// Reused is true when the index matched the corpus and no crawl ran.
	Reused bool
	// Crawl is the crawl's summary when one ran.
	Crawl crawl.Summary
}

// fingerprintFile is the name of the file next to the index that records
// the fingerprint of the corpus it holds.
const fingerprintFile = "corpus.fingerprint"

// Fingerprint identifies a corpus folder's content and the embedding model
// for an evaluation index: the folder's absolute path and, for every file
// the local source would list (hidden ones skipped), its relative path,
// size and modification time; plus the provider and its embedding model,
// and the chunking rules (crawl.ChunkVersion).
func Fingerprint(ctx context.Context, corpus string, p ai.Provider) (string, error) {
	root, err := filepath.Abs(corpus)
	if err != nil {
		return "", fmt.Errorf("corpus %q: %w", corpus, err)
	}
	h := sha256.New()
	em := p.EmbeddingModel(ctx)
	fmt.Fprintf(h, "gds-eval-v1\x00%s\x00%s\x00%s\x00%d\x00chunks-v%d\x00", root, p.Name(), em.Name, em.Dim, crawl.ChunkVersion)
	n := 0
	err = filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		fmt.Fprintf(h, "%s\x00%d\x00%d\n", filepath.ToSlash(rel), info.Size(), info.ModTime().UnixNano())
		n++
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("fingerprint corpus %s: %w", root, err)
	}
	if n == 0 {
		return "", fmt.Errorf("corpus %s has no files", root)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// IndexDir is the folder of the evaluation index of corpus under dir.
func IndexDir(dir, corpus string) (string, error) {
	root, err := filepath.Abs(corpus)
	if err != nil {
		return "", fmt.Errorf("corpus %q: %w", corpus, err)
	}
	sum := sha256.Sum256([]byte(root))
	return filepath.Join(dir, filepath.Base(root)+"-"+hex.EncodeToString(sum[:6])), nil
}

// OpenIndex opens the evaluation index of o.Corpus, reusing it when its
// recorded fingerprint matches the corpus, else rebuilding it from scratch
// with a full crawl of the local source. The caller closes Index.Store.
func OpenIndex(ctx context.Context, o IndexOptions) (*Index, error) {
	fp, err := Fingerprint(ctx, o.Corpus, o.Provider)
	if err != nil {
		return nil, err
	}
	dir, err := IndexDir(o.Dir, o.Corpus)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("create the evaluation index folder: %w", err)
	}
	ix := &Index{Path: filepath.Join(dir, "index.db"), Fingerprint: fp}
	fpPath := filepath.Join(dir, fingerprintFile)
	recorded, err := os.ReadFile(fpPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("read the evaluation index fingerprint: %w", err)
	}
	if strings.TrimSpace(string(recorded)) == fp {
		st, err := sqlite.Open(ctx, ix.Path, sqlite.Options{})
		if err != nil {
			return nil, fmt.Errorf("open the evaluation index %s: %w", ix.Path, err)
		}
		stats, err := st.Stats(ctx)
		if err == nil && stats.Files > 0 {
			ix.Store, ix.Reused = st, true
			return ix, nil
		}
		st.Close()
	}
	// Stale or missing: start from an empty file.
	if err := os.Remove(fpPath); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("remove the stale fingerprint: %w", err)
	}
	for _, suffix := range []string{"", "-wal", "-shm"} {
		if err := os.Remove(ix.Path + suffix); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return nil, fmt.Errorf("remove the stale evaluation index: %w", err)
		}
	}
	st, err := sqlite.Open(ctx, ix.Path, sqlite.Options{})
	if err != nil {
		return nil, fmt.Errorf("create the evaluation index %s: %w", ix.Path, err)
	}
	src, err := crawl.NewLocalSource(o.Corpus)
	if err != nil {
		st.Close()
		return nil, err
	}
	sum, err := crawl.Run(ctx, crawl.Options{
		Source:           src,
		Index:            st,
		Provider:         o.Provider,
		SummaryMaxLength: o.SummaryMaxLength,
		Concurrency:      o.Concurrency,
		Full:             true,
		Progress:         o.Progress,
		Now:              o.Now,
	})
	ix.Crawl = sum
	if err != nil {
		st.Close()
		return nil, fmt.Errorf("index the corpus %s: %w", o.Corpus, err)
	}
	if n := len(sum.Failed); n > 0 {
		st.Close()
		return nil, fmt.Errorf("index the corpus %s: %d files failed (first: %s: %s)", o.Corpus, n, sum.Failed[0].Name, sum.Failed[0].Reason)
	}
	if err := os.WriteFile(fpPath, []byte(fp+"\n"), 0o600); err != nil {
		st.Close()
		return nil, fmt.Errorf("record the evaluation index fingerprint: %w", err)
	}
	ix.Store = st
	return ix, nil
}
