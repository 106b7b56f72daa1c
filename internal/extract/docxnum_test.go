package extract

import (
	"bytes"
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func TestFormatListNumber(t *testing.T) {
	tests := []struct {
		format string
		width  int
		n      int
		want   string
	}{
		{"decimal", 0, 7, "7"},
		{"decimalZero", 0, 7, "07"},
		{"decimalZero", 0, 12, "12"},
		{"custom", 3, 7, "007"},
		{"lowerLetter", 0, 1, "a"},
		{"lowerLetter", 0, 26, "z"},
		{"lowerLetter", 0, 27, "aa"},
		{"lowerLetter", 0, 54, "bbb"},
		{"lowerLetter", 0, 100000, "100000"}, // beyond ten letters: decimal, never a long run
		{"upperLetter", 0, 3, "C"},
		{"lowerRoman", 0, 4, "iv"},
		{"upperRoman", 0, 1994, "MCMXCIV"},
		{"upperRoman", 0, 4000, "4000"},
		{"lowerRoman", 0, 0, "0"},
		{"decimalFullWidth", 0, 12, "１２"},
		{"decimalEnclosedCircle", 0, 2, "②"},
		{"decimalEnclosedCircle", 0, 21, "㉑"},
		{"decimalEnclosedCircle", 0, 51, "51"},
		{"decimalEnclosedParen", 0, 3, "⑶"},
		{"ordinal", 0, 2, "2nd"},
		{"ordinal", 0, 13, "13th"},
		{"aiueoFullWidth", 0, 2, "イ"},
		{"iroha", 0, 3, "ハ"},
		{"ideographDigital", 0, 105, "一〇五"},
		{"japaneseCounting", 0, 11, "十一"},
		{"japaneseCounting", 0, 2345, "二千三百四十五"},
		{"bullet", 0, 1, ""},
		{"none", 0, 1, ""},
		{"hebrew1", 0, 5, "5"}, // not known here: decimal
	}
	for _, tt := range tests {
		if got := formatListNumber(tt.format, tt.width, tt.n); got != tt.want {
			t.Errorf("%s %d: %q, want %q", tt.format, tt.n, got, tt.want)
		}
	}
}

// lvl is a level for the tests: format and text, start 1, default restart.
func lvl(format, text string) listLevel {
	return listLevel{defined: true, start: 1, format: format, text: text, restart: -1}
}

// outline is an abstract list "1.", "1.1.", "1.1.1." … in decimal.
func outline() *abstractList {
	a := &abstractList{}
	text := ""
	for i := range a.levels {
		text += fmt.Sprintf("%%%d.", i+1)
		a.levels[i] = lvl("decimal", text)
	}
	return a
}

// TestListCounters: the counter state machine, one paragraph at a time
// (list instance, level) → label.
func TestListCounters(t *testing.T) {
	legal := outline()
	legal.levels[0] = lvl("upperRoman", "Article %1")
	legal.levels[1] = lvl("decimal", "%1.%2")
	legal.levels[1].legal = true
	noRestart := outline()
	noRestart.levels[1].restart = 0
	letters := &abstractList{}
	letters.levels[0] = lvl("decimal", "%1)")
	letters.levels[1] = lvl("lowerLetter", "%2)")
	letters.levels[2] = lvl("lowerRoman", "(%3)")
	bullets := &abstractList{}
	bullets.levels[0] = lvl("bullet", "\uf0b7")
	bullets.levels[1] = lvl("bullet", "o")
	bullets.levels[2] = lvl("none", "")
	defs := &listDefs{
		abstract: map[string]*abstractList{"outline": outline(), "legal": legal, "norestart": noRestart, "letters": letters, "bullets": bullets},
		nums: map[string]*listInstance{
			"1": {abstractID: "outline"}, "2": {abstractID: "outline"}, "3": {abstractID: "legal"},
			"4": {abstractID: "norestart"}, "5": {abstractID: "letters"}, "6": {abstractID: "bullets"},
			"7": {abstractID: "outline"}, // restarts at 5
			"8": {abstractID: "letters"}, // level 1 written as "Step %2:"
		},
		styles: map[string]styleNumbering{},
	}
	for _, n := range defs.nums {
		for i := range n.startOver {
			n.startOver[i] = -1
		}
	}
	defs.nums["7"].startOver[0] = 5
	defs.nums["8"].override[1] = lvl("decimal", "Step %2:")
	type para struct{ num, ilvl, want string }
	tests := []struct {
		name  string
		paras []para
	}{
		{"outline: deeper levels restart", []para{
			{"1", "0", "1."}, {"1", "1", "1.1."}, {"1", "1", "1.2."}, {"1", "2", "1.2.1."},
			{"1", "0", "2."}, {"1", "1", "2.1."}, {"1", "2", "2.1.1."}, {"1", "0", "3."},
		}},
		{"a level used before its parent shows the parent's start", []para{{"1", "1", "1.1."}, {"1", "0", "1."}}},
		{"instances of one abstract list share its counters", []para{{"1", "0", "1."}, {"2", "0", "2."}, {"1", "0", "3."}}},
		{"a start override restarts the shared list once", []para{
			{"1", "0", "1."}, {"1", "0", "2."}, {"7", "0", "5."}, {"7", "0", "6."}, {"1", "0", "7."},
		}},
		{"legal numbering: decimal for the levels above", []para{{"3", "0", "Article I"}, {"3", "1", "1.1"}, {"3", "0", "Article II"}, {"3", "1", "2.1"}}},
		{"lvlRestart 0: never restarts", []para{{"4", "0", "1."}, {"4", "1", "1.1."}, {"4", "0", "2."}, {"4", "1", "2.2."}}},
		{"letters and roman", []para{{"5", "0", "1)"}, {"5", "1", "a)"}, {"5", "1", "b)"}, {"5", "2", "(i)"}, {"5", "2", "(ii)"}, {"5", "1", "c)"}, {"5", "2", "(i)"}}},
		{"a level override changes the text, not the counters", []para{{"5", "1", "a)"}, {"8", "1", "Step 2:"}, {"5", "1", "c)"}}},
		{"bullets: •, whatever the font's character; none: nothing", []para{{"6", "0", "•"}, {"6", "1", "•"}, {"6", "2", ""}}},
		{"no list", []para{{"0", "0", ""}, {"99", "0", ""}, {"1", "9", ""}}},
	}
	for _, tt := range tests {
		n := newListNumberer(defs)
		for i, p := range tt.paras {
			ilvl, _ := listNumber(p.ilvl)
			got := n.next(paraNumbering{numID: p.num, hasNum: true, ilvl: ilvl, hasLv: true})
			want := p.want
			if want != "" {
				want += " "
			}
			if got != want {
				t.Errorf("%s: paragraph %d (num %s level %s): %q, want %q", tt.name, i+1, p.num, p.ilvl, got, want)
			}
		}
	}
}

// TestListStyles: a paragraph is in a list through its style (and the
// styles it is based on); its own w:numPr overrides, numId 0 removes it;
// a style loop or a long chain ends.
func TestListStyles(t *testing.T) {
	defs := &listDefs{
		abstract: map[string]*abstractList{"0": outline()},
		nums:     map[string]*listInstance{"1": {abstractID: "0", startOver: [listLevels]int{-1, -1, -1, -1, -1, -1, -1, -1, -1}}},
		styles: map[string]styleNumbering{
			"Heading1": {numID: "1", hasNum: true},
			"Heading2": {numID: "1", hasNum: true, ilvl: 1, hasLv: true},
			"Custom":   {basedOn: "Heading2"},
			"LoopA":    {basedOn: "LoopB"},
			"LoopB":    {basedOn: "LoopA"},
			"Normal":   {},
		},
		defaultStyle: "Normal",
	}
	defs.abstract["0"].levels[2].pStyle = "Heading3"
	defs.styles["Heading3"] = styleNumbering{numID: "1", hasNum: true} // its level: the one tied to it
	chain := "Heading1"
	for i := range 40 {
		name := fmt.Sprintf("Deep%d", i)
		defs.styles[name] = styleNumbering{basedOn: chain}
		chain = name
	}
	n := newListNumberer(defs)
	for i, tt := range []struct {
		p    paraNumbering
		want string
	}{
		{paraNumbering{style: "Heading1"}, "1. "},
		{paraNumbering{style: "Heading2"}, "1.1. "},
		{paraNumbering{style: "Custom"}, "1.2. "},
		{paraNumbering{style: "Heading3"}, "1.2.1. "},
		{paraNumbering{style: "Heading1", numID: "0", hasNum: true}, ""},
		{paraNumbering{style: "Heading1", ilvl: 1, hasLv: true}, "1.3. "},
		{paraNumbering{}, ""},
		{paraNumbering{style: "LoopA"}, ""},
		{paraNumbering{style: chain}, ""}, // deeper than maxStyleChain
		{paraNumbering{style: "Heading1"}, "2. "},
	} {
		if got := n.next(tt.p); got != tt.want {
			t.Errorf("paragraph %d %+v: %q, want %q", i+1, tt.p, got, tt.want)
		}
	}
}

const wordNS = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main" xmlns:mc="http://schemas.openxmlformats.org/markup-compatibility/2006"`

// docxWithLists is a DOCX of body (inside w:body) with the numbering and
// styles parts given.
func docxWithLists(t *testing.T, body, numbering, styles string) []byte {
	t.Helper()
	files := map[string]string{
		"word/document.xml": `<?xml version="1.0" encoding="UTF-8"?><w:document ` + wordNS + `><w:body>` + body + `</w:body></w:document>`,
		"word/_rels/document.xml.rels": `<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">` +
			`<Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/numbering" Target="numbering.xml"/>` +
			`<Relationship Id="rId2" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>`,
	}
	if numbering != "" {
		files["word/numbering.xml"] = `<?xml version="1.0"?><w:numbering ` + wordNS + `>` + numbering + `</w:numbering>`
	}
	if styles != "" {
		files["word/styles.xml"] = `<?xml version="1.0"?><w:styles ` + wordNS + `>` + styles + `</w:styles>`
	}
	return makeZip(t, files)
}

func numPara(numID, ilvl, text string) string {
	return `<w:p><w:pPr><w:numPr><w:ilvl w:val="` + ilvl + `"/><w:numId w:val="` + numID + `"/></w:numPr><w:tabs><w:tab w:val="num" w:pos="720"/></w:tabs></w:pPr><w:r><w:t>` + text + `</w:t></w:r></w:p>`
}

// TestDOCXListNumbers: the numbers and bullets of a DOCX's lists are in
// its text, from numbering.xml and styles.xml, as Word and LibreOffice
// show them.
func TestDOCXListNumbers(t *testing.T) {
	numbering := `<w:abstractNum w:abstractNumId="10">
<w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/><w:pPr><w:ind w:left="720"/></w:pPr></w:lvl>
<w:lvl w:ilvl="1"><w:start w:val="1"/><w:numFmt w:val="lowerLetter"/><w:lvlText w:val="%2)"/></w:lvl>
<w:lvl w:ilvl="2"><w:start w:val="1"/><mc:AlternateContent><mc:Choice Requires="w14"><w:numFmt w:val="custom" w:format="001, 002, 003, ..."/></mc:Choice><mc:Fallback><w:numFmt w:val="decimal"/></mc:Fallback></mc:AlternateContent><w:lvlText w:val="%3"/></w:lvl>
</w:abstractNum>
<w:abstractNum w:abstractNumId="20"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="bullet"/><w:lvlText w:val="&#xF0B7;"/><w:rPr><w:rFonts w:ascii="Symbol"/></w:rPr></w:lvl></w:abstractNum>
<w:abstractNum w:abstractNumId="30"><w:lvl w:ilvl="0"><w:start w:val="1"/><w:numFmt w:val="decimalFullWidth"/><w:pStyle w:val="Heading1"/><w:suff w:val="nothing"/><w:lvlText w:val="第%1章"/></w:lvl></w:abstractNum>
<w:num w:numId="1"><w:abstractNumId w:val="10"/></w:num>
<w:num w:numId="2"><w:abstractNumId w:val="20"/></w:num>
<w:num w:numId="3"><w:abstractNumId w:val="30"/></w:num>
<w:num w:numId="4"><w:abstractNumId w:val="10"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="7"/></w:lvlOverride></w:num>`
	styles := `<w:style w:type="paragraph" w:default="1" w:styleId="Normal"><w:name w:val="Normal"/></w:style>
<w:style w:type="paragraph" w:styleId="Heading1"><w:basedOn w:val="Normal"/><w:pPr><w:numPr><w:numId w:val="3"/></w:numPr></w:pPr></w:style>`
	heading := func(text string) string {
		return `<w:p><w:pPr><w:pStyle w:val="Heading1"/></w:pPr><w:r><w:t>` + text + `</w:t></w:r></w:p>`
	}
	body := heading("総則") +
		numPara("1", "0", "Freeze the branch.") + numPara("1", "1", "unit tests") + numPara("1", "2", "third level") + numPara("1", "1", "benchmark") +
		numPara("1", "0", "Tag the release.") +
		// a tracked change's old properties name another list: not this paragraph's
		`<w:p><w:pPr><w:pPrChange w:id="1"><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr></w:pPrChange></w:pPr><w:r><w:t>Plain now.</w:t></w:r></w:p>` +
		numPara("2", "0", "A bullet.") +
		`<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="2"/></w:numPr></w:pPr></w:p>` + // empty: the bullet alone
		`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>cell</w:t></w:r></w:p>` + numPara("2", "0", "in a cell") + `</w:tc></w:tr></w:tbl>` +
		heading("目的") +
		numPara("4", "0", "Restarted at seven.") +
		// a text box inside a numbered paragraph: its label comes first
		`<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="4"/></w:numPr></w:pPr><w:r><w:t>Outer</w:t></w:r><w:r><w:pict><w:txbxContent>` + numPara("2", "0", "boxed") + `</w:txbxContent></w:pict></w:r></w:p>`
	data := docxWithLists(t, body, numbering, styles)
	doc, err := Extract(context.Background(), MimeDOCX, bytes.NewReader(data), 0)
	if err != nil {
		t.Fatal(err)
	}
	want := strings.Join([]string{
		"第１章 総則",
		"1. Freeze the branch.", "a) unit tests", "001 third level", "b) benchmark", "2. Tag the release.",
		"Plain now.", "• A bullet.", "•", "cell • in a cell",
		"第２章 目的",
		"7. Restarted at seven.", "8. Outer• boxed",
	}, "\n")
	if got := doc.Text(); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

// TestDOCXListsHostile: a numbering part that defines more lists than the
// bounds, refers to itself, or is not XML does not cost the text.
func TestDOCXListsHostile(t *testing.T) {
	var many strings.Builder
	for i := range maxListDefs + 100 {
		fmt.Fprintf(&many, `<w:abstractNum w:abstractNumId="%d"><w:numStyleLink w:val="S"/><w:lvl w:ilvl="0"><w:start w:val="99999999999"/><w:lvlText w:val="%s"/></w:lvl></w:abstractNum><w:num w:numId="%d"><w:abstractNumId w:val="%d"/></w:num>`,
			i, strings.Repeat("%1", 500), i+1, i)
	}
	styles := `<w:style w:type="numbering" w:styleId="S"><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>`
	for name, numbering := range map[string]string{
		"many lists, a style link loop": many.String(),
		"not XML":                       `<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="0"><w:numFmt w:val="decimal"/><w:lvlText w:val="%1."/></w:lvl></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num><w:unclosed`,
		"levels out of range":           `<w:abstractNum w:abstractNumId="1"><w:lvl w:ilvl="9"><w:lvlText w:val="x"/></w:lvl><w:lvl w:ilvl="-1"/></w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="1"/></w:num>`,
	} {
		data := docxWithLists(t, numPara("1", "0", "text")+numPara("1", "12", "deep"), numbering, styles)
		doc, err := Extract(context.Background(), MimeDOCX, bytes.NewReader(data), 0)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		text := doc.Text()
		if !strings.Contains(text, "text") || !strings.Contains(text, "deep") || len(text) > 200 {
			t.Errorf("%s: %q", name, firstRunes(text, 200))
		}
	}
}

// TestDOCXListsRealFiles: real DOCX files with lists read with the
// numbers LibreOffice's text export shows (its full-width digits aside,
// which it writes as ASCII in places; Word writes them full width).
func TestDOCXListsRealFiles(t *testing.T) {
	tests := []struct {
		file  string
		lines []string
	}{
		{"lo-lists.docx", []string{
			"1. Freeze the branch.", "2. Run the tests.", "1. Unit tests on both back ends.", "2. The real-document benchmark.", "3. Tag the release.",
			"a. publish at once;", "b. wait for the review.", "I. Known issues", "II. Changelog",
			"4. Announce the release.", "5. Close the milestone.", "• Notes go to the wiki.", "• Keep them short.",
			"1. ブランチを凍結する。", "2. テストを実行する。",
		}},
		{"docxrs-numbering.docx", []string{"Section 1. Hello", "① Hello", "② World", "i. Hello", "ii. World"}},
		{"docxrs-lvl-override.docx", []string{"1. Hello", "2. World", "override 10. Foo"}},
		// numbering through heading styles; an instance with start
		// overrides shares the counters of its abstract list
		{"docxrs-outline-lvl-ja.docx", []string{"第1条", "A", "第2条", "（１） B", "第3条", "（１） D"}},
		{"docxrs-word-online-indent.docx", []string{"Lorem ipsum dolor sit amet"}}, // main part word/document2.xml
		{"../realdocs/docxrs-toc1-ja.docx", []string{"第１章 Hello", "第１節 World", "第２節", "第２章 こんにちは", "第１節 世界"}},
	}
	for _, tt := range tests {
		doc, err := extractFile(t, filepath.Join("..", "..", "testdata", "docx", tt.file))
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		lines := strings.Split(doc.Text(), "\n")
		at := 0
		for _, want := range tt.lines {
			for at < len(lines) && !strings.HasPrefix(strings.TrimSpace(lines[at]), want) {
				at++
			}
			if at == len(lines) {
				t.Errorf("%s: no line %q in order in\n%s", tt.file, want, doc.Text())
				break
			}
			at++
		}
	}
}
