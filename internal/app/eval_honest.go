package app

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
	"unicode"

	"github.com/gds-cli/gds/internal/apperr"
	"github.com/gds-cli/gds/internal/eval"
	"github.com/gds-cli/gds/internal/search"
)

// EvalModeHonest measures what the search tells the user on the
// honest-search sets derived from the query set (eval.BuildHonest):
// unanswerable questions, an invented word, one typo.
const EvalModeHonest = "honest"

// EvalHonest derives the honest-search sets of the query set with
// req.Seed, indexes the corpus without the removed articles' files (a
// copy of the kept files under the evaluation home, reused while they are
// unchanged), runs every set through the hybrid loop and returns the
// figures.
func (d *Deps) EvalHonest(ctx context.Context, req EvalRequest) (eval.HonestReport, error) {
	if req.Baseline != "" {
		return eval.HonestReport{}, apperr.L(apperr.Usage, "eval.honest_baseline")
	}
	queries, err := evalQueries(req)
	if err != nil {
		return eval.HonestReport{}, err
	}
	docs, err := eval.ReadCorpus(ctx, req.Corpus)
	if err != nil {
		return eval.HonestReport{}, apperr.Mark(err, apperr.Usage)
	}
	sizes := eval.DefaultHonestSizes
	sets := eval.BuildHonest(docs, queries, req.Seed, japaneseQueries(queries), sizes)
	cfg, err := d.RequireConfig()
	if err != nil {
		return eval.HonestReport{}, err
	}
	home := req.Home
	if home == "" {
		home = filepath.Join(cfg.DataDir, "eval")
	}
	kept, err := keptCorpus(req.Corpus, filepath.Join(home, "honest"), sets.Removed)
	if err != nil {
		return eval.HonestReport{}, err
	}
	sub := req
	sub.Corpus = kept
	ev, err := d.openEval(ctx, sub)
	if err != nil {
		return eval.HonestReport{}, err
	}
	defer ev.ix.Store.Close()
	loop := &search.Loop{Keywords: search.StoreSearcher{Index: ev.ix.Store}, Index: ev.ix.Store, AI: ev.prov, Asker: search.NoAnswer{}}
	rep, details, err := eval.RunHonest(ctx, eval.HonestLoop{Loop: loop, Lang: d.Lang, MaxLoops: ev.cfg.SearchMaxLoopCount, Now: d.Now},
		sets, eval.Options{Workers: req.Workers, Progress: req.Progress})
	if err != nil {
		return eval.HonestReport{}, err
	}
	if req.Details != "" {
		if err := eval.WriteJSONLines(req.Details, details); err != nil {
			return eval.HonestReport{}, err
		}
	}
	rep.Provider, rep.Seed = ev.prov.Name(), req.Seed
	return rep, nil
}

// japaneseQueries reports whether most queries hold a Japanese character.
func japaneseQueries(qs []eval.Query) bool {
	n := 0
	for _, q := range qs {
		if strings.IndexFunc(q.Query, func(r rune) bool {
			return unicode.Is(unicode.Hiragana, r) || unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Han, r)
		}) >= 0 {
			n++
		}
	}
	return 2*n > len(qs)
}

// keptCorpus copies the corpus's files but the removed ones into a folder
// under dir named by the corpus and the removed files, and returns it. A
// file already there with the same size and modification time is left
// alone, so the folder's fingerprint (and its evaluation index) is reused
// from one run to the next.
func keptCorpus(corpus, dir string, removed []string) (string, error) {
	root, err := filepath.Abs(corpus)
	if err != nil {
		return "", apperr.Mark(fmt.Errorf("corpus %q: %w", corpus, err), apperr.Usage)
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00", root)
	gone := map[string]bool{}
	for _, r := range removed {
		gone[r] = true
		fmt.Fprintf(h, "%s\x00", r)
	}
	out := filepath.Join(dir, filepath.Base(root)+"-"+hex.EncodeToString(h.Sum(nil)[:6]), "docs")
	err = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if path != root && strings.HasPrefix(e.Name(), ".") {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() || gone[e.Name()] {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		return copyKept(path, filepath.Join(out, rel))
	})
	if err != nil {
		return "", fmt.Errorf("copy the corpus for the honest-search sets: %w", err)
	}
	return out, nil
}

// copyKept copies src to dst with src's modification time, unless dst
// already has its size and time.
func copyKept(src, dst string) error {
	si, err := os.Stat(src)
	if err != nil {
		return err
	}
	if di, err := os.Stat(dst); err == nil && di.Size() == si.Size() && di.ModTime().Equal(si.ModTime()) {
		return nil
	} else if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	b, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(filepath.Dir(dst), 0o700); err != nil {
		return err
	}
	if err := os.WriteFile(dst, b, 0o600); err != nil {
		return err
	}
	return os.Chtimes(dst, si.ModTime(), si.ModTime())
}
