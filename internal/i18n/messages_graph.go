package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"graph.missing": {
				En: "No usable entity graph (%s): run `gds graph build` first",
				Ja: "利用できるエンティティグラフがありません（%s）。先に `gds graph build` を実行してください",
			},
			"graph.embedding_mismatch": {
				En: "the graph's entity embeddings have %d dimensions but the current embedding model gives %d: run `gds graph build --full` with the current AI provider",
				Ja: "グラフのエンティティ埋め込みは %d 次元ですが、現在の埋め込みモデルは %d 次元です。現在の AI プロバイダで `gds graph build --full` を実行してください",
			},
			"graph.bad_mode":          {En: "unknown mode %q: use global, local or drift", Ja: "モード %q は不明です。global、local、drift のいずれかを指定してください"},
			"graph.bad_format":        {En: "unknown output format %q: use markdown or json", Ja: "出力形式 %q は不明です。markdown か json を指定してください"},
			"graph.bad_level":         {En: "community level %d is out of range: use 0 or more", Ja: "コミュニティ階層 %d は範囲外です。0 以上を指定してください"},
			"graph.bad_tokens":        {En: "max context tokens %d is too small: use at least 500", Ja: "最大コンテキストトークン %d は小さすぎます。500 以上を指定してください"},
			"graph.no_data":           {En: "I am sorry but I am unable to answer this question given the provided data.", Ja: "申し訳ありませんが、与えられたデータからはこの質問に答えられません。"},
			"graph.offline_note":      {En: "Extract from the graph's community reports and passages (offline provider: the best-matching sentences, not a generated answer):", Ja: "グラフのコミュニティレポートと本文からの抜粋です（オフラインプロバイダ: 質問に最も合う文で、生成された回答ではありません）:"},
			"graph.sources":           {En: "Sources", Ja: "出典"},
			"graph.sources.line":      {En: "%d reports, %d entities, %d chunks from %d documents", Ja: "レポート %d 件、エンティティ %d 件、チャンク %d 件（文書 %d 件）"},
			"graph.reports":           {En: "Reports", Ja: "レポート"},
			"graph.documents":         {En: "Documents", Ja: "文書"},
			"graph.calls":             {En: "mode %s · %d model calls (map %d, drift %d, answer %d) · ~%d prompt tokens", Ja: "モード %s · モデル呼び出し %d 回（map %d、drift %d、回答 %d）· プロンプト約 %d トークン"},
			"graph.phase.scan":        {En: "Reading the indexed chunks", Ja: "索引済みのチャンクを読み込み中"},
			"graph.phase.extract":     {En: "Extracting entities", Ja: "エンティティを抽出中"},
			"graph.phase.embed":       {En: "Embedding entities", Ja: "エンティティを埋め込み中"},
			"graph.phase.communities": {En: "Finding communities", Ja: "コミュニティを検出中"},
			"graph.phase.reports":     {En: "Writing community reports", Ja: "コミュニティレポートを作成中"},
			"graph.phase.save":        {En: "Saving the graph", Ja: "グラフを保存中"},
			"graph.built": {
				En: "Graph built (%s): %d chunks (%d extracted, %d unchanged, %d removed), %d entities, %d relationships, %d communities (%s), %d reports written, %d reused; %d extraction and %d report calls.",
				Ja: "グラフを作成しました（%s）: チャンク %d（抽出 %d、変更なし %d、削除 %d）、エンティティ %d、関係 %d、コミュニティ %d（%s）、レポート作成 %d、再利用 %d。抽出呼び出し %d 回、レポート呼び出し %d 回。",
			},
			"cmd.graph.usage":       {En: "build an entity graph of your documents and answer questions about the whole collection (GraphRAG)", Ja: "文書のエンティティグラフを作り、文書群全体についての質問に答えます（GraphRAG）"},
			"cmd.graph.build.usage": {En: "build or update the graph from the indexed chunks (incremental, resumable)", Ja: "索引済みのチャンクからグラフを作成・更新します（差分、再開可能）"},
			"cmd.graph.build.desc": {
				En: "Extracts entities and relationships from every indexed chunk with the AI provider (one gleaning pass), merges them, groups them into a hierarchy of communities (Louvain, split again above 10 entities) and writes a report for each. Only chunks whose text changed are extracted again, chunks of deleted files are removed, and only communities whose content changed get a new report; a killed build resumes where it stopped.",
				Ja: "AI プロバイダで索引済みの各チャンクからエンティティと関係を抽出し（追加抽出 1 回）、統合し、コミュニティの階層にまとめ（Louvain、10 エンティティを超えるものは再分割）、それぞれのレポートを書きます。本文が変わったチャンクだけを再抽出し、削除されたファイルのチャンクは取り除き、内容が変わったコミュニティだけレポートを書き直します。中断したビルドは続きから再開します。",
			},
			"cmd.graph.query.usage": {En: "answer a question from the graph (global map-reduce, local or drift)", Ja: "グラフから質問に答えます（global の map-reduce、local、drift）"},
			"cmd.graph.query.desc": {
				En: "global (default): the community reports up to --community-level with rank >= --min-community-rank, in batches under --max-context-tokens, each answered in parallel with scored key points, then merged by score into one answer. local: the entities nearest the question with their relationships, passages and reports. drift: a primer over the top reports, follow-up local searches to depth 3, and a final merge. The answer is streamed; --output-format json prints the parameters, call and token counts and the reference chain reports → entities → chunks → documents.",
				Ja: "global（既定）: --community-level 以下で rank が --min-community-rank 以上のコミュニティレポートを --max-context-tokens 以内のバッチに分け、並列にスコア付きの要点を出し、スコア順に統合して回答します。local: 質問に近いエンティティとその関係、本文、レポートから答えます。drift: 上位レポートで初期回答を作り、追加の local 検索を深さ 3 まで行い、最後に統合します。回答はストリーミングされ、--output-format json ではパラメータ、呼び出し数とトークン数、参照の連鎖（レポート → エンティティ → チャンク → 文書）を出力します。",
			},
			"flag.graph.folder":        {En: "only the documents in this folder and its subfolders", Ja: "このフォルダとそのサブフォルダの文書だけ"},
			"flag.graph.full":          {En: "forget the stored extractions and reports and build from scratch", Ja: "保存済みの抽出結果とレポートを捨てて最初から作成"},
			"flag.graph.json":          {En: "print the build summary as JSON", Ja: "ビルドの結果を JSON で出力"},
			"flag.graph.concurrency":   {En: "model calls in flight (default: as many as the account's rate limits allow; 4 without them)", Ja: "同時に行うモデル呼び出し数（既定: アカウントのレート制限が許すだけ。制限情報がなければ 4）"},
			"flag.graph.mode":          {En: "global, local or drift", Ja: "global、local、drift のいずれか"},
			"flag.graph.level":         {En: "deepest community level to read (global, drift)", Ja: "読むコミュニティの最も深い階層（global、drift）"},
			"flag.graph.min_rank":      {En: "only community reports with rank >= this (0–10)", Ja: "rank がこの値以上のコミュニティレポートだけ（0〜10）"},
			"flag.graph.max_tokens":    {En: "token budget of each model context", Ja: "各モデル呼び出しのコンテキストのトークン上限"},
			"flag.graph.response_type": {En: "the answer's form, e.g. \"multiple paragraphs\", \"single paragraph\", \"list\"", Ja: "回答の形式（例: \"multiple paragraphs\"、\"single paragraph\"、\"list\"）"},
			"flag.graph.format":        {En: "markdown or json", Ja: "markdown または json"},
			"flag.graph.no_normalize":  {En: "use raw occurrence weights (normalize_community_weight false)", Ja: "出現重みを正規化しない（normalize_community_weight false）"},
		}
	})
}
