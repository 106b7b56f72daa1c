package i18n

// Messages of text read by OCR from scans and photos (package ocr).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"ocr.scanned": {
				En: "scanned; install tesseract or use a model to read it",
				Ja: "スキャン画像です。読み取るには tesseract をインストールするか、モデルを使ってください",
			},
			"ocr.scanned_pdf": {
				En: "scanned PDF; install poppler (pdftoppm) to render its pages for OCR",
				Ja: "スキャンされた PDF です。OCR でページを読むには poppler（pdftoppm）をインストールしてください",
			},
			"result.ocr":     {En: "text read by OCR (%s)", Ja: "OCR で読み取った本文（%s）"},
			"alfred.ocr.sub": {En: "OCR · %s", Ja: "OCR・%s"},
		}
	})
}
