package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"sort"
	"strconv"
	"strings"
)

// Zip limits for Office files: a part larger than maxPartBytes, or parts
// adding up to more than the budget, are refused as a zip bomb.
// maxPartBytes is a variable only so tests can lower it.
var maxPartBytes int64 = 64 << 20

const (
	minUnzipBudget    = 64 << 20
	unzipBudgetFactor = 20 // budget = max(minUnzipBudget, factor × file size)
	maxZipEntries     = 20000
)

// ooxmlPackage reads parts of an Office Open XML zip within a decompression
// budget.
type ooxmlPackage struct {
	files  map[string]*zip.File
	budget int64
}

func openOOXML(data []byte, f format) (*ooxmlPackage, error) {
	zr, err := zip.NewReader(bytes.NewReader(data), int64(len(data)))
	if err != nil {
		if errors.Is(err, zip.ErrFormat) {
			return nil, fmt.Errorf("%w: %s is not a zip file (no central directory: truncated?)", ErrMalformed, f)
		}
		return nil, fmt.Errorf("%w: %s: open zip: %v", ErrMalformed, f, err)
	}
	if len(zr.File) > maxZipEntries {
		return nil, fmt.Errorf("%w: %s has %d zip entries", ErrMalformed, f, len(zr.File))
	}
	p := &ooxmlPackage{files: make(map[string]*zip.File, len(zr.File)), budget: max(minUnzipBudget, unzipBudgetFactor*int64(len(data)))}
	for _, zf := range zr.File {
		p.files[strings.TrimPrefix(zf.Name, "/")] = zf
	}
	return p, nil
}

// read returns the decompressed part name; ok is false when it is absent.
func (p *ooxmlPackage) read(name string) ([]byte, bool, error) {
	zf, ok := p.files[name]
	if !ok {
		return nil, false, nil
	}
	if zf.UncompressedSize64 > uint64(maxPartBytes) || int64(zf.UncompressedSize64) > p.budget {
		return nil, true, fmt.Errorf("%w: zip part %s declares %d bytes (zip bomb?)", ErrMalformed, name, zf.UncompressedSize64)
	}
	rc, err := zf.Open()
	if err != nil {
		return nil, true, fmt.Errorf("%w: zip part %s: %v", ErrMalformed, name, err)
	}
	defer rc.Close()
	// The declared size may lie: cap what is actually inflated.
	limit := min(maxPartBytes, p.budget)
	b, err := io.ReadAll(io.LimitReader(rc, limit+1))
	if err != nil {
		return nil, true, fmt.Errorf("%w: zip part %s: %v", ErrMalformed, name, err)
	}
	if int64(len(b)) > limit {
		return nil, true, fmt.Errorf("%w: zip part %s inflates beyond %d bytes (zip bomb?)", ErrMalformed, name, limit)
	}
	p.budget -= int64(len(b))
	return b, true, nil
}

// rels reads a relationships part and returns target paths by id, resolved
// against the directory of the part they belong to.
func (p *ooxmlPackage) rels(part string) (map[string]string, error) {
	dir, file := path.Split(part)
	b, ok, err := p.read(dir + "_rels/" + file + ".rels")
	if err != nil || !ok {
		return map[string]string{}, err
	}
	var r struct {
		Rel []struct {
			ID         string `xml:"Id,attr"`
			Target     string `xml:"Target,attr"`
			TargetMode string `xml:"TargetMode,attr"`
		} `xml:"Relationship"`
	}
	if err := xml.Unmarshal(b, &r); err != nil {
		return nil, fmt.Errorf("%w: %s relationships: %v", ErrMalformed, part, err)
	}
	out := make(map[string]string, len(r.Rel))
	for _, x := range r.Rel {
		if x.TargetMode == "External" {
			continue
		}
		t := x.Target
		if strings.HasPrefix(t, "/") {
			t = strings.TrimPrefix(t, "/")
		} else {
			t = path.Join(dir, t)
		}
		out[x.ID] = t
	}
	return out, nil
}

