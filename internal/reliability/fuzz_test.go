package reliability

// Fuzz targets that span packages: the --json renderer, the
// Drive query of the search loop (built by internal/search, parsed by the
// Drive emulator's independent q parser) and every extractor behind the
// MIME routing with a memory bound. scripts/fuzz.sh runs them with every
// other Fuzz* target of the repository.

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gds-cli/gds/internal/ai"
	"github.com/gds-cli/gds/internal/driveemu"
	"github.com/gds-cli/gds/internal/extract"
	"github.com/gds-cli/gds/internal/i18n"
	"github.com/gds-cli/gds/internal/render"
	"github.com/gds-cli/gds/internal/search"
	"github.com/gds-cli/gds/internal/search/drivesearch"
	"github.com/gds-cli/gds/internal/store"
)

// FuzzJSONOutput: whatever the query, file names, summaries, links,
// keywords, question and scores, `--json` writes one valid UTF-8 JSON
// document that decodes back to the same document.
func FuzzJSONOutput(f *testing.F) {
	f.Add("Q3 roadmap", "議事録.pdf", "summary\n<b>&", "https://x/1", "roadmap", "Which?", "2024-01-01", 0.5, uint8(0))
	f.Add("\xff\xfe", "\x00\x1b[31m\u202e", `"\u2028`, "file:///a b", "", "", "13/45", math.NaN(), uint8(1))
	f.Add("", "", "", "", "'", "?", "", math.Inf(1), uint8(2))
	f.Fuzz(func(t *testing.T, query, name, summary, link, keyword, question, date string, score float64, end uint8) {
		file := store.File{ID: name + "-id", Name: name, Summary: summary, WebLink: link, MimeType: "application/pdf", Path: summary,
			ModifiedAt: time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}
		s := search.State{Query: query, MaxLoops: 3, Rounds: []search.Round{{Loop: 1, Hits: 3, Branch: search.Branch(keyword),
			Conditions: search.Conditions{Keywords: []string{keyword, name}, Required: []string{summary}, Filters: ai.Filters{ModifiedAfter: date, FileType: keyword}}}}}
		out := search.Outcome{State: s, Provider: name}
		switch end % 4 {
		case 0:
			out.State.End, out.Results = search.EndResults, []search.Result{{File: file, Score: score}, {File: store.File{}, Score: -score}}
		case 1:
			out.State.End = search.EndNotFound
		case 2:
			out.State.End = search.EndLoopCap
		default:
			out.Pending = &ai.Question{Question: question, Choices: []ai.Choice{{Label: name, Keyword: keyword, Filters: ai.Filters{ModifiedBefore: date}}}}
		}
		for _, lang := range []string{i18n.En, i18n.Ja} {
			for _, v := range []any{
				render.NewSearchDoc(out, query, 10, lang),
				render.ErrorDoc{Error: render.JSONError{Code: "error", Message: summary, Hint: name}},
			} {
				var buf bytes.Buffer
				if err := render.WriteJSON(&buf, v); err != nil {
					t.Fatalf("WriteJSON: %v", err)
				}
				b := buf.Bytes()
				if !utf8.Valid(b) || !json.Valid(b) || !bytes.HasSuffix(b, []byte("\n")) {
					t.Fatalf("not one valid UTF-8 JSON document: %q", b)
				}
				dec := json.NewDecoder(bytes.NewReader(b))
				var doc map[string]any
				if err := dec.Decode(&doc); err != nil {
					t.Fatal(err)
				}
				if dec.More() {
					t.Fatalf("more than one document: %q", b)
				}
				if sd, ok := v.(render.SearchDoc); ok {
					var back render.SearchDoc
					if err := json.Unmarshal(b, &back); err != nil {
						t.Fatal(err)
					}
					// Valid UTF-8 strings survive unchanged; invalid bytes become U+FFFD.
					if utf8.ValidString(query) && back.Query != sd.Query {
						t.Fatalf("query %q came back as %q", sd.Query, back.Query)
					}
					if len(back.Results) != len(sd.Results) || sd.End == render.JSONEndQuestion && (back.Question == nil || utf8.ValidString(query) && back.State != query) {
						t.Fatalf("document changed in the round trip: %+v vs %+v", sd, back)
					}
					for i, r := range back.Results {
						if math.IsNaN(r.Score) || math.IsInf(r.Score, 0) {
							t.Fatalf("result %d score %v", i, r.Score)
						}
						if utf8.ValidString(name) && r.Name != sd.Results[i].Name {
							t.Fatalf("name %q came back as %q", sd.Results[i].Name, r.Name)
						}
					}
				}
			}
		}
	})
}

// qSkeleton replaces every quoted string of a Drive q string by ” (Drive
// escapes ' and \ with a backslash inside single quotes), leaving the
// structure.
func qSkeleton(q string) (string, bool) {
	var b strings.Builder
	for i := 0; i < len(q); i++ {
		if q[i] != '\'' {
			b.WriteByte(q[i])
			continue
		}
		i++
		for ; i < len(q) && q[i] != '\''; i++ {
			if q[i] == '\\' {
				i++
			}
		}
		if i >= len(q) {
			return "", false // unterminated
		}
		b.WriteString("''")
	}
	return b.String(), true
}

