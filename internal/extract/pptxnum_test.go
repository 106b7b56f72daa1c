package extract

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

// pptxOf returns a one-slide PPTX whose slide's shape tree holds shapes.
func pptxOf(t *testing.T, shapes string) []byte {
	t.Helper()
	return makeZip(t, map[string]string{
		"ppt/presentation.xml":            `<p:presentation xmlns:p="p" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"><p:sldIdLst><p:sldId r:id="rId1"/></p:sldIdLst></p:presentation>`,
		"ppt/_rels/presentation.xml.rels": `<Relationships><Relationship Id="rId1" Target="slides/slide1.xml"/></Relationships>`,
		"ppt/slides/slide1.xml":           `<p:sld xmlns:p="p" xmlns:a="a"><p:cSld><p:spTree>` + shapes + `</p:spTree></p:cSld></p:sld>`,
	})
}

// shape is a p:sp whose text body has the list style lst and the
// paragraphs paras.
func shape(lst string, paras ...string) string {
	return `<p:sp><p:txBody><a:bodyPr/><a:lstStyle>` + lst + `</a:lstStyle>` + strings.Join(paras, "") + `</p:txBody></p:sp>`
}

// para is an a:p at level lvl ("" none) with the bullet element bu ("" none) and text.
func para(lvl, bu, text string) string {
	p := `<a:p>`
	if lvl != "" || bu != "" {
		p += `<a:pPr`
		if lvl != "" {
			p += ` lvl="` + lvl + `"`
		}
		p += `>` + bu + `</a:pPr>`
	}
	if text != "" {
		p += `<a:r><a:rPr lang="en-US"/><a:t>` + text + `</a:t></a:r>`
	}
	return p + `<a:endParaRPr/></a:p>`
}

// TestPPTXParagraphs checks the numbers of PPTX paragraphs (pptxnum.go)
// and the parting of scripts.
func TestPPTXParagraphs(t *testing.T) {
	num := func(typ string) string { return `<a:buAutoNum type="` + typ + `"/>` }
	for _, c := range []struct {
		name, shapes, want string
	}{
		{"arabic period", shape("", para("", num("arabicPeriod"), "one"), para("", num("arabicPeriod"), "two")), "1. one\n2. two"},
		{"startAt", shape("", para("", `<a:buAutoNum type="alphaLcParenR" startAt="3"/>`, "c"), para("", `<a:buAutoNum type="alphaLcParenR" startAt="3"/>`, "d")), "c) c\nd) d"},
		{"deeper levels do not interrupt", shape("",
			para("", num("arabicPeriod"), "A"),
			para("1", num("alphaLcPeriod"), "a1"),
			para("1", num("alphaLcPeriod"), "a2"),
			para("", num("arabicPeriod"), "B"),
			para("1", num("alphaLcPeriod"), "b1")),
			"1. A\na. a1\nb. a2\n2. B\na. b1"},
		{"same level without a number restarts", shape("",
			para("", num("romanUcPeriod"), "x"),
			para("", `<a:buNone/>`, "plain"),
			para("", num("romanUcPeriod"), "y"),
			para("", num("romanUcPeriod"), "z")),
			"I. x\nplain\nI. y\nII. z"},
		{"another scheme restarts", shape("",
			para("", num("arabicPeriod"), "x"),
			para("", num("arabicParenBoth"), "y"),
			para("", num("arabicPeriod"), "z")),
			"1. x\n(1) y\n1. z"},
		{"another start restarts", shape("",
			para("", num("arabicPlain"), "x"),
			para("", `<a:buAutoNum type="arabicPlain" startAt="7"/>`, "y")),
			"1 x\n7 y"},
		{"empty paragraphs are not counted", shape("",
			para("", num("arabicPeriod"), "x"),
			para("", num("arabicPeriod"), ""),
			para("", num("arabicPeriod"), "y")),
			"1. x\n\n2. y"},
		{"each shape counts its own", shape("", para("", num("arabicPeriod"), "x"), para("", num("arabicPeriod"), "y")) +
			shape("", para("", num("arabicPeriod"), "z")),
			"1. x\n2. y\n1. z"},
		{"the body's list style", shape(`<a:lvl1pPr><a:buAutoNum type="circleNumDbPlain"/></a:lvl1pPr><a:lvl2pPr><a:buChar char="-"/></a:lvl2pPr>`,
			para("", "", "x"), para("1", "", "sub"), para("", "", "y"), para("", `<a:buNone/>`, "z")),
			"① x\nsub\n② y\nz"},
		{"table cells", `<p:graphicFrame><a:graphic><a:graphicData><a:tbl><a:tr><a:tc><a:txBody><a:bodyPr/>` +
			para("", num("arabicPeriod"), "c1") + para("", num("arabicPeriod"), "c2") +
			`</a:txBody></a:tc><a:tc><a:txBody><a:bodyPr/>` + para("", num("arabicPeriod"), "d1") +
			`</a:txBody></a:tc></a:tr></a:tbl></a:graphicData></a:graphic></p:graphicFrame>`,
			"1. c1 2. c2\t1. d1"},
		{"footnote mark", shape("", `<a:p><a:r><a:t>claim</a:t></a:r><a:r><a:rPr lang="en-US" baseline="30000"/><a:t>1</a:t></a:r><a:r><a:t>, more</a:t></a:r></a:p>`),
			"claim 1, more"},
		{"subscript", shape("", `<a:p><a:r><a:t>H</a:t></a:r><a:r><a:rPr baseline="-25000"/><a:t>2</a:t></a:r><a:r><a:rPr baseline="0"/><a:t>O</a:t></a:r></a:p>`),
			"H 2 O"},
		{"script after a space and unraised runs", shape("", `<a:p><a:r><a:t>see </a:t></a:r><a:r><a:rPr baseline="30000"/><a:t>*</a:t></a:r><a:r><a:rPr baseline="0"/><a:t>one</a:t></a:r><a:r><a:rPr b="1"/><a:t>word</a:t></a:r></a:p>`),
			"see *oneword"},
		{"alternate content read once", `<mc:AlternateContent xmlns:mc="mc"><mc:Choice Requires="p14">` +
			shape("", para("", "", "new shape")) + `</mc:Choice><mc:Fallback>` + shape("", para("", "", "old copy")) +
			`</mc:Fallback></mc:AlternateContent>` + shape("", para("", "", "after")),
			"new shape\nafter"},
		{"hostile level and start", shape("",
			para("99", `<a:buAutoNum type="arabicPeriod" startAt="-5"/>`, "x"),
			para("-1", `<a:buAutoNum type="bogus" startAt="99999999999"/>`, "y")),
			"1. x\n32767. y"},
	} {
		t.Run(c.name, func(t *testing.T) {
			doc, err := Extract(context.Background(), MimePPTX, bytes.NewReader(pptxOf(t, c.shapes)), 0)
			if err != nil {
				t.Fatal(err)
			}
			if got := doc.Text(); got != c.want {
				t.Errorf("got %q, want %q", got, c.want)
			}
		})
	}
}

