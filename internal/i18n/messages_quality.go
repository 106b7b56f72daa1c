package i18n

// Messages of search-quality behaviour the user must be told about: results
// that are a fallback rather than a match.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"search.fulltext_fallback": {
				En: "No file matched the search conditions; these files share words with your question (full-text ranking).",
				Ja: "条件に合うファイルは見つかりませんでした。質問の語を含むファイルを全文検索の順に表示します。",
			},
			"alfred.fulltext_fallback.sub": {En: "Full-text match only · %s", Ja: "全文一致のみ ・ %s"},
		}
	})
}