func extractOOXML(ctx context.Context, f format, data []byte, _ int64) (Doc, error) {
	p, err := openOOXML(data, f)
	if err != nil {
		return Doc{}, err
	}
	switch f {
	case formatDOCX:
		return extractDOCX(ctx, p)
	case formatXLSX:
		return extractXLSX(ctx, p)
	default:
		return extractPPTX(ctx, p)
	}
}

// xmlText walks an XML part and writes its text: character data inside the
// elements textTags names (local names), with tab/line breaks for the
// elements in tabs and breaks (at their end). Elements in skip are ignored
// with everything inside them.
type xmlText struct {
	text   map[string]bool
	tabs   map[string]bool
	breaks map[string]bool
	skip   map[string]bool
	// empty elements that stand for a character: w:tab → "\t", w:br → "\n"
	chars map[string]string
}

func (x xmlText) write(b *strings.Builder, part []byte) error {
	d := xml.NewDecoder(bytes.NewReader(part))
	depthText, skipDepth, cells := 0, 0, 0
	pendingSpace := false // paragraph break inside a table cell
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			n := t.Name.Local
			if skipDepth > 0 || x.skip[n] {
				skipDepth++
				continue
			}
			if x.text[n] {
				depthText++
			}
			if x.tabs[n] {
				cells++
			}
			if c, ok := x.chars[n]; ok {
				b.WriteString(c)
				pendingSpace = false
			}
		case xml.EndElement:
			n := t.Name.Local
			if skipDepth > 0 {
				skipDepth--
				continue
			}
			if x.text[n] && depthText > 0 {
				depthText--
			}
			switch {
			case x.tabs[n]:
				cells--
				b.WriteByte('\t')
			case x.breaks[n] && cells > 0 && n == "p":
				pendingSpace = true
				continue
			case x.breaks[n]:
				b.WriteByte('\n')
			}
			pendingSpace = false
		case xml.CharData:
			if depthText > 0 && skipDepth == 0 {
				if pendingSpace {
					b.WriteByte(' ')
					pendingSpace = false
				}
				b.Write(t)
			}
		}
	}
}

