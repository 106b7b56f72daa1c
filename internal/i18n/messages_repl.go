package i18n

// Messages of the search prompt's result commands (render.ResultLinks,
// internal/sysopen): a number or "o N" opens result N, "c N" copies its link.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"repl.results_hint":          {En: "(a number or o N opens that result, c N copies its link)", Ja: "（番号か o N でその結果を開き、c N でリンクをコピーします）"},
			"repl.opened":                {En: "Opened %d: %s", Ja: "%d 番を開きました: %s"},
			"repl.copied":                {En: "Copied the link of %d: %s", Ja: "%d 番のリンクをコピーしました: %s"},
			"repl.copied_terminal":       {En: "Sent the link of %d to the terminal's clipboard (OSC 52; not every terminal allows it): %s", Ja: "%d 番のリンクをターミナルのクリップボードに送りました（OSC 52。対応していないターミナルもあります）: %s"},
			"repl.bad_index":             {En: "there is no result %d; choose 1–%d", Ja: "%d 番の結果はありません。1〜%d から選んでください"},
			"repl.no_link":               {En: "result %d has no link to open", Ja: "%d 番の結果には開けるリンクがありません"},
			"repl.no_opener":             {En: "cannot open links: %s is not installed", Ja: "リンクを開けません: %s がインストールされていません"},
			"repl.open_failed":           {En: "%s could not open %s", Ja: "%s で %s を開けませんでした"},
			"repl.open_failed_hint":      {En: "open the link yourself, or copy it with c N", Ja: "リンクを直接開くか、c 番号 でコピーしてください"},
			"repl.open_failed_file_hint": {En: "check that a program is set to open this kind of file (on Linux: xdg-mime), or open the file yourself", Ja: "この種類のファイルを開くプログラムが設定されているか確認するか（Linux では xdg-mime）、ファイルを直接開いてください"},
			"repl.no_opener_hint":        {En: "install it (on Linux: the xdg-utils package), or copy the link with c N", Ja: "インストールするか（Linux では xdg-utils パッケージ）、c 番号 でリンクをコピーしてください"},
			"repl.file_gone":             {En: "the file %s is no longer there", Ja: "ファイル %s はもうありません"},
			"repl.file_gone_hint":        {En: "it was moved or deleted since the last crawl; run `gds crawl` to update the index", Ja: "前回のクロールの後で移動または削除されました。`gds crawl` でインデックスを更新してください"},
			"repl.copy_failed":           {En: "pbcopy could not copy the link", Ja: "pbcopy でリンクをコピーできませんでした"},
		}
	})
}
