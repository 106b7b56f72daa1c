package rules

import (
	"strings"
	"sync"

	"github.com/gds-cli/gds/internal/ai"
)

// jaTypeWords are Japanese file-type words recognised as a whole segment.
var jaTypeWords = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"pdf":       ai.FileTypePDF,
		"スライド":      ai.FileTypePresentation,
		"プレゼン":      ai.FileTypePresentation,
		"プレゼンテーション": ai.FileTypePresentation,
		"パワポ":       ai.FileTypePresentation,
		"パワーポイント":   ai.FileTypePresentation,
		"スプレッドシート":  ai.FileTypeSpreadsheet,
		"スプシ":       ai.FileTypeSpreadsheet,
		"表計算":       ai.FileTypeSpreadsheet,
		"エクセル":      ai.FileTypeSpreadsheet,
		"ワード":       ai.FileTypeDocument,
		"ドキュメント":    ai.FileTypeDocument,
		"文書":        ai.FileTypeDocument,
		"テキスト":      ai.FileTypeText,
		"テキストファイル":  ai.FileTypeText,
	}
})

// jaTypeSuffixes are the type words also recognised at the end of a
// compound (営業スライド → presentation + 営業). ドキュメント, 文書 and ワード
// are not: 設計ドキュメント names content, キーワード is not a Word file.
var jaTypeSuffixes = []string{"プレゼンテーション", "スプレッドシート", "パワーポイント", "スライド", "プレゼン", "パワポ", "エクセル", "スプシ", "表計算"}

// enTypeWords are English file-type words (lower case).
var enTypeWords = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"pdf": ai.FileTypePDF, "pdfs": ai.FileTypePDF,
		"slide": ai.FileTypePresentation, "slides": ai.FileTypePresentation, "deck": ai.FileTypePresentation,
		"decks": ai.FileTypePresentation, "presentation": ai.FileTypePresentation, "presentations": ai.FileTypePresentation,
		"ppt": ai.FileTypePresentation, "pptx": ai.FileTypePresentation, "powerpoint": ai.FileTypePresentation,
		"keynote": ai.FileTypePresentation, "slideshow": ai.FileTypePresentation,
		"spreadsheet": ai.FileTypeSpreadsheet, "spreadsheets": ai.FileTypeSpreadsheet, "sheet": ai.FileTypeSpreadsheet,
		"sheets": ai.FileTypeSpreadsheet, "xlsx": ai.FileTypeSpreadsheet, "xls": ai.FileTypeSpreadsheet,
		"csv": ai.FileTypeSpreadsheet, "excel": ai.FileTypeSpreadsheet, "workbook": ai.FileTypeSpreadsheet,
		"doc": ai.FileTypeDocument, "docs": ai.FileTypeDocument, "document": ai.FileTypeDocument,
		"documents": ai.FileTypeDocument, "docx": ai.FileTypeDocument,
		"txt": ai.FileTypeText, "markdown": ai.FileTypeText, "md": ai.FileTypeText, "text": ai.FileTypeText,
	}
})

// typeOfLatin returns the file type a Latin segment names, or "". "Word"
// counts only when capitalised (the product), never the common noun.
func typeOfLatin(seg string) string {
	if seg == "Word" || seg == "WORD" {
		return ai.FileTypeDocument
	}
	return enTypeWords()[strings.ToLower(seg)]
}

// typeOfCJK returns the file type a CJK segment names and what remains of
// the segment: "" if the whole segment was a type word.
func typeOfCJK(seg string) (fileType, rest string) {
	if ft, ok := jaTypeWords()[seg]; ok {
		return ft, ""
	}
	for _, suf := range jaTypeSuffixes {
		if strings.HasSuffix(seg, suf) && len(seg) > len(suf) {
			return jaTypeWords()[suf], strings.TrimSuffix(seg, suf)
		}
	}
	return "", seg
}
