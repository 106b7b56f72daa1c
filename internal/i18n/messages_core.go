package i18n

// Message keys shared by the search loop and the CLI.
const (
	// NoFilesFound ends a search where nothing matched even with one keyword.
	NoFilesFound Key = "search.no_files_found"
	// LoopLimitReached ends a search that hit SEARCH_MAX_LOOP_COUNT with more
	// than ten hits. Argument: the loop limit N (int).
	LoopLimitReached Key = "search.loop_limit_reached"

	// ErrorPrefix starts the one-line error the CLI prints.
	ErrorPrefix Key = "cli.error_prefix"
	// HintPrefix starts the hint line printed after an error.
	HintPrefix Key = "cli.hint_prefix"
	// NotImplemented is the error of commands that a later release builds.
	// Argument: the command path ("gds auth login").
	NotImplemented Key = "cli.not_implemented"
	// HintNotImplemented points at the README status table.
	HintNotImplemented Key = "cli.hint_not_implemented"
	// HintConfig tells where to fix a configuration error.
	HintConfig Key = "cli.hint_config"
	// HintUsage tells the user to read the help of the command.
	HintUsage Key = "cli.hint_usage"
	// HintGeneric is printed after other errors.
	HintGeneric Key = "cli.hint_generic"
	// Interrupted is printed when the user interrupts gds (Ctrl-C).
	Interrupted Key = "cli.interrupted"
)

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			NoFilesFound: {
				En: "No files found.",
				Ja: "見つかりませんでした",
			},
			LoopLimitReached: {
				En: "Reached the loop limit (%d) without narrowing the results to 10 or fewer. Please revise your query and try again.",
				Ja: "ループ回数の上限（%d 回）に到達しましたが、10 件以下に絞り込めませんでした。クエリを見直して再実行してください。",
			},
			ErrorPrefix: {En: "Error: ", Ja: "エラー: "},
			HintPrefix:  {En: "Hint: ", Ja: "ヒント: "},
			NotImplemented: {
				En: "%s is not implemented yet in this build (see the Status table in the README)",
				Ja: "%s はこのビルドではまだ実装されていません（README のステータス表を参照してください）",
			},
			HintNotImplemented: {
				En: "run `gds --help` to see what works today",
				Ja: "`gds --help` で現在使えるコマンドを確認してください",
			},
			HintConfig: {
				En: "fix the variable in your environment or in a .env file (`gds config path` shows where), then run again",
				Ja: "環境変数または .env ファイル（場所は `gds config path` で確認できます）を修正してから再実行してください",
			},
			HintUsage: {
				En: "run the command with --help to see its usage",
				Ja: "--help を付けて実行すると使い方を確認できます",
			},
			HintGeneric: {
				En: "run `gds doctor` to check your setup",
				Ja: "`gds doctor` で設定を確認してください",
			},
			Interrupted: {En: "interrupted", Ja: "中断されました"},
			"cli.hint_rate_limited": {
				En: "the service is limiting requests; wait a minute and try again",
				Ja: "サービス側でリクエストが制限されています。少し待ってから再実行してください",
			},
			"cli.hint_unavailable": {
				En: "check your network connection and that the service is up, then try again (`gds doctor` checks the setup)",
				Ja: "ネットワーク接続とサービスの稼働を確認してから再実行してください（`gds doctor` で設定を確認できます）",
			},
			"cli.hint_index": {
				En: "re-index with `gds crawl --full` (or upgrade gds if the index was made by a newer version)",
				Ja: "`gds crawl --full` で再インデックスしてください（新しいバージョンの gds で作られたインデックスなら gds を更新してください）",
			},
		}
	})
}
