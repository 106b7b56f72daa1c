package reliability

import (
	"bytes"
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"time"

	"github.com/gds-cli/gds/internal/crawl"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/extract"
)

// Source kinds a corpus can be crawled through.
const (
	SourceLocal = "local" // gds crawl --source local:DIR
	SourceDrive = "drive" // the Drive API emulator serving DIR (driveemu.FromDir)
)

// CorpusFile is one file written by WriteCorpus.
type CorpusFile struct {
	Rel     string    // slash-separated path under Corpus.Dir
	ModTime time.Time // distinct per file, whole seconds
	// Indexable is false for the files gds must skip (binary content).
	Indexable bool
	// DriveKey is the key of the file's Drive ID (driveemu.StableID) when
	// it is not "dir:"+Rel: a file moved or renamed by Mutate keeps the
	// Drive ID of its first path (a local file's ID is its path).
	DriveKey string
}

// Corpus is a folder of generated files.
type Corpus struct {
	Dir   string       // absolute
	Files []CorpusFile // ascending ModTime
}

// Expect is what the index must hold for one corpus file.
type Expect struct {
	ID      string
	Rel     string
	ModTime time.Time
	// Hash is the sha256 (hex) of the extracted text, as crawl stores it;
	// "" for a file that must not be indexed.
	Hash string
	// Chunks are the expected chunk texts in order (1,000 characters with
	// 200 of overlap, the chunking rule).
	Chunks []string
}

// Indexable reports whether the file must end up in the index.
func (e Expect) Indexable() bool { return e.Hash != "" }

var (
	enWords = strings.Fields(`budget plan launch travel report quarter meeting notes design review
		customer contract invoice schedule project alpha beta gamma delta roadmap hiring policy
		security audit storage network latency throughput release migration backup incident
		postmortem summary proposal research survey interview feedback metric revenue cost
		forecast inventory supplier warehouse shipment marketing campaign analytics dashboard`)
	jaWords = strings.Fields(`予算 計画 出張 報告 会議 議事録 設計 契約 請求書 日程 採用 方針 監査
		移行 障害 振り返り 提案 調査 売上 費用 在庫 物流 販促 分析 東京 大阪 四半期 新製品`)
)

// corpusText returns the text of file i: 150 to 2,600 characters of
// English or (one file in four) Japanese words, with a unique marker.
func corpusText(rng *rand.Rand, i int) string {
	words, sep := enWords, " "
	if i%4 == 3 {
		words, sep = jaWords, ""
	}
	want := 150 + rng.IntN(2450)
	var b strings.Builder
	fmt.Fprintf(&b, "doc%06d", i)
	for n := 0; b.Len() < want; n++ {
		b.WriteString(sep)
		b.WriteString(words[rng.IntN(len(words))])
		if n%12 == 11 {
			b.WriteString(".\n")
		}
	}
	return b.String()
}

// WriteCorpus writes n files into dir (created if needed) in 10 folders:
// text files with distinct content and, every 40th file, a binary file gds
// skips. Modification times are distinct whole seconds in a shuffled order
// (so listing order and time order differ), all in the past. The same seed
// gives the same corpus.
func WriteCorpus(dir string, n int, seed uint64) (*Corpus, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("corpus folder: %w", err)
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	perm := rng.Perm(n)
	base := time.Now().Add(-time.Duration(n+3600) * time.Second).Truncate(time.Second)
	c := &Corpus{Dir: abs}
	for i := range n {
		var (
			name    string
			content []byte
		)
		indexable := i%40 != 39
		if indexable {
			name = fmt.Sprintf("f%06d.txt", i)
			content = []byte(corpusText(rng, i))
		} else {
			name = fmt.Sprintf("f%06d.bin", i)
			content = make([]byte, 256)
			for j := range content {
				content[j] = byte(rng.IntN(256))
			}
			content[0], content[1] = 0, 0xff // never text
		}
		rel := fmt.Sprintf("d%d/%s", i%10, name)
		p := filepath.Join(abs, filepath.FromSlash(rel))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return nil, fmt.Errorf("write corpus: %w", err)
		}
		if err := os.WriteFile(p, content, 0o644); err != nil {
			return nil, fmt.Errorf("write corpus: %w", err)
		}
		mt := base.Add(time.Duration(perm[i]) * time.Second)
		if err := os.Chtimes(p, mt, mt); err != nil {
			return nil, fmt.Errorf("write corpus: %w", err)
		}
		c.Files = append(c.Files, CorpusFile{Rel: rel, ModTime: mt.UTC(), Indexable: indexable})
	}
	sort.Slice(c.Files, func(i, j int) bool { return c.Files[i].ModTime.Before(c.Files[j].ModTime) })
	return c, nil
}

// Expect returns what the index must hold after crawling the corpus through
// the given source kind (SourceLocal or SourceDrive), in ModTime order. The
// expected text is computed by package extract from the file as written.
func (c *Corpus) Expect(ctx context.Context, kind string) ([]Expect, error) {
	out := make([]Expect, 0, len(c.Files))
	for _, f := range c.Files {
		e := Expect{Rel: f.Rel, ModTime: f.ModTime}
		switch kind {
		case SourceLocal:
			e.ID = crawl.LocalID(c.Dir, f.Rel)
		case SourceDrive:
			key := f.DriveKey
			if key == "" {
				key = "dir:" + f.Rel
			}
			e.ID = driveemu.StableID(key)
		default:
			return nil, fmt.Errorf("unknown source kind %q", kind)
		}
		if f.Indexable {
			b, err := os.ReadFile(filepath.Join(c.Dir, filepath.FromSlash(f.Rel)))
			if err != nil {
				return nil, fmt.Errorf("read corpus file: %w", err)
			}
			doc, err := extract.Extract(ctx, extract.MimeTypeByName(f.Rel), bytes.NewReader(b), 0)
			if err != nil {
				return nil, fmt.Errorf("extract corpus file %s: %w", f.Rel, err)
			}
			e.Hash, e.Chunks = textHash(doc.Text()), chunkTexts(doc)
		}
		out = append(out, e)
	}
	return out, nil
}

func textHash(text string) string { return crawl.ContentHash(text) }

// chunkTexts is the texts of the crawl's chunks of doc (crawl.Chunks,
// whose rules textseg's tests pin down): what a complete index holds.
func chunkTexts(doc extract.Doc) []string {
	var out []string
	for _, c := range crawl.Chunks(doc) {
		out = append(out, c.Text)
	}
	return out
}
