package hostile

import (
	"archive/zip"
	"bytes"
	"fmt"
	"strings"
)

// part is one zip entry: its content, and the uncompressed size its header
// declares when that differs from the truth (a lying zip bomb).
type part struct {
	name     string
	content  content
	declared int64 // 0: the true size
}

func small(name, s string) part {
	return part{name: name, content: content{once(s)}}
}

// zipOf writes parts as a zip file, each deflated (see content.deflate).
func zipOf(parts ...part) []byte {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, p := range parts {
		data := p.content.deflate()
		size := p.content.size()
		if p.declared > 0 {
			size = p.declared
		}
		w, err := zw.CreateRaw(&zip.FileHeader{
			Name: p.name, Method: zip.Deflate, CRC32: p.content.crc32(),
			CompressedSize64: uint64(len(data)), UncompressedSize64: uint64(size),
		})
		if err != nil {
			panic(err) // a name or size archive/zip refuses: a bug here
		}
		_, _ = w.Write(data) // into memory: never fails
	}
	zw.Close()
	return buf.Bytes()
}

const (
	nsW   = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	nsR   = `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	nsS   = `xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"`
	nsP   = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`
	xmlPI = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>` + "\n"
	relNS = `xmlns="http://schemas.openxmlformats.org/package/2006/relationships"`
	relT  = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

func contentTypes(overrides ...string) string {
	var b strings.Builder
	b.WriteString(xmlPI + `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">` +
		`<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>` +
		`<Default Extension="xml" ContentType="application/xml"/>`)
	for i := 0; i+1 < len(overrides); i += 2 {
		fmt.Fprintf(&b, `<Override PartName="%s" ContentType="%s"/>`, overrides[i], overrides[i+1])
	}
	b.WriteString(`</Types>`)
	return b.String()
}

func rels(targets ...string) string {
	var b strings.Builder
	b.WriteString(xmlPI + `<Relationships ` + relNS + `>`)
	for i := 0; i+1 < len(targets); i += 2 {
		fmt.Fprintf(&b, `<Relationship Id="rId%d" Type="%s%s" Target="%s"/>`, i/2+1, relT, targets[i], targets[i+1])
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}

// docx is a DOCX whose word/document.xml is body.
func docx(body part) []byte {
	body.name = "word/document.xml"
	return zipOf(
		small("[Content_Types].xml", contentTypes("/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml")),
		small("_rels/.rels", rels("officeDocument", "word/document.xml")),
		body,
	)
}

var (
	docxHead = xmlPI + `<w:document ` + nsW + `><w:body>`
	docxTail = `</w:body></w:document>`
	docxPara = `<w:p><w:r><w:t>The quick brown fox jumps over the lazy dog, again and again.</w:t></w:r></w:p>`
)

// docxHugePart: word/document.xml of about partBytes of paragraphs.
func docxHugePart(partBytes int64) []byte {
	return docx(part{content: content{once(docxHead), times(docxPara, partBytes/int64(len(docxPara))), once(docxTail)}})
}

// docxZipBomb: word/document.xml inflates to bomb bytes; its header
// declares the true size, or (lying) 100 bytes.
func docxZipBomb(bomb int64, lying bool) []byte {
	p := part{content: content{once(docxHead), times(docxPara, bomb/int64(len(docxPara))), once(docxTail)}}
	if lying {
		p.declared = 100
	}
	return docx(p)
}

// billionLaughs is a DOCTYPE whose entity lol9 expands to 10^9 "lol"s.
func billionLaughs(root string) string {
	var b strings.Builder
	b.WriteString(xmlPI + "<!DOCTYPE " + root + " [\n <!ENTITY lol \"lol\">\n")
	for i := 1; i <= 9; i++ {
		prev := "lol"
		if i > 1 {
			prev = fmt.Sprintf("lol%d", i-1)
		}
		fmt.Fprintf(&b, " <!ENTITY lol%d \"%s\">\n", i, strings.Repeat("&"+prev+";", 10))
	}
	b.WriteString("]>\n")
	return b.String()
}

// docxBillionLaughs: word/document.xml uses an entity that expands to 3 GB.
func docxBillionLaughs() []byte {
	doc := billionLaughs("w:document") + `<w:document ` + nsW + `><w:body><w:p><w:r><w:t>&lol9;</w:t></w:r></w:p></w:body></w:document>`
	return docx(part{content: content{once(doc)}})
}

// docxDeepNesting: text inside 100,000 nested elements.
func docxDeepNesting() []byte {
	const depth = 100000
	return docx(part{content: content{
		once(docxHead + `<w:p>`), times(`<w:r>`, depth),
		once(`<w:t>deep text</w:t>`), times(`</w:r>`, depth), once(`</w:p>` + docxTail),
	}})
}

// xlsx is an XLSX with one sheet and, when shared is not empty, a shared
// string table.
func xlsx(sheet, shared part) []byte {
	sheet.name = "xl/worksheets/sheet1.xml"
	shared.name = "xl/sharedStrings.xml"
	parts := []part{
		small("[Content_Types].xml", contentTypes("/xl/workbook.xml", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml")),
		small("_rels/.rels", rels("officeDocument", "xl/workbook.xml")),
		small("xl/workbook.xml", xmlPI+`<workbook `+nsS+` `+nsR+`><sheets><sheet name="Sheet1" sheetId="1" r:id="rId1"/></sheets></workbook>`),
		small("xl/_rels/workbook.xml.rels", rels("worksheet", "worksheets/sheet1.xml", "sharedStrings", "sharedStrings.xml")),
		sheet,
	}
	if shared.content.size() > 0 {
		parts = append(parts, shared)
	}
	return zipOf(parts...)
}

var (
	sheetHead = xmlPI + `<worksheet ` + nsS + `><sheetData><row r="1">`
	sheetTail = `</row></sheetData></worksheet>`
	sstHead   = xmlPI + `<sst ` + nsS + `>`
)

// xlsxSharedStringAmplification: one shared string of 100 KB referenced by
// cells cells (cells × 100 KB of text from a file of a few KB).
func xlsxSharedStringAmplification(cells int64) []byte {
	long := strings.Repeat("amplified ", 10240) // 100 KiB
	return xlsx(
		part{content: content{once(sheetHead), times(`<c t="s"><v>0</v></c>`, cells), once(sheetTail)}},
		part{content: content{once(sstHead + `<si><t>` + long + `</t></si></sst>`)}},
	)
}

// xlsxManySharedStrings: a shared string table of about partBytes of
// one-character strings (millions of table entries).
func xlsxManySharedStrings(partBytes int64) []byte {
	const si = `<si><t>s</t></si>`
	return xlsx(
		part{content: content{once(sheetHead + `<c t="s"><v>0</v></c><c t="s"><v>1</v></c>` + sheetTail)}},
		part{content: content{once(sstHead), times(si, partBytes/int64(len(si))), once(`</sst>`)}},
	)
}

// xlsxBillionLaughs: the shared string table uses an entity that expands
// to 3 GB.
func xlsxBillionLaughs() []byte {
	sst := billionLaughs("sst") + `<sst ` + nsS + `><si><t>&lol9;</t></si></sst>`
	return xlsx(
		part{content: content{once(sheetHead + `<c t="s"><v>0</v></c>` + sheetTail)}},
		part{content: content{once(sst)}},
	)
}

// pptxHugePart: one slide of about partBytes of text runs.
func pptxHugePart(partBytes int64) []byte {
	const run = `<a:p><a:r><a:t>A slide that never ends, line after line.</a:t></a:r></a:p>`
	return zipOf(
		small("[Content_Types].xml", contentTypes("/ppt/presentation.xml", "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml")),
		small("_rels/.rels", rels("officeDocument", "ppt/presentation.xml")),
		small("ppt/presentation.xml", xmlPI+`<p:presentation `+nsP+` `+nsR+`><p:sldIdLst><p:sldId id="256" r:id="rId1"/></p:sldIdLst></p:presentation>`),
		small("ppt/_rels/presentation.xml.rels", rels("slide", "slides/slide1.xml")),
		part{name: "ppt/slides/slide1.xml", content: content{
			once(xmlPI + `<p:sld ` + nsP + `><p:cSld><p:spTree><p:sp><p:txBody>`),
			times(run, partBytes/int64(len(run))),
			once(`</p:txBody></p:sp></p:spTree></p:cSld></p:sld>`),
		}},
	)
}

// docxRepeatedPart: word/document.xml relates to one header n times (each
// relationship read as a part of its own would inflate it n times).
func docxRepeatedPart(n int64) []byte {
	rel := `<Relationship Id="rId%d" Type="` + relT + `header" Target="header1.xml"/>`
	var list strings.Builder
	list.WriteString(xmlPI + `<Relationships ` + relNS + `>`)
	for i := int64(0); i < n; i++ {
		fmt.Fprintf(&list, rel, i)
	}
	list.WriteString(`</Relationships>`)
	return zipOf(
		small("[Content_Types].xml", contentTypes("/word/document.xml", "application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml")),
		small("_rels/.rels", rels("officeDocument", "word/document.xml")),
		small("word/document.xml", docxHead+docxPara+docxTail),
		small("word/_rels/document.xml.rels", list.String()),
		small("word/header1.xml", xmlPI+`<w:hdr `+nsW+`><w:p><w:r><w:t>header text</w:t></w:r></w:p></w:hdr>`),
	)
}
