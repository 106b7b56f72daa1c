package extract

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"math"
	"path"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
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

// open returns a reader of part name, decompressed as it is read: at most
// min(maxPartBytes, budget) bytes, whatever the header declares, each
// charged to the package's budget. ok is false when the part is absent.
func (p *ooxmlPackage) open(name string) (io.ReadCloser, bool, error) {
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
	return &partReader{rc: rc, p: p, name: name, left: min(maxPartBytes, p.budget)}, true, nil
}

// partReader stops a part at its limit: the declared size may lie.
type partReader struct {
	rc   io.ReadCloser
	p    *ooxmlPackage
	name string
	left int64
}

func (r *partReader) Read(b []byte) (int, error) {
	if r.left <= 0 {
		// One byte more tells a part that ends here from one that goes on.
		var one [1]byte
		if n, _ := r.rc.Read(one[:]); n > 0 {
			return 0, fmt.Errorf("%w: zip part %s inflates beyond the limit (zip bomb?)", ErrMalformed, r.name)
		}
		return 0, io.EOF
	}
	n, err := r.rc.Read(b[:min(int64(len(b)), r.left)])
	r.left -= int64(n)
	r.p.budget -= int64(n)
	if err != nil && err != io.EOF {
		err = fmt.Errorf("%w: zip part %s: %v", ErrMalformed, r.name, err)
	}
	return n, err
}

func (r *partReader) Close() error { return r.rc.Close() }

// read returns the decompressed part name (for the small parts: relations,
// workbook, presentation); ok is false when it is absent.
func (p *ooxmlPackage) read(name string) ([]byte, bool, error) {
	rc, ok, err := p.open(name)
	if err != nil || !ok {
		return nil, ok, err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		return nil, true, err
	}
	return b, true, nil
}

// maxRelationships bounds the relationships kept from one part (a
// package has at most maxZipEntries parts to point at).
const maxRelationships = 4 * maxZipEntries

// relation is one internal relationship of a part.
type relation struct {
	id, typ, target string
}

// rels reads a relationships part and returns target paths by id, resolved
// against the directory of the part they belong to.
func (p *ooxmlPackage) rels(part string) (map[string]string, error) {
	rs, err := p.relations(part)
	if err != nil {
		return map[string]string{}, err
	}
	out := make(map[string]string, len(rs))
	for _, r := range rs {
		out[r.id] = r.target
	}
	return out, nil
}

// relations reads the internal relationships of part ("" for the
// package's own), targets resolved against the part's directory.
func (p *ooxmlPackage) relations(part string) ([]relation, error) {
	dir, file := path.Split(part)
	rc, ok, err := p.open(dir + "_rels/" + file + ".rels")
	if err != nil || !ok {
		return nil, err
	}
	defer rc.Close()
	var out []relation
	d := xml.NewDecoder(rc)
	for len(out) < maxRelationships {
		tok, err := d.RawToken()
		if err == io.EOF {
			break
		}
		if err != nil {
			if errors.Is(err, ErrMalformed) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: %s relationships: %v", ErrMalformed, part, err)
		}
		se, ok := tok.(xml.StartElement)
		if !ok || se.Name.Local != "Relationship" {
			continue
		}
		var r relation
		var mode string
		for _, a := range se.Attr {
			switch a.Name.Local {
			case "Id":
				r.id = a.Value
			case "Type":
				r.typ = a.Value
			case "Target":
				r.target = a.Value
			case "TargetMode":
				mode = a.Value
			}
		}
		if mode == "External" {
			continue
		}
		if strings.HasPrefix(r.target, "/") {
			r.target = strings.TrimPrefix(r.target, "/")
		} else {
			r.target = path.Join(dir, r.target)
		}
		out = append(out, r)
	}
	return out, nil
}

