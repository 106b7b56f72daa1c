package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"agent.sum.list":        {En: "found %d documents (showing %d)", Ja: "%d 件の文書が見つかりました（%d 件を表示）"},
			"agent.sum.agenda":      {En: "found %d structure documents", Ja: "構成文書が %d 件見つかりました"},
			"agent.sum.evidence":    {En: "%d relevant results", Ja: "関連する箇所が %d 件見つかりました"},
			"agent.sum.summary":     {En: "summary of %s", Ja: "%s の要約"},
			"agent.sum.investigate": {En: "analysis of %s complete (%d evidence)", Ja: "%s の分析が完了しました（根拠 %d 件）"},
			"agent.sum.attachments": {En: "attachments found: %d", Ja: "添付が %d 件"},
			"agent.sum.read":        {En: "read %s", Ja: "%s を読みました"},
			"agent.sum.error":       {En: "error: %s", Ja: "エラー: %s"},
			"agent.sum.limit":       {En: "%s may be called at most %d times", Ja: "%s の呼び出しは %d 回までです"},
			"agent.stopped.steps":   {En: "Stopped after %d steps (the step limit): this is the best answer so far.", Ja: "ステップ上限（%d 回）に達したため中断しました。ここまでの最善の回答です。"},
			"agent.stopped.tokens":  {En: "Stopped at the token limit (%d tokens): this is the best answer so far.", Ja: "トークン上限（%d トークン）に達したため中断しました。ここまでの最善の回答です。"},
			"agent.stopped.time":    {En: "Stopped at the time limit (%s): this is the best answer so far, quoted from the evidence found.", Ja: "時間上限（%s）に達したため中断しました。見つかった根拠から抜粋した、ここまでの最善の回答です。"},
			"agent.no_evidence":     {En: "No passage of the folder's documents answers this question.", Ja: "フォルダの文書にこの質問に答える箇所は見つかりませんでした。"},
			"agent.offline_note": {
				En: "Offline agent (deterministic plan, no language model): the answer below quotes the best-matching sentences of the evidence.",
				Ja: "オフラインエージェント（決まった手順、言語モデルなし）: 以下の回答は根拠の中で最も合う文の抜粋です。",
			},
			"agent.no_folder":    {En: "agentic search works on one folder: give --folder (the index holds several source folders: %s)", Ja: "エージェント検索は 1 つのフォルダが対象です。--folder を指定してください（索引には複数の取得元フォルダがあります: %s）"},
			"agent.empty_folder": {En: "no indexed document is in folder %q", Ja: "フォルダ %q に索引済みの文書がありません"},
			"agent.stream_only":  {En: "mode agentic streams its steps: use POST /api/v1/chat/stream", Ja: "agentic モードは手順をストリーミングします。POST /api/v1/chat/stream を使ってください"},
			"agent.bad_mode":     {En: "unknown mode %q: use rag or agentic", Ja: "不明なモード %q です。rag または agentic を指定してください"},
			"agent.step.call":    {En: "🔍 %s…", Ja: "🔍 %s…"},
			"agent.step.list":    {En: "Listing the folder's documents", Ja: "フォルダの文書を一覧しています"},
			"agent.step.agenda":  {En: "Looking for structure documents (agenda, index, minutes)", Ja: "構成文書（議題・目次・議事録）を探しています"},
			"agent.step.search":  {En: "Searching for \"%s\"", Ja: "「%s」を検索しています"},
			"agent.step.summary": {En: "Reading the summary of %s", Ja: "%s の要約を読んでいます"},
			"agent.step.invest":  {En: "Investigating %s", Ja: "%s を調査しています"},
			"agent.step.attach":  {En: "Listing attachments", Ja: "添付を一覧しています"},
			"agent.step.read":    {En: "Reading attachment %s", Ja: "添付 %s を読んでいます"},
			"agent.step.other":   {En: "Calling %s", Ja: "%s を呼び出しています"},
			"agent.step.answer":  {En: "📝 Writing the answer…", Ja: "📝 回答を作成しています…"},
			"agent.evidence":     {En: "Evidence:", Ja: "根拠:"},
			"cmd.ask.mode":       {En: "rag (retrieve passages, then answer) or agentic (an agent plans, investigates the folder's documents and shows every step)", Ja: "rag（箇所を検索して回答）または agentic（エージェントが計画し、フォルダの文書を調査し、各ステップを表示）"},
		}
	})
}
