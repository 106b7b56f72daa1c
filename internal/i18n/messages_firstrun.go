package i18n

// Messages of a first run: gds used before `gds init` configured a source,
// and a --source folder that does not exist.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"first_run.no_source":   {En: "nothing to crawl: no source is configured yet", Ja: "クロールするものがありません。ソースがまだ設定されていません"},
			"first_run.empty_index": {En: "nothing is indexed yet, and no source is configured", Ja: "まだ何もインデックスされておらず、ソースも設定されていません"},
			"first_run.hint":        {En: "run `gds init` to choose what to index (on a terminal it asks), or `gds init --source local:PATH --no-input`; then `gds crawl`", Ja: "`gds init` でインデックスするものを選んでください（端末では対話で尋ねます）。または `gds init --source local:パス --no-input`。その後 `gds crawl` を実行します"},
			"first_run.offer":       {En: "gds is not set up yet: no source to index is configured.\nSet it up now with `gds init`? [Y/n] ", Ja: "gds はまだ設定されていません（インデックスするソースがありません）。\n今 `gds init` で設定しますか？ [Y/n] "},
			"first_run.declined":    {En: "Run `gds init` when you are ready.", Ja: "準備ができたら `gds init` を実行してください。"},
			"doctor.auth.no_source": {En: "not needed until a Google Drive source is chosen", Ja: "Google ドライブのソースを選ぶまでは不要です"},
			"doctor.source.none":    {En: "no source is configured yet, so there is nothing to crawl", Ja: "ソースがまだ設定されていないため、クロールするものがありません"},
			"serve.empty_index":     {En: "The index is empty: run `gds crawl`, or upload documents in the web UI (they are indexed at once).", Ja: "インデックスが空です。`gds crawl` を実行するか、Web UI から文書をアップロードしてください（すぐにインデックスされます）。"},
			"serve.empty_no_source": {En: "The index is empty and no source is configured: run `gds init` to choose what to index, then `gds crawl`; or upload documents in the web UI (they are indexed at once).", Ja: "インデックスが空で、ソースも設定されていません。`gds init` でインデックスするものを選び、`gds crawl` を実行してください。または Web UI から文書をアップロードしてください（すぐにインデックスされます）。"},
			"crawl.no_such_folder":  {En: "--source %s: the folder %s does not exist", Ja: "--source %s: フォルダ %s がありません"},
			"crawl.not_a_folder":    {En: "--source %s: %s is not a folder", Ja: "--source %s: %s はフォルダではありません"},
		}
	})
}