// mainPart returns the package's main part (its officeDocument
// relationship: Word Online names it word/document2.xml), else def.
func (p *ooxmlPackage) mainPart(def string) string {
	rs, err := p.relations("")
	if err != nil {
		return def
	}
	for _, r := range rs {
		if strings.HasSuffix(r.typ, "/officeDocument") {
			if _, ok := p.files[r.target]; ok {
				return r.target
			}
		}
	}
	return def
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
	// lists, when set, numbers the paragraphs (w:p) of a DOCX's lists.
	lists *listNumberer
	// autoNum numbers the paragraphs (a:p) of DrawingML text that
	// a:buAutoNum numbers (pptxnum.go).
	autoNum bool
	// notes, when set, writes the marks of a DOCX's footnotes and
	// endnotes (docxnotes.go).
	notes *noteMarks
}

// maxOpenParas bounds the paragraphs inside paragraphs (text boxes) whose
// list numbers are tracked.
const maxOpenParas = 32

// openPara is a paragraph being read: its element depth, and what its
// properties (w:pPr) say of lists.
type openPara struct {
	depth          int
	inPPr, inNumPr bool
	num            paraNumbering
	labelled       bool
}

// write streams an XML part into w, and stops early once w's budget is
// full (the rest of the part is never inflated).
func (x xmlText) write(ctx context.Context, w *textWriter, part io.Reader) error {
	d := xml.NewDecoder(part)
	depthText, skipDepth, cells := 0, 0, 0
	pendingSpace := false // paragraph break inside a table cell
	depth := 0            // of the elements open, skipped ones left out
	var paras []openPara  // when numbering lists
	var drawing *pptxParas
	afterMark := false // a note mark was written last
	if x.autoNum {
		drawing = &pptxParas{}
	}
	// label writes the list number of paragraph p once: after its
	// properties, before its first other content.
	label := func(p *openPara) {
		if p.labelled {
			return
		}
		p.labelled, p.inPPr, p.inNumPr = true, false, false
		if s := x.lists.next(p.num); s != "" {
			if pendingSpace {
				w.WriteByte(' ')
				pendingSpace = false
			}
			w.WriteString(s)
		}
	}
	for n := 0; !w.budget.full(); n++ {
		if n&4095 == 4095 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
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
			depth++
			if x.lists != nil {
				paras = x.paraStart(paras, n, t, depth, label)
			}
			if drawing != nil {
				drawing.start(t, depth)
			}
			if x.text[n] {
				depthText++
			}
			if x.tabs[n] {
				cells++
			}
			if c, ok := x.chars[n]; ok {
				w.WriteString(c)
				pendingSpace = false
			}
			if x.notes != nil {
				if mark := x.notes.start(t); mark != "" {
					if pendingSpace {
						w.WriteByte(' ')
						pendingSpace = false
					}
					writeMark(w, mark)
					afterMark = true
				}
			}
		case xml.EndElement:
			n := t.Name.Local
			if skipDepth > 0 {
				skipDepth--
				continue
			}
			if k := len(paras) - 1; k >= 0 {
				switch top := &paras[k]; {
				case n == "pPr" && depth == top.depth+1:
					label(top)
				case n == "numPr" && depth == top.depth+2:
					top.inNumPr = false
				case n == "p" && depth == top.depth:
					label(top)
					paras = paras[:k]
				}
			}
			if drawing != nil {
				drawing.end(n, depth)
			}
			depth--
			if x.text[n] && depthText > 0 {
				depthText--
			}
			// A paragraph break in a cell is written as a space before
			// the next text, whatever elements end in between (the next
			// paragraph's properties).
			switch {
			case x.tabs[n]:
				cells--
				w.WriteByte('\t')
				pendingSpace = false
			case x.breaks[n] && cells > 0 && n == "p":
				pendingSpace = true
			case x.breaks[n]:
				w.WriteByte('\n')
				pendingSpace = false
			}
		case xml.CharData:
			if depthText > 0 && skipDepth == 0 {
				if pendingSpace {
					w.WriteByte(' ')
					pendingSpace = false
				}
				if drawing != nil {
					w.WriteString(drawing.before(t))
				}
				if r, _ := utf8.DecodeRune(t); afterMark && isLetterOrDigit(r) {
					w.WriteByte(' ')
				}
				afterMark = false
				w.Write(t)
			}
		}
	}
	return nil
}

