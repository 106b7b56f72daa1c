package i18n

// Messages of cost and time estimates (gds crawl --estimate, gds graph
// build --estimate) and of the model usage runs report.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"estimate.heading":          {En: "Estimate of %s, before any model call (chat %s, embeddings %s):", Ja: "%s の見積もり（モデルの呼び出し前。チャット %s、埋め込み %s）:"},
			"estimate.offline":          {En: "%s runs on the offline provider: no model call, nothing to pay.", Ja: "%s はオフラインプロバイダーで動くため、モデルの呼び出しも費用もありません。"},
			"estimate.kind.chat":        {En: "chat", Ja: "チャット"},
			"estimate.kind.embeddings":  {En: "embeddings", Ja: "埋め込み"},
			"estimate.kind.vision":      {En: "OCR (vision)", Ja: "OCR（画像）"},
			"estimate.kind.total":       {En: "total", Ja: "合計"},
			"estimate.time":             {En: "time at the usage tier %s limits: at least %s (%s)", Ja: "時間（利用ティア %s の制限）: 少なくとも %s（%s）"},
			"estimate.figures":          {En: "calls %s · input %s · output %s tokens · %s", Ja: "呼び出し %s 回 · 入力 %s · 出力 %s トークン · %s"},
			"estimate.nothing":          {En: "no model call: nothing new or changed to send", Ja: "モデルの呼び出しはありません（新しいものも変わったものもありません）"},
			"estimate.time_unknown":     {En: "time: unknown, the models' rate limits are not known (set GDS_AI_LIMITS or GDS_AI_MAX_RPM)", Ja: "時間: モデルのレート制限が不明なため分かりません（GDS_AI_LIMITS か GDS_AI_MAX_RPM を設定してください）"},
			"estimate.bound.requests":   {En: "bound by requests per minute", Ja: "毎分リクエスト数で律速"},
			"estimate.bound.tokens":     {En: "bound by tokens per minute", Ja: "毎分トークン数で律速"},
			"estimate.prices":           {En: "prices per million tokens, input/output: %s", Ja: "100 万トークンあたりの価格（入力/出力）: %s"},
			"estimate.price_unknown":    {En: "price: unknown for a model the table does not list (set GDS_AI_PRICES)", Ja: "価格: 表にないモデルのため不明です（GDS_AI_PRICES を設定してください）"},
			"estimate.output_note":      {En: "Input tokens are counted on what would be sent; output tokens are modelled (docs/estimate.md).", Ja: "入力トークンは送信内容を数えた値、出力トークンはモデルによる推定値です（docs/estimate.md）。"},
			"estimate.actual_heading":   {En: "Model calls (the usage the responses reported):", Ja: "モデルの呼び出し（応答が報告した使用量）:"},
			"estimate.beside":           {En: "(estimated: %s)", Ja: "（見積もり: %s）"},
			"init.out.next_estimate":    {En: "Next: gds crawl --estimate   (what the model calls will cost), then gds crawl", Ja: "次に: gds crawl --estimate   （モデル呼び出しの費用）、その後 gds crawl"},
			"estimate.init_offer":       {En: "The first crawl with this model:", Ja: "このモデルでの最初のクロール:"},
			"flag.crawl.estimate":       {En: "print the model calls, tokens, price and time the crawl would take, without calling the model or writing anything", Ja: "クロールにかかるモデルの呼び出し回数・トークン数・費用・時間を、モデルを呼ばず何も書き込まずに表示します"},
			"flag.graph.estimate":       {En: "print the model calls, tokens, price and time the build would take, without calling the model or writing anything", Ja: "構築にかかるモデルの呼び出し回数・トークン数・費用・時間を、モデルを呼ばず何も書き込まずに表示します"},
			"flag.crawl.json":           {En: "with --estimate: print the estimate as JSON", Ja: "--estimate と併用: 見積もりを JSON で出力します"},
			"crawl.json_needs_estimate": {En: "--json goes with --estimate", Ja: "--json は --estimate と一緒に指定してください"},
		}
	})
}
