package i18n

// Messages of sources side by side (GDS_SOURCES): multi-source crawls and
// the source of a search result.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"crawl.source.begin":          {En: "Source %d/%d: %s", Ja: "ソース %d/%d: %s"},
			"crawl.source.heading":        {En: "%s:", Ja: "%s:"},
			"crawl.source.failed":         {En: "not crawled: %s", Ja: "クロールできませんでした: %s"},
			"crawl.source.stopped":        {En: "the crawl stopped: %s", Ja: "クロールが途中で止まりました: %s"},
			"flag.search.source":          {En: "search only these sources (repeatable, or comma-separated): drive, drive:FOLDER_ID, drive@ACCOUNT[:FOLDER_ID], local:PATH (default: every indexed source)", Ja: "このソースだけを検索します（複数指定またはカンマ区切り）: drive、drive:FOLDER_ID、drive@ACCOUNT[:FOLDER_ID]、local:PATH（既定: インデックス済みのすべてのソース）"},
			"doctor.source.sources":       {En: "%d sources: %s", Ja: "ソース %d 件: %s"},
			"doctor.source.local_missing": {En: "local folder %s does not exist or is not a folder (unmounted?); its crawl fails until it is back", Ja: "ローカルフォルダ %s が存在しないかフォルダではありません（未マウント？）。戻るまでクロールは失敗します"},
		}
	})
}