func set(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

var docxText = xmlText{
	text:   set("t"),
	tabs:   set("tc"),
	breaks: set("p", "tr"),
	skip:   set("delText", "instrText", "rPh"),
	chars:  map[string]string{"tab": "\t", "br": "\n", "cr": "\n"},
}

// extractDOCX returns the body (paragraphs and tables, cells separated by
// tabs, rows by line breaks), then headers, footers, footnotes and endnotes.
func extractDOCX(ctx context.Context, p *ooxmlPackage) (Doc, error) {
	main := "word/document.xml"
	if _, ok := p.files[main]; !ok {
		return Doc{}, fmt.Errorf("%w: DOCX has no word/document.xml", ErrMalformed)
	}
	parts := []string{main}
	rels, err := p.rels(main)
	if err != nil {
		return Doc{}, err
	}
	var extra []string
	for _, t := range rels {
		base := path.Base(t)
		for _, pre := range []string{"header", "footer", "footnotes", "endnotes"} {
			if strings.HasPrefix(base, pre) && strings.HasSuffix(base, ".xml") {
				extra = append(extra, t)
			}
		}
	}
	sort.Strings(extra)
	parts = append(parts, extra...)
	var b strings.Builder
	for _, part := range parts {
		if err := ctx.Err(); err != nil {
			return Doc{}, err
		}
		data, ok, err := p.read(part)
		if err != nil {
			return Doc{}, err
		}
		if !ok {
			continue
		}
		if err := docxText.write(&b, data); err != nil {
			return Doc{}, fmt.Errorf("%w: DOCX %s: %v", ErrMalformed, part, err)
		}
		b.WriteByte('\n')
	}
	return Doc{Pages: []Page{{Text: tidy(b.String())}}}, nil
}

var pptxText = xmlText{
	text:   set("t"),
	tabs:   set("tc"),
	breaks: set("p", "tr"),
	chars:  map[string]string{"br": "\n", "tab": "\t"},
}

// extractPPTX returns one Page per slide, numbered in presentation order,
// with the text of its shapes, groups and tables, then its speaker notes.
func extractPPTX(ctx context.Context, p *ooxmlPackage) (Doc, error) {
	pres := "ppt/presentation.xml"
	data, ok, err := p.read(pres)
	if err != nil {
		return Doc{}, err
	}
	if !ok {
		return Doc{}, fmt.Errorf("%w: PPTX has no ppt/presentation.xml", ErrMalformed)
	}
	var pr struct {
		Slides []struct {
			RID string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sldIdLst>sldId"`
	}
	if err := xml.Unmarshal(data, &pr); err != nil {
		return Doc{}, fmt.Errorf("%w: PPTX presentation.xml: %v", ErrMalformed, err)
	}
	rels, err := p.rels(pres)
	if err != nil {
		return Doc{}, err
	}
	var doc Doc
	for i, s := range pr.Slides {
		if err := ctx.Err(); err != nil {
			return Doc{}, err
		}
		target, ok := rels[s.RID]
		if !ok {
			continue
		}
		var b strings.Builder
		for _, part := range slideParts(p, target) {
			sd, ok, err := p.read(part)
			if err != nil {
				return Doc{}, err
			}
			if !ok {
				continue
			}
			if err := pptxText.write(&b, sd); err != nil {
				return Doc{}, fmt.Errorf("%w: PPTX %s: %v", ErrMalformed, part, err)
			}
			b.WriteByte('\n')
		}
		doc.Pages = append(doc.Pages, Page{Number: i + 1, Text: tidy(b.String())})
	}
	return doc, nil
}

// slideParts returns a slide and the parts whose text belongs to it: its
// charts (titles, labels) and its notes, skipping the slide number field
// that notes repeat.
func slideParts(p *ooxmlPackage, slide string) []string {
	parts := []string{slide}
	rels, err := p.rels(slide)
	if err != nil {
		return parts
	}
	var extra []string
	for _, t := range rels {
		if strings.Contains(t, "/charts/chart") || strings.Contains(t, "/notesSlides/") || strings.Contains(t, "/diagrams/data") {
			extra = append(extra, t)
		}
	}
	sort.Strings(extra)
	return append(parts, extra...)
}

// extractXLSX returns one Page (Number 0) per sheet: the sheet name, then
// its rows with cells separated by tabs, shared and inline strings resolved.
func extractXLSX(ctx context.Context, p *ooxmlPackage) (Doc, error) {
	wb := "xl/workbook.xml"
	data, ok, err := p.read(wb)
	if err != nil {
		return Doc{}, err
	}
	if !ok {
		return Doc{}, fmt.Errorf("%w: XLSX has no xl/workbook.xml", ErrMalformed)
	}
	var w struct {
		Sheets []struct {
			Name string `xml:"name,attr"`
			RID  string `xml:"http://schemas.openxmlformats.org/officeDocument/2006/relationships id,attr"`
		} `xml:"sheets>sheet"`
	}
	if err := xml.Unmarshal(data, &w); err != nil {
		return Doc{}, fmt.Errorf("%w: XLSX workbook.xml: %v", ErrMalformed, err)
	}
	rels, err := p.rels(wb)
	if err != nil {
		return Doc{}, err
	}
	shared, err := sharedStrings(p, rels)
	if err != nil {
		return Doc{}, err
	}
	var doc Doc
	for _, s := range w.Sheets {
		if err := ctx.Err(); err != nil {
			return Doc{}, err
		}
		target, ok := rels[s.RID]
		if !ok {
			continue
		}
		sd, ok, err := p.read(target)
		if err != nil {
			return Doc{}, err
		}
		if !ok {
			continue
		}
		text, err := sheetText(sd, shared)
		if err != nil {
			return Doc{}, fmt.Errorf("%w: XLSX sheet %q: %v", ErrMalformed, s.Name, err)
		}
		doc.Pages = append(doc.Pages, Page{Text: strings.TrimSpace(s.Name + "\n" + text)})
	}
	return doc, nil
}

// sharedStrings reads the shared string table: one string per <si>, the
// concatenation of its runs without phonetic (furigana) runs.
func sharedStrings(p *ooxmlPackage, rels map[string]string) ([]string, error) {
	name := "xl/sharedStrings.xml"
	for _, t := range rels {
		if strings.HasSuffix(t, "sharedStrings.xml") {
			name = t
		}
	}
	data, ok, err := p.read(name)
	if err != nil || !ok {
		return nil, err
	}
	var out []string
	var b strings.Builder
	d := xml.NewDecoder(bytes.NewReader(data))
	inT, skip := false, 0
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: XLSX shared strings: %v", ErrMalformed, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				b.Reset()
			case "t":
				inT = true
			case "rPh":
				skip++
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				out = append(out, b.String())
			case "t":
				inT = false
			case "rPh":
				skip--
			}
		case xml.CharData:
			if inT && skip == 0 {
				b.Write(t)
			}
		}
	}
}