// paraStart follows the paragraphs of a DOCX part at the start of
// element n (at depth): a w:p opens one, its w:pPr's w:pStyle and w:numPr
// say which list it is in, and its first other child labels it.
func (x xmlText) paraStart(paras []openPara, n string, se xml.StartElement, depth int, label func(*openPara)) []openPara {
	if n == "p" {
		if len(paras) < maxOpenParas {
			paras = append(paras, openPara{depth: depth})
		}
		return paras
	}
	k := len(paras) - 1
	if k < 0 {
		return paras
	}
	top := &paras[k]
	v, _ := attr(se, "val")
	switch {
	case depth == top.depth+1 && n == "pPr" && !top.labelled:
		top.inPPr = true
	case depth == top.depth+1:
		label(top)
	case !top.inPPr:
	case depth == top.depth+2 && n == "pStyle":
		top.num.style = v
	case depth == top.depth+2 && n == "numPr":
		top.inNumPr = true
	case !top.inNumPr || depth != top.depth+3:
	case n == "numId":
		top.num.numID, top.num.hasNum = strings.TrimSpace(v), true
	case n == "ilvl":
		if i, ok := listNumber(v); ok {
			top.num.ilvl, top.num.hasLv = i, true
		}
	}
	return paras
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
	// rt: ruby (furigana) over its base text; tabs: a paragraph's tab
	// stops (w:tab in them is no tab character); Fallback: the VML copy
	// Word writes of a text box or shape (mc:AlternateContent), whose
	// text mc:Choice holds too
	skip:  set("delText", "instrText", "rPh", "rt", "tabs", "Fallback"),
	chars: map[string]string{"tab": "\t", "br": "\n", "cr": "\n"},
}

// extractDOCX returns the body (paragraphs and tables, cells separated by
// tabs, rows by line breaks), then headers, footers, footnotes and endnotes.
func extractDOCX(ctx context.Context, p *ooxmlPackage) (Doc, error) {
	main := p.mainPart("word/document.xml")
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
	parts = append(parts, uniqueSorted(extra)...)
	defs, err := docxLists(ctx, p, rels)
	if err != nil {
		return Doc{}, err
	}
	x := docxText
	if defs != nil {
		x.lists = newListNumberer(defs)
	}
	x.notes = newNoteMarks()
	budget := newTextBudget()
	w := newTextWriter(budget)
	for _, part := range parts {
		if budget.full() {
			break
		}
		if err := p.writePart(ctx, x, w, part, formatDOCX); err != nil {
			return Doc{}, err
		}
		w.WriteByte('\n')
	}
	return Doc{Pages: []Page{{Text: tidy(w.String())}}, Truncated: budget.truncated}, nil
}

// writePart streams the text of part (when present) into w.
func (p *ooxmlPackage) writePart(ctx context.Context, x xmlText, w *textWriter, part string, f format) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	rc, ok, err := p.open(part)
	if err != nil || !ok {
		return err
	}
	defer rc.Close()
	err = x.write(ctx, w, rc)
	switch {
	case err == nil, errors.Is(err, ErrMalformed):
		return err
	case ctx.Err() != nil:
		return ctx.Err()
	}
	return fmt.Errorf("%w: %s %s: %v", ErrMalformed, f, part, err)
}

var pptxText = xmlText{
	text:   set("t"),
	tabs:   set("tc"),
	breaks: set("p", "tr"),
	// Fallback: the copy of an mc:AlternateContent shape (a math or
	// newer shape) for readers that do not know mc:Choice's, whose text
	// mc:Choice holds too
	skip:    set("Fallback"),
	chars:   map[string]string{"br": "\n", "tab": "\t"},
	autoNum: true,
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
	budget := newTextBudget()
	seen := map[string]bool{} // a slide part listed twice is read once
	for i, s := range pr.Slides {
		if budget.full() {
			break
		}
		target, ok := rels[s.RID]
		if !ok || seen[target] {
			continue
		}
		seen[target] = true
		w := newTextWriter(budget)
		for _, part := range slideParts(p, target) {
			if err := p.writePart(ctx, pptxText, w, part, formatPPTX); err != nil {
				return Doc{}, err
			}
			w.WriteByte('\n')
		}
		doc.Pages = append(doc.Pages, Page{Number: i + 1, Text: tidy(w.String())})
	}
	doc.Truncated = budget.truncated
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
	return append(parts, uniqueSorted(extra)...)
}

