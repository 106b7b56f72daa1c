package i18n

// Messages of an honest search: the query's words no indexed file contains,
// the corrections made from the index's own vocabulary (with the way back),
// the words each result misses, and a match too partial to trust.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"search.unmatched":            {En: "No file contains %s", Ja: "%sを含むファイルはありません"},
			"search.word.quote":           {En: "‘%s’", Ja: "「%s」"},
			"search.word.sep":             {En: ", ", Ja: "、"},
			"search.tried":                {En: "Searched for: %s", Ja: "検索した語: %s"},
			"alfred.unmatched.sub":        {En: "%s · %s", Ja: "%s ・ %s"},
			"search.missing":              {En: "Missing: %s", Ja: "含まない語: %s"},
			"search.folder.unknown":       {En: "no indexed folder matches %q; closest: %s", Ja: "%q に合う索引済みのフォルダはありません。近いフォルダ: %s"},
			"search.folder.unknown.empty": {En: "no indexed folder matches %q", Ja: "%q に合う索引済みのフォルダはありません"},
			"search.folder.listed":        {En: "indexed folders: %s (a path as results show it, in any case; a source folder's name or local path; or a local:/drive: spec)", Ja: "索引済みのフォルダ: %s（結果に表示されるパス（大文字小文字は問いません）、取得元フォルダの名前やローカルのパス、または local:/drive: の指定）"},
			"search.folder.more":          {En: " and %d more", Ja: " ほか %d 件"},
			"search.corrected":            {En: "Showing results for: %s", Ja: "次の語で検索した結果です: %s"},
			"search.corrected.instead":    {En: "Search instead for: %s", Ja: "入力どおりに検索するには: %s"},
			"alfred.corrected.notice":     {En: "Corrected %s", Ja: "修正 %s"},
			"alfred.corrected.sub":        {En: "Corrected %s · %s", Ja: "修正 %s ・ %s"},
			"alfred.instead.title":        {En: "Search instead for: %s", Ja: "入力どおりに検索: %s"},
			"alfred.instead.sub":          {En: "⏎ searches the words as typed", Ja: "⏎ で入力した語のまま検索します"},
			"search.missing.sep":          {En: ", ", Ja: "、"},
			"search.partial":              {En: "Weak match: even the best files lack %s", Ja: "一致が弱い結果です。上位のファイルにも%sがありません"},
			"alfred.partial":              {En: "Weak match", Ja: "一致が弱い結果"},
			"alfred.missing.sub":          {En: "%s · %s", Ja: "%s ・ %s"},
			"alfred.not_found.tried":      {En: "%s · edit the query and press ⏎", Ja: "%s ・ 語を変えて ⏎ で検索し直せます"},
		}
	})
}