// FuzzDriveSearchQuery: the Drive query of any search conditions (user
// keywords, refinements, a file type and dates the AI produced) parses with
// the emulator's q parser, and its structure does not depend on the values:
// replacing every value by a plain word gives the same skeleton, so no
// value can escape its quotes.
func FuzzDriveSearchQuery(f *testing.F) {
	f.Add("議事録", "x' or name contains 'y", `a\'b\\`, "pdf", "2024-01-01", "2025-01-01")
	f.Add(`"quoted phrase"`, "", "(", "document", "2024-13-01", "")
	f.Add("' or '1'='1", `\`, "and", "", "", "2024-02-30")
	f.Fuzz(func(t *testing.T, k1, k2, req, fileType, after, before string) {
		if !utf8.ValidString(k1 + k2 + req) {
			return // user text reaches the query as UTF-8
		}
		c := search.Conditions{Keywords: []string{k1, k2}, Required: []string{req}, Filters: ai.Filters{FileType: fileType, ModifiedAfter: after, ModifiedBefore: before}}
		q, err := drivesearch.Query(c)
		if err != nil {
			if _, _, rerr := c.Filters.Range(); rerr == nil {
				t.Fatalf("drivesearch.Query failed on a valid period: %v", err)
			}
			return
		}
		s := q.String()
		if _, err := driveemu.ParseQuery(s); err != nil {
			// A double quote inside a fullText value is a phrase mark; an
			// unbalanced one is refused by Drive as by the emulator. Any
			// other parse error is a broken query.
			var qe *driveemu.QueryError
			if !errors.As(err, &qe) || !strings.Contains(k1+k2+req, `"`) {
				t.Fatalf("query %q does not parse: %v", s, err)
			}
		}
		plain := c
		plain.Keywords, plain.Required = []string{placeholder(k1), placeholder(k2)}, []string{placeholder(req)}
		pq, err := drivesearch.Query(plain)
		if err != nil {
			t.Fatal(err)
		}
		got, ok1 := qSkeleton(s)
		want, ok2 := qSkeleton(pq.String())
		if !ok1 || !ok2 || got != want {
			t.Fatalf("values changed the query's structure:\n%s\n%s", s, pq.String())
		}
	})
}

// placeholder is a plain word where v yields a search term, else v itself
// (dropped by the builder either way).
func placeholder(v string) string {
	if len(strings.Fields(strings.ReplaceAll(v, `"`, " "))) == 0 {
		return v
	}
	return "word"
}

// fuzzMIMEs are the types the extractors are routed by, plus refused ones.
var fuzzMIMEs = []string{"text/plain", "text/csv", "text/tab-separated-values", "text/markdown", "text/html", "application/xhtml+xml",
	"application/pdf", extract.MimeDOCX, extract.MimeXLSX, extract.MimePPTX, extract.MimeGoogleDoc, extract.MimeGoogleSheet,
	extract.MimeGoogleSlides, "image/png", "application/zip", "application/octet-stream"}

// Bounds of one extraction of at most fuzzMaxInput bytes.
const (
	fuzzMaxInput   = 1 << 20
	fuzzMaxAlloc   = 256 << 20 // bytes allocated
	fuzzMaxTextLen = 64 << 20  // bytes of text
	fuzzTimeLimit  = 5 * time.Second
)

// FuzzExtractAny: any bytes under any MIME type go through Extract without
// a panic, within the deadline, allocating at most fuzzMaxAlloc, and fail
// only with a documented sentinel.
func FuzzExtractAny(f *testing.F) {
	for i := range fuzzMIMEs {
		f.Add([]byte("Document one.\nline two, with, commas\n<p>html &amp; <b>bold</b></p>"), uint8(i))
	}
	f.Add([]byte("%PDF-1.4\n1 0 obj\n<< /Type /Catalog >>\nendobj\ntrailer\n<< /Root 1 0 R >>\n%%EOF"), uint8(6))
	f.Add([]byte("PK\x03\x04\x14\x00\x00\x00\x08\x00"), uint8(7))
	f.Add([]byte("\x82\xa0\x82\xa2\x82\xa4 Shift_JIS"), uint8(0))
	f.Fuzz(func(t *testing.T, data []byte, kind uint8) {
		mime := fuzzMIMEs[int(kind)%len(fuzzMIMEs)]
		ctx, cancel := context.WithTimeout(context.Background(), fuzzTimeLimit)
		defer cancel()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		doc, err := extract.Extract(ctx, mime, bytes.NewReader(data), fuzzMaxInput)
		took := time.Since(start)
		runtime.ReadMemStats(&after)
		if took > fuzzTimeLimit+time.Second {
			t.Fatalf("%s: Extract took %v, past its deadline", mime, took)
		}
		if alloc := after.TotalAlloc - before.TotalAlloc; alloc > fuzzMaxAlloc {
			t.Fatalf("%s: %d input bytes allocated %d MB", mime, len(data), alloc>>20)
		}
		if err != nil {
			if !errors.Is(err, extract.ErrMalformed) && !errors.Is(err, extract.ErrUnsupported) && !errors.Is(err, extract.ErrTooLarge) && !errors.Is(err, context.DeadlineExceeded) {
				t.Fatalf("%s: error without a documented cause: %v", mime, err)
			}
			return
		}
		if n := len(doc.Text()); n > fuzzMaxTextLen {
			t.Fatalf("%s: %d input bytes gave %d bytes of text", mime, len(data), n)
		}
	})
}