// uniqueSorted sorts names and drops repeats: many relationships may
// point at one part, which is read once.
func uniqueSorted(names []string) []string {
	sort.Strings(names)
	return slices.Compact(names)
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
		Pr struct {
			Date1904 string `xml:"date1904,attr"`
		} `xml:"workbookPr"`
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
	shared, err := sharedStrings(ctx, p, rels)
	if err != nil {
		return Doc{}, err
	}
	styles, err := workbookStyles(ctx, p, rels)
	if err != nil {
		return Doc{}, err
	}
	styles.date1904 = w.Pr.Date1904 == "1" || w.Pr.Date1904 == "true"
	var doc Doc
	budget := newTextBudget()
	seen := map[string]bool{} // a sheet part listed twice is read once
	for _, s := range w.Sheets {
		if err := ctx.Err(); err != nil {
			return Doc{}, err
		}
		if budget.full() {
			break
		}
		target, ok := rels[s.RID]
		if !ok || seen[target] {
			continue
		}
		seen[target] = true
		rc, ok, err := p.open(target)
		if err != nil {
			return Doc{}, err
		}
		if !ok {
			continue
		}
		tw := newTextWriter(budget)
		tw.WriteString(s.Name + "\n")
		err = sheetText(ctx, tw, rc, shared, styles)
		rc.Close()
		if err != nil {
			if errors.Is(err, ErrMalformed) || ctx.Err() != nil {
				return Doc{}, err
			}
			return Doc{}, fmt.Errorf("%w: XLSX sheet %q: %v", ErrMalformed, s.Name, err)
		}
		doc.Pages = append(doc.Pages, Page{Text: strings.TrimSpace(tw.String())})
	}
	doc.Truncated = budget.truncated || shared.truncated
	return doc, nil
}

// workbookStyles reads the cell formats of the workbook's styles part;
// without one every cell is General.
func workbookStyles(ctx context.Context, p *ooxmlPackage, rels map[string]string) (*cellStyles, error) {
	name := "xl/styles.xml"
	for _, t := range rels {
		if strings.HasSuffix(t, "/styles.xml") {
			name = t
		}
	}
	rc, ok, err := p.open(name)
	if err != nil || !ok {
		return &cellStyles{}, err
	}
	defer rc.Close()
	return readCellStyles(ctx, rc)
}

// Bounds of the shared string table: it is kept whole (cells refer to it
// by index), so its size must not follow the part's.
// They are variables only so tests can lower them.
var (
	maxSharedBytes   = 4 * MaxTextBytes
	maxSharedStrings = 1 << 20
)

// sharedTable is the shared string table: string i is
// data[ends[i-1]:ends[i]] (one allocation, not one per string).
type sharedTable struct {
	data []byte
	ends []uint32
	// Strings from cutFrom on, and those in cut, lost text at the bounds;
	// reading one sets truncated.
	cutFrom   int
	cut       map[int]bool
	truncated bool
}

func (t *sharedTable) get(i int) string {
	if i >= t.cutFrom || t.cut[i] {
		t.truncated = true
	}
	if i < 0 || i >= len(t.ends) {
		return ""
	}
	start := uint32(0)
	if i > 0 {
		start = t.ends[i-1]
	}
	return string(t.data[start:t.ends[i]])
}