// maxSheetColumns bounds the empty cells inserted for column gaps.
const maxSheetColumns = 1024

// sheetText writes a worksheet's rows: cells in column order separated by
// tabs (empty cells keep their place), rows by line breaks.
func sheetText(data []byte, shared []string) (string, error) {
	var b strings.Builder
	d := xml.NewDecoder(bytes.NewReader(data))
	var (
		cellType, ref string
		val           strings.Builder
		inV, inIS     bool
		col           int // next column (0-based) of the current row
		rowHasText    bool
	)
	for {
		tok, err := d.RawToken()
		if err == io.EOF {
			return strings.TrimSpace(b.String()), nil
		}
		if err != nil {
			return "", err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "row":
				col, rowHasText = 0, false
			case "c":
				cellType, ref = "", ""
				for _, a := range t.Attr {
					switch a.Name.Local {
					case "t":
						cellType = a.Value
					case "r":
						ref = a.Value
					}
				}
				val.Reset()
			case "v", "f":
				inV = t.Name.Local == "v"
			case "is":
				inIS = true
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "v":
				inV = false
			case "is":
				inIS = false
			case "c":
				s := cellValue(cellType, val.String(), shared)
				if s == "" {
					continue
				}
				target := columnIndex(ref)
				if target < col || target > maxSheetColumns {
					target = col
				}
				n := target - col
				if rowHasText {
					n++
				}
				b.WriteString(strings.Repeat("\t", n))
				b.WriteString(strings.ReplaceAll(s, "\n", " "))
				rowHasText = true
				col = target + 1
			case "row":
				if rowHasText {
					b.WriteByte('\n')
				}
			}
		case xml.CharData:
			if inV || inIS {
				val.Write(t)
			}
		}
	}
}

func cellValue(typ, v string, shared []string) string {
	switch typ {
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil || i < 0 || i >= len(shared) {
			return ""
		}
		return shared[i]
	case "b":
		if strings.TrimSpace(v) == "1" {
			return "TRUE"
		}
		return "FALSE"
	}
	return strings.TrimSpace(v)
}

// columnIndex returns the 0-based column of a cell reference like "C12",
// or -1.
func columnIndex(ref string) int {
	c := 0
	n := 0
	for _, r := range ref {
		if r < 'A' || r > 'Z' {
			break
		}
		c = c*26 + int(r-'A'+1)
		n++
		if n > 3 {
			return -1
		}
	}
	return c - 1
}

// tidy trims line ends and collapses runs of blank lines.
func tidy(s string) string { return cleanLines(s) }
