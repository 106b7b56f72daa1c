package i18n

// Messages of the interactive terminal front end and the REPL
// (render.Interactive, cmd/gds/repl.go).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"interactive.loop":              {En: "[loop %d/%d] ", Ja: "[ループ %d/%d] "},
			"interactive.step.analyze":      {En: "Analysing the query…", Ja: "クエリを解析しています…"},
			"interactive.step.search":       {En: "Searching the index…", Ja: "インデックスを検索しています…"},
			"interactive.step.search.drive": {En: "Searching Google Drive…", Ja: "Google ドライブを検索しています…"},
			"interactive.step.clarify":      {En: "Too many matches; preparing a question…", Ja: "該当が多すぎるため、質問を用意しています…"},
			"interactive.step.ask":          {En: "Waiting for your answer…", Ja: "回答を待っています…"},
			"interactive.step.refine":       {En: "Reading your answer…", Ja: "回答を解釈しています…"},
			"interactive.step.narrow":       {En: "Vector search over the matches…", Ja: "該当ファイルをベクトル検索しています…"},
			"interactive.step.rerank":       {En: "Reranking by what you asked…", Ja: "質問の意図で並べ替えています…"},
			"interactive.step.relax":        {En: "Nothing matched; loosening the search…", Ja: "該当なし。条件を緩めています…"},
			"interactive.round":             {En: "Loop %d: keywords [%s] · required [%s] · filters: %s · %d hits → %s", Ja: "ループ %d: キーワード [%s] ・ 必須 [%s] ・ フィルタ: %s ・ %d 件 → %s"},
			"interactive.branch.clarify":    {En: "ask a question", Ja: "質問する"},
			"interactive.branch.narrow":     {En: "vector search", Ja: "ベクトル検索"},
			"interactive.branch.rerank":     {En: "rerank and show", Ja: "並べ替えて表示"},
			"interactive.branch.single":     {En: "show it", Ja: "表示"},
			"interactive.branch.relax":      {En: "loosen the search", Ja: "条件を緩める"},
			"interactive.branch.not_found":  {En: "not found", Ja: "見つからない"},
			"interactive.branch.loop_cap":   {En: "loop limit", Ja: "ループ上限"},
			"interactive.branch.no_answer":  {En: "no answer: keep the best 100", Ja: "回答なし: 上位 100 件で続行"},
			"interactive.prompt.choice":     {En: "Answer with a number (1–%d) or your own words; Enter skips: ", Ja: "番号（1〜%d）か言葉で答えてください（Enter でスキップ）: "},
			"interactive.prompt.free":       {En: "Your answer (Enter skips): ", Ja: "回答を入力してください（Enter でスキップ）: "},
			"interactive.bad_choice":        {En: "Pick a number from 1 to %d, or type words.", Ja: "1〜%d の番号を選ぶか、言葉で答えてください。"},
			"interactive.repl.welcome":      {En: "gds search (AI provider: %s). Type a query and press Enter; an empty line or Ctrl-D exits.", Ja: "gds 検索（AI プロバイダー: %s）。検索語を入力して Enter。空行か Ctrl-D で終了します。"},
			"interactive.repl.prompt":       {En: "search> ", Ja: "検索> "},
			"interactive.repl.cancelled":    {En: "Search cancelled.", Ja: "検索を中止しました。"},
			"interactive.repl.exit_hint":    {En: "(press Ctrl-C again, Ctrl-D or Enter on an empty line to exit)", Ja: "（終了するにはもう一度 Ctrl-C、Ctrl-D、または空行で Enter）"},
		}
	})
}