// sharedStrings reads the shared string table: one string per <si>, the
// concatenation of its runs without phonetic (furigana) runs, each cut at
// textLimit, all together at maxSharedBytes and maxSharedStrings.
func sharedStrings(ctx context.Context, p *ooxmlPackage, rels map[string]string) (*sharedTable, error) {
	name := "xl/sharedStrings.xml"
	for _, t := range rels {
		if strings.HasSuffix(t, "sharedStrings.xml") {
			name = t
		}
	}
	table := &sharedTable{cutFrom: math.MaxInt, cut: map[int]bool{}}
	rc, ok, err := p.open(name)
	if err != nil || !ok {
		return table, err
	}
	defer rc.Close()
	d := xml.NewDecoder(rc)
	inT, skip := false, 0
	start := 0 // of the current string in data
	for n := 0; ; n++ {
		if n&4095 == 4095 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		tok, err := d.RawToken()
		if err == io.EOF {
			return table, nil
		}
		if err != nil {
			if errors.Is(err, ErrMalformed) {
				return nil, err
			}
			return nil, fmt.Errorf("%w: XLSX shared strings: %v", ErrMalformed, err)
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "si":
				start = len(table.data)
			case "t":
				inT = true
			case "rPh":
				skip++
			}
		case xml.EndElement:
			switch t.Name.Local {
			case "si":
				if len(table.ends) >= maxSharedStrings {
					table.cutFrom = min(table.cutFrom, len(table.ends))
					return table, nil // later cells read as empty
				}
				table.ends = append(table.ends, uint32(len(table.data)))
			case "t":
				inT = false
			case "rPh":
				skip--
			}
		case xml.CharData:
			if inT && skip == 0 {
				if room := textLimit - (len(table.data) - start); len(t) > room {
					t = t[:max(room, 0)] // one string longer than any text kept
					table.cut[len(table.ends)] = true
				}
				if room := maxSharedBytes - len(table.data); len(t) > room {
					t = t[:max(room, 0)]
					table.cutFrom = min(table.cutFrom, len(table.ends))
				}
				table.data = append(table.data, t...)
			}
		}
	}
}

// maxSheetColumns bounds the empty cells inserted for column gaps.
const maxSheetColumns = 1024

// sheetText streams a worksheet's rows into w: cells in column order
// separated by tabs (empty cells keep their place), rows by line breaks,
// numbers shown as their number format says. It stops once w's budget is
// full.
func sheetText(ctx context.Context, w *textWriter, r io.Reader, shared *sharedTable, styles *cellStyles) error {
	d := xml.NewDecoder(r)
	var (
		cellType, ref, style string
		val                  strings.Builder
		inV, inIS            bool
		col                  int // next column (0-based) of the current row
		rowHasText           bool
	)
	for n := 0; !w.budget.full(); n++ {
		if n&4095 == 4095 {
			if err := ctx.Err(); err != nil {
				return err
			}
		}
		tok, err := d.RawToken()
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			switch t.Name.Local {
			case "row":
				col, rowHasText = 0, false
			case "c":
				cellType, ref, style = "", "", ""
				for _, a := range t.Attr {
					switch a.Name.Local {
					case "t":
						cellType = a.Value
					case "r":
						ref = a.Value
					case "s":
						style = a.Value
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
				s := cellValue(cellType, val.String(), shared, styles.format(style), styles.date1904)
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
				w.WriteString(strings.Repeat("\t", n))
				for { // one line per row: line breaks in a cell become spaces
					line, rest, more := strings.Cut(s, "\n")
					w.WriteString(line)
					if !more {
						break
					}
					w.WriteByte(' ')
					s = rest
				}
				rowHasText = true
				col = target + 1
			case "row":
				if rowHasText {
					w.WriteByte('\n')
				}
			}
		case xml.CharData:
			if (inV || inIS) && val.Len() < textLimit {
				val.Write(t)
			}
		}
	}
	return nil
}

// cellValue returns the text of a cell of type typ whose value is v; a
// number (type "n" or none) is shown in its format nf.
func cellValue(typ, v string, shared *sharedTable, nf numFmt, date1904 bool) string {
	switch typ {
	case "", "n":
		return nf.render(strings.TrimSpace(v), date1904)
	case "s":
		i, err := strconv.Atoi(strings.TrimSpace(v))
		if err != nil {
			return ""
		}
		return shared.get(i)
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