func TestAutoNumLabel(t *testing.T) {
	for _, c := range []struct {
		scheme string
		n      int
		want   string
	}{
		{"arabicPeriod", 12, "12."},
		{"arabicParenR", 3, "3)"},
		{"arabicParenBoth", 3, "(3)"},
		{"arabicPlain", 3, "3"},
		{"alphaLcParenR", 1, "a)"},
		{"alphaUcPeriod", 28, "BB."},
		{"alphaLcPeriod", 1000, "1000."}, // beyond the letters
		{"romanUcPeriod", 4, "IV."},
		{"romanLcParenBoth", 9, "(ix)"},
		{"romanUcParenR", 4000, "4000)"},
		{"circleNumDbPlain", 20, "⑳"},
		{"circleNumDbPlain", 21, "21"},
		{"circleNumWdWhitePlain", 10, "⑩"},
		{"circleNumWdWhitePlain", 11, "11"},
		{"circleNumWdBlackPlain", 2, "❷"},
		{"arabicDbPeriod", 12, "１２．"},
		{"arabicDbPlain", 3, "３"},
		{"ea1JpnChsDbPeriod", 11, "十一．"},
		{"ea1ChsPeriod", 3, "三."},
		{"ea1JpnKorPlain", 20, "二十"},
		{"hebrew2Minus", 15, "טו-"},
		{"hebrew2Minus", 121, "קכא-"},
		{"arabic1Minus", 3, "ت-"},
		{"arabic2Minus", 3, "ج-"},
		{"arabic2Minus", 29, "29-"},
		{"thaiNumPeriod", 10, "๑๐."},
		{"thaiAlphaParenR", 2, "ข)"},
		{"hindiNumParenR", 7, "७)"},
		{"hindiAlphaPeriod", 2, "2."},
		{"unknownScheme", 2, "2."},
	} {
		if got := autoNumLabel(c.scheme, c.n); got != c.want {
			t.Errorf("autoNumLabel(%q, %d) = %q, want %q", c.scheme, c.n, got, c.want)
		}
	}
}
