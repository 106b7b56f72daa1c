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

// extensionTypes are the file-name extensions (lower case) that name a file
// type; the search matches the type, never the extension as a word (every
// .txt file's name holds "txt").
var extensionTypes = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"pdf": ai.FileTypePDF,
		"ppt": ai.FileTypePresentation, "pptx": ai.FileTypePresentation, "key": ai.FileTypePresentation, "odp": ai.FileTypePresentation,
		"xls": ai.FileTypeSpreadsheet, "xlsx": ai.FileTypeSpreadsheet, "csv": ai.FileTypeSpreadsheet, "tsv": ai.FileTypeSpreadsheet, "ods": ai.FileTypeSpreadsheet,
		"doc": ai.FileTypeDocument, "docx": ai.FileTypeDocument, "odt": ai.FileTypeDocument, "rtf": ai.FileTypeDocument,
		"txt": ai.FileTypeText, "md": ai.FileTypeText, "markdown": ai.FileTypeText,
	}
})

// SplitExtension splits a file name written in a query (zero.txt, Q3
// plan.PDF) into its name and the file type of its extension; a word
// without a known extension is returned whole with type "".
func SplitExtension(word string) (name, fileType string) {
	i := strings.LastIndexByte(word, '.')
	if i < 0 {
		return word, ""
	}
	if ft, ok := extensionTypes()[strings.ToLower(word[i+1:])]; ok {
		return word[:i], ft
	}
	return word, ""
}

// StripExtensions removes the known file-name extensions written after a
// name in s ("zero.txt" → "zero"), so that ranking by the query's words
// does not favour every file whose name has that extension.
func StripExtensions(s string) string {
	if !strings.Contains(s, ".") {
		return s
	}
	fields := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\u3000' || r == '\t' })
	changed := false
	for i, f := range fields {
		core := strings.TrimRight(f, "?？!！,、。)）\"'")
		if name, ft := SplitExtension(core); ft != "" && name != "" {
			fields[i] = name + f[len(core):]
			changed = true
		}
	}
	if !changed {
		return s
	}
	return strings.Join(fields, " ")
}
