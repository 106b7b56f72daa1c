package i18n

// Messages of incremental crawls: the Drive changes feed and the
// reconciling listing (packages crawl, crawl/drivesource, render).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"changes.token_refused": {En: "Google Drive no longer accepts the stored changes position; listing the target folders instead (unchanged files are not read again)", Ja: "Google Drive が保存済みの変更位置を受け付けなくなったため、対象フォルダを一覧し直します（変更のないファイルは読み直しません）"},
			"changes.folder_moved":  {En: "the folder “%s” was created, moved or renamed; listing the target folders to see what it holds (unchanged files are not read again)", Ja: "フォルダ「%s」が作成・移動・名前変更されたため、対象フォルダを一覧し直して中身を確認します（変更のないファイルは読み直しません）"},
			"changes.no_position":   {En: "Google Drive did not give the changes feed position, so the next crawl lists the target folders again", Ja: "Google Drive から変更フィードの位置を取得できなかったため、次回のクロールでも対象フォルダを一覧します"},
			"crawl.summary.moved":   {En: "Moved or renamed: %d files (re-indexed under their new path)", Ja: "移動・名前変更: %d 件（新しい場所でインデックスし直しました）"},
			"crawl.notice":          {En: "Note: %s", Ja: "お知らせ: %s"},
			"crawl.summary.reextracted": {En: "Read again with the newer text extraction: %d unchanged files (re-indexed where their text differs)",
				Ja: "新しいテキスト抽出で読み直し: 変更のないファイル %d 件（テキストが変わったものだけインデックスし直しました）"},
			"crawl.summary.would_reextract": {En: "Would read again with the newer text extraction: %d unchanged files",
				Ja: "新しいテキスト抽出で読み直す予定: 変更のないファイル %d 件"},
		}
	})
}
