package i18n

// Messages of the command-line usage checks (internal/cliflag): unknown
// commands and flags with a suggestion, bad and out-of-range numbers.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"cli.hint_did_you_mean":  {En: "did you mean %s?", Ja: "%s のことですか？"},
			"err.unknown_flag":       {En: "unknown flag %s", Ja: "不明なフラグ %s"},
			"err.flag_int":           {En: "%s takes a whole number, got %q", Ja: "%s には整数を指定してください（%q が渡されました）"},
			"err.flag_duration":      {En: "%s takes a duration such as 5s, 1500ms or 2m, got %q", Ja: "%s には 5s、1500ms、2m のような時間を指定してください（%q が渡されました）"},
			"err.flag_positive":      {En: "%s must be positive, got %s", Ja: "%s には正の値を指定してください（指定値: %s）"},
			"err.flag_number":        {En: "%s takes a number, got %q", Ja: "%s には数値を指定してください（%q が渡されました）"},
			"err.flag_min":           {En: "%s must be %d or more, got %d", Ja: "%s は %d 以上にしてください（%d が渡されました）"},
			"err.flag_range":         {En: "%s must be between %d and %d, got %d", Ja: "%s は %d から %d までにしてください（%d が渡されました）"},
			"err.flag_range_number":  {En: "%s must be between %g and %g, got %g", Ja: "%s は %g から %g までにしてください（%g が渡されました）"},
			"crawl.source_path":      {En: "--source: unknown source %q; for a local folder write %s", Ja: "--source: 不明なソース %q です。ローカルフォルダは %s と指定してください"},
			"config.fix.source_path": {En: "for a local folder write %s (or use \"drive\")", Ja: "ローカルフォルダは %s と指定してください（または \"drive\"）"},
			"store.read_only":        {En: "the gds data folder %s is read-only; make it writable or point GDS_HOME at a writable folder", Ja: "gds のデータフォルダ %s は読み取り専用です。書き込めるようにするか、GDS_HOME を書き込めるフォルダに設定してください"},
			"crawl.failed_files_unreachable": {
				En: "%d files failed because the AI provider could not be reached; they are retried on the next crawl",
				Ja: "AI プロバイダーに接続できなかったため %d 件のファイルが失敗しました。次回のクロールで再試行します",
			},
			"crawl.quota_stopped": {
				En: "the OpenAI account's quota ran out, so the crawl stopped after indexing %d files; the checkpoint covers only what was indexed, and the next crawl continues from there",
				Ja: "OpenAI アカウントの利用枠が尽きたため、%d 件をインデックスしたところでクロールを止めました。チェックポイントはインデックス済みの分だけを記録しており、次回のクロールはその続きから再開します",
			},
			"ai.hint_quota": {
				En: "the OpenAI account has no quota left (insufficient_quota): check the plan and billing at platform.openai.com, then run the command again; waiting does not help",
				Ja: "OpenAI アカウントの利用枠が残っていません（insufficient_quota）。platform.openai.com でプランと支払い設定を確認してから、もう一度実行してください。待っても解消しません",
			},
			"ai.no_api_key": {
				En: "OPENAI_API_KEY is not set: set it, or set OPENAI_BASE_URL to an OpenAI-compatible server, or use GDS_AI_PROVIDER=offline",
				Ja: "OPENAI_API_KEY が設定されていません。設定するか、OPENAI_BASE_URL に OpenAI 互換サーバーを指定するか、GDS_AI_PROVIDER=offline を使ってください",
			},
			"ai.hint_unreachable": {
				En: "the AI provider cannot be reached; check the network and OPENAI_BASE_URL, or work without network with GDS_AI_PROVIDER=offline",
				Ja: "AI プロバイダーに接続できません。ネットワークと OPENAI_BASE_URL を確認するか、GDS_AI_PROVIDER=offline でネットワークなしで使ってください",
			},
		}
	})
}
