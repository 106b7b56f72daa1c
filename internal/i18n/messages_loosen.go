package i18n

// Messages of loosened searches: a condition read from the query (a period,
// a file type, a folder, a keyword) matched nothing and the search went on
// without it. The user is always told (internal/search.Loosening).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"search.loosened.period":            {En: "No files from %s; showing other %s", Ja: "%sのファイルはありません。ほかの%sのファイルを表示しています"},
			"search.loosened.period_type":       {En: "No %[2]s from %[1]s; showing other %[3]s", Ja: "%[1]sの%[2]sはありません。ほかの%[3]sを表示しています"},
			"search.loosened.period_widened":    {En: "No files from %s; showing %s", Ja: "%sのファイルはありません。%sに広げて表示しています"},
			"search.loosened.file_type":         {En: "No %s; showing other file types", Ja: "%sはありません。ほかの種類のファイルを表示しています"},
			"search.loosened.folder":            {En: "Nothing in folder %s; showing other folders", Ja: "フォルダ「%s」にはありません。ほかのフォルダを表示しています"},
			"search.loosened.folder_widened":    {En: "Nothing in folder %s; showing %s", Ja: "フォルダ「%s」にはありません。「%s」に広げて表示しています"},
			"search.loosened.keyword":           {En: "Nothing matched “%s”; searched without it", Ja: "「%s」に合うファイルはありません。外して検索しました"},
			"search.loosened.unit.year":         {En: "years", Ja: "年"},
			"search.loosened.unit.month":        {En: "months", Ja: "月"},
			"search.loosened.unit.date":         {En: "dates", Ja: "期間"},
			"search.loosened.type.pdf":          {En: "PDFs", Ja: "PDF"},
			"search.loosened.type.document":     {En: "documents", Ja: "文書"},
			"search.loosened.type.spreadsheet":  {En: "spreadsheets", Ja: "スプレッドシート"},
			"search.loosened.type.presentation": {En: "presentations", Ja: "プレゼンテーション"},
			"search.loosened.type.text":         {En: "text files", Ja: "テキストファイル"},
			"search.period.year":                {En: "%d", Ja: "%d年"},
			"search.period.month":               {En: "%d-%02d", Ja: "%d年%02d月"},
			"search.period.range":               {En: "%s to %s", Ja: "%s〜%s"},
			"search.period.after":               {En: "after %s", Ja: "%s以降"},
			"search.period.before":              {En: "before %s", Ja: "%sより前"},
			"flag.alfred.folder": {En: "limit the keystroke and full searches to this folder and its subfolders (also GDS_FOLDER, the workflow's Folder setting)",
				Ja: "キー入力ごとの検索と通常の検索をこのフォルダとそのサブフォルダに限ります（GDS_FOLDER、ワークフローの Folder 設定でも可）"},
			"alfred.loosened.sub":   {En: "%s · %s", Ja: "%s ・ %s"},
			"alfred.run.sub.folder": {En: "⏎ runs the full hybrid search in folder %s; the rows below are quick index matches there", Ja: "⏎ でフォルダ「%s」の中をハイブリッド検索します。下はその中の索引からの即時候補です"},
		}
	})
}
