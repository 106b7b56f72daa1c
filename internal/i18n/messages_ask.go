package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"ask.bad_top_k":     {En: "top_k %d is out of range: use a whole number from 1 to %d", Ja: "top_k %d は範囲外です。1 から %d までの整数を指定してください"},
			"ask.bad_threshold": {En: "score_threshold %v is out of range: use a number from 0 to 1", Ja: "score_threshold %v は範囲外です。0 から 1 までの数を指定してください"},
			"ask.no_question":   {En: "no question given", Ja: "質問が指定されていません"},
			"ask.no_context": {
				En: "No passage in your documents matches this question well enough, so there is no answer (lower --score-threshold or rephrase).",
				Ja: "この質問に十分合う箇所が文書に見つからなかったため、回答できません（--score-threshold を下げるか、言い換えてください）。",
			},
			"ask.extract_note": {
				En: "Extract from your documents (offline provider: the best-matching sentences, not a generated answer):",
				Ja: "文書からの抜粋です（オフラインプロバイダ: 質問に最も合う文で、生成された回答ではありません）:",
			},
			"ask.sources":      {En: "Sources:", Ja: "出典:"},
			"ask.closest":      {En: "Closest passages (none of them answers the question):", Ja: "最も近い箇所（いずれも質問の答えではありません）:"},
			"ask.page":         {En: "p. %d", Ja: "%d ページ"},
			"ask.repl.welcome": {En: "Ask about your documents (provider: %s). An empty line or Ctrl-D exits.", Ja: "文書について質問してください（プロバイダ: %s）。空行または Ctrl-D で終了します。"},
			"ask.repl.prompt":  {En: "ask> ", Ja: "質問> "},
			"cmd.ask.usage":    {En: "answer a question from your documents, citing the passages", Ja: "文書をもとに質問に答え、根拠の箇所を示します"},
			"cmd.ask.desc": {
				En: "Finds the passages of your indexed documents that best match the question (full text and vectors over the chunk index, fused), has the AI provider answer from them, streamed, and lists the numbered sources. The offline provider answers with the sentence of the passages that answers (an extract), and says so when none does. Without a question on a terminal, a prompt keeps the conversation.",
				Ja: "索引済みの文書から質問に最も合う箇所（チャンク索引の全文検索とベクトル検索を融合）を探し、AI プロバイダがそれをもとに回答をストリーミングし、番号付きの出典を示します。オフラインプロバイダは箇所の中から答えとなる文を抜粋して答え、答えとなる文が無いときはそう伝えます。ターミナルで質問を省くと、会話を続けるプロンプトになります。",
			},
			"flag.ask.top_k":     {En: "passages to retrieve (1–20)", Ja: "取得する箇所の数（1〜20）"},
			"flag.ask.threshold": {En: "minimum fused score of a passage (0–1)", Ja: "箇所の融合スコアの下限（0〜1）"},
			"flag.ask.folder":    {En: "only documents in this folder and its subfolders", Ja: "このフォルダとそのサブフォルダの文書だけ"},
			"flag.ask.jsonl":     {En: "print JSON lines as the answer is written: chunk pieces, an evidence line per source, done (the event shapes of --mode agentic --json)", Ja: "回答を書きながら JSON 行を出力: chunk（断片）、参照元ごとの evidence、done（--mode agentic --json と同じ形）"},
			"flag.ask.json":      {En: "print one JSON object {answer, sources, no_answer, closest, provider, question, lang}", Ja: "1 つの JSON オブジェクト {answer, sources, no_answer, closest, provider, question, lang} を出力"},
		}
	})
}
