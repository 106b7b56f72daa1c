package i18n

// Messages of the crawl and of search result rendering (package render).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"crawl.begin.full":            {En: "Full scan: %d files to check", Ja: "フルスキャン: %d 件のファイルを確認します"},
			"store.backfill.begin":        {En: "Updating the index for this version of gds: re-reading the search words of %d files (once)…", Ja: "このバージョンの gds に合わせてインデックスを更新しています: %d 件のファイルの検索語を作り直します（初回のみ）…"},
			"store.backfill.progress":     {En: "  %d/%d files", Ja: "  %d/%d 件"},
			"store.backfill.done":         {En: "Index updated (%d files, %s).", Ja: "インデックスを更新しました（%d 件、%s）。"},
			"crawl.begin.incremental":     {En: "Incremental crawl: %d files changed since the last crawl", Ja: "差分クロール: 前回のクロール以降に変更されたファイル %d 件"},
			"crawl.progress.title":        {En: "Indexing", Ja: "インデックス作成中"},
			"crawl.progress.count":        {En: "Files: %d/%d", Ja: "ファイル: %d/%d"},
			"progress.rate":               {En: "%s %s/s", Ja: "%s %s/秒"},
			"progress.eta":                {En: "ETA %s", Ja: "残り約 %s"},
			"progress.calls_limit":        {En: "model calls %s/s of %s/s allowed", Ja: "モデル呼び出し %s 回/秒（上限 %s 回/秒）"},
			"progress.calls":              {En: "model calls %s/s", Ja: "モデル呼び出し %s 回/秒"},
			"progress.unit.files":         {En: "files", Ja: "件"},
			"progress.unit.chunks":        {En: "chunks", Ja: "チャンク"},
			"progress.unit.reports":       {En: "reports", Ja: "レポート"},
			"crawl.status.new":            {En: "indexed", Ja: "追加"},
			"crawl.status.updated":        {En: "updated", Ja: "更新"},
			"crawl.status.unchanged":      {En: "unchanged", Ja: "変更なし"},
			"crawl.status.skipped":        {En: "skipped", Ja: "スキップ"},
			"crawl.status.failed":         {En: "FAILED", Ja: "失敗"},
			"crawl.status.planned":        {En: "would index", Ja: "インデックス予定"},
			"crawl.summary":               {En: "Done: %d new, %d updated, %d unchanged, %d skipped, %d failed", Ja: "完了: 追加 %d 件、更新 %d 件、変更なし %d 件、スキップ %d 件、失敗 %d 件"},
			"crawl.summary.dry_run":       {En: "Dry run: %d files would be indexed, %d skipped; nothing was written", Ja: "ドライラン: %d 件をインデックス予定、%d 件スキップ（書き込みはしていません）"},
			"crawl.summary.removed":       {En: "Removed %d files that are no longer in the crawled folders", Ja: "対象フォルダにもう無いファイル %d 件をインデックスから削除しました"},
			"crawl.summary.removed.one":   {En: "Removed %d file that is no longer in the crawled folders", Ja: "対象フォルダにもう無いファイル %d 件をインデックスから削除しました"},
			"crawl.summary.would_remove":  {En: "%d indexed files are no longer in the crawled folders and would be removed", Ja: "対象フォルダにもう無いファイル %d 件がインデックスから削除される予定です"},
			"crawl.summary.kept_unlisted": {En: "The crawled folders listed no files, so the %d indexed files were kept; check that the folder is reachable (mounted, shared with you), then run the crawl again", Ja: "対象フォルダからファイルが 1 件も見つからなかったため、インデックス済みの %d 件は残しました。フォルダにアクセスできるか（マウント・共有設定）を確認してから再度クロールしてください"},
			"crawl.summary.skipped":       {En: "Skipped:", Ja: "スキップしたファイル:"},
			"crawl.summary.truncated":     {En: "Indexed in part (text over the limit):", Ja: "一部だけ索引したファイル (テキストが上限を超過):"},
			"crawl.summary.failed":        {En: "Failed (retried on the next crawl):", Ja: "失敗したファイル（次回のクロールで再試行します）:"},
			"crawl.summary.more":          {En: "  … and %d more", Ja: "  … ほか %d 件"},
			"crawl.checkpoint":            {En: "Sync checkpoint: %s", Ja: "同期チェックポイント: %s"},

			"search.round":          {En: "Loop %d: keywords [%s] · filters: %s · %d hits → %s", Ja: "ループ %d: キーワード [%s] ・ フィルタ: %s ・ %d 件 → %s"},
			"search.provider":       {En: "AI provider: %s", Ja: "AI プロバイダー: %s"},
			"search.filters.none":   {En: "none", Ja: "なし"},
			"search.filters.folder": {En: "in %s", Ja: "%s 内"},
		}
	})
}

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"crawl.failed_files": {En: "%d files failed; they are retried on the next crawl", Ja: "%d 件のファイルが失敗しました。次回のクロールで再試行します"},
			"search.no_query":    {En: "give a query, e.g. gds search \"Q3 roadmap slides\"", Ja: "検索語を指定してください（例: gds search \"先月の議事録PDF\"）"},
			"search.empty_index": {En: "the index is empty: run `gds crawl` first (or `gds crawl --source local:PATH` for a folder)", Ja: "インデックスが空です。先に `gds crawl`（フォルダなら `gds crawl --source local:PATH`）を実行してください"},
		}
	})
}

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"search.too_many":      {En: "%d files match — too many to show.", Ja: "%d 件が該当しました。表示するには多すぎます。"},
			"search.answer_prompt": {En: "Answer (number, words, or Enter to skip): ", Ja: "回答（番号・キーワード、Enter でスキップ）: "},
		}
	})
}

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"search.state_needs_format": {En: "--answer and --state continue a --json or --alfred search", Ja: "--answer と --state は --json または --alfred の検索を続けるためのオプションです"},
		}
	})
}
