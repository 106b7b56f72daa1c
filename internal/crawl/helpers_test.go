package crawl

import "github.com/gds-cli/gds/internal/extract"

func extractDoc(text string, page int) extract.Doc {
	return extract.Doc{Pages: []extract.Page{{Number: page, Text: text}}}
}
