package i18n

// Messages of `gds eval` (search quality evaluation).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"cmd.eval.usage": {En: "measure search quality on a query set (Recall@1/10, MRR@10) against a BM25 baseline",
				Ja: "クエリセットで検索品質（Recall@1/10、MRR@10）を測定します（BM25 ベースラインと比較可能）"},
			"cmd.eval.desc": {
				En: "Indexes a folder of documents with the local source (reusing the index while the folder is unchanged) and runs every query of a JSON Lines query set ({\"id\",\"query\",\"relevant\":[file names]}) through the same hybrid loop as gds search, without asking anything: a clarifying question takes the no-answer policy (keep 100 candidates, the best keyword hits fused with the question's full-text ranking, and narrow them by vector search). --baseline bm25 ranks with the benchmark's reference BM25 instead (k1 1.2, b 0.75; NFKC, Japanese character bigrams, English lower-case words minus a short stop-word list; in memory over the corpus text, no index); --baseline fts5 with the index's own keyword search (FTS5 bm25 over gds's tokenizer). Relevant files are matched by file name.\n\n--mode answer measures question answering instead (the query set needs gold \"answers\" strings): context recall@5, the share of queries with a gold answer in the top 5 chunks, for gds's hybrid chunk retrieval (as gds ask), the chunk full text alone (bm25) and the chunk vectors alone; and the share of answers written from the hybrid chunks that contain a gold answer. Texts and answers are compared after NFKC and white-space collapsing, case kept, word-bounded outside CJK.\n\nExamples:\n  gds eval --corpus ../shared/bench/jsquad-para/docs --queries ../shared/bench/jsquad-para/queries-dev.jsonl\n  gds eval --corpus DOCS --queries Q.jsonl --baseline bm25 --json\n  gds eval --mode answer --corpus DOCS --queries Q.jsonl --json",
				Ja: "ローカルソースでフォルダをインデックスし（フォルダが変わらなければ再利用）、JSON Lines 形式のクエリセット（{\"id\",\"query\",\"relevant\":[ファイル名]}）の各クエリを gds search と同じハイブリッド検索ループで、質問に答えずに実行します。確認質問には無回答ポリシー（キーワード検索の上位と質問文全体の全文検索順位を融合した 100 件をベクトル検索で絞り込む）を適用します。--baseline bm25 はベンチマークの参照 BM25（k1 1.2、b 0.75。NFKC 後、日本語は文字バイグラム、英語は小文字化した単語から短いストップワードを除いたもの。インデックスを使わずコーパスのテキストをメモリ上で順位付け）で、--baseline fts5 はインデックス自身のキーワード検索（gds のトークナイザ上の FTS5 bm25）で順位付けします。正解ファイルはファイル名で照合します。\n\n--mode answer は代わりに質問応答を測定します（クエリセットに正解文字列 \"answers\" が必要）: gds のハイブリッドチャンク検索（gds ask と同じ）、チャンク全文検索のみ（bm25）、チャンクベクトル検索のみのそれぞれについて、上位 5 チャンクに正解文字列を含むクエリの割合（context recall@5）と、ハイブリッドのチャンクから作った回答が正解文字列を含む割合。テキストと正解は NFKC と空白の畳み込みの後に比較します（大文字小文字は区別、CJK 以外は単語境界で照合）。\n\n例:\n  gds eval --corpus ../shared/bench/jsquad-para/docs --queries ../shared/bench/jsquad-para/queries-dev.jsonl\n  gds eval --corpus DOCS --queries Q.jsonl --baseline bm25 --json\n  gds eval --mode answer --corpus DOCS --queries Q.jsonl --json",
			},
			"flag.eval.corpus":   {En: "folder of documents to index and search", Ja: "インデックスして検索する文書フォルダ"},
			"flag.eval.queries":  {En: "query set, one JSON object per line", Ja: "クエリセット（1 行 1 JSON オブジェクト）"},
			"flag.eval.baseline": {En: "run a baseline instead of the hybrid loop: bm25 (the benchmark's reference BM25) or fts5 (the index's keyword search)", Ja: "ハイブリッドループの代わりにベースラインを実行: bm25（ベンチマークの参照 BM25）または fts5（インデックスのキーワード検索）"},
			"flag.eval.limit":    {En: "evaluate only the first N queries (0: all)", Ja: "先頭 N 件のクエリだけを評価（0: すべて）"},
			"flag.eval.home":     {En: "folder of the evaluation indexes (default: GDS_HOME/eval)", Ja: "評価用インデックスのフォルダ（既定: GDS_HOME/eval）"},
			"flag.eval.provider": {En: "AI provider for indexing and the loop: offline or openai", Ja: "インデックス作成とループの AI プロバイダー: offline または openai"},
			"flag.eval.capture":  {En: "write every reranked search's ranking inputs (candidates, retrieval order, full-text ranking) to FILE as JSON Lines, for replaying the reranker; with --mode answer, every answer's input (question, passages, word counts), for replaying the offline answer", Ja: "リランクした各検索の順位付けの入力（候補・検索順・全文検索順）を JSON Lines で FILE に書き出す（リランカーの再評価用）。--mode answer では各回答の入力（質問・パッセージ・語の出現数）を書き出す（オフライン回答の再評価用）"},
			"flag.eval.details":  {En: "write every query's result (rank, files, rounds) to FILE as JSON Lines", Ja: "各クエリの結果（順位・ファイル・ラウンド）を JSON Lines で FILE に書き出す"},
			"flag.eval.workers":  {En: "queries run concurrently (latency figures assume 1)", Ja: "同時に実行するクエリ数（レイテンシは 1 を前提）"},

			"eval.need_corpus_queries":  {En: "give --corpus DIR and --queries FILE", Ja: "--corpus DIR と --queries FILE を指定してください"},
			"eval.bad_baseline":         {En: "--baseline %q: want bm25 or fts5", Ja: "--baseline %q: 指定できるのは bm25 または fts5 です"},
			"eval.bad_number":           {En: "--limit must be 0 or more and --workers 1 or more", Ja: "--limit は 0 以上、--workers は 1 以上にしてください"},
			"eval.index.reused":         {En: "Reusing the evaluation index of %d files (%s)", Ja: "評価用インデックス（%d 件、%s）を再利用します"},
			"eval.index.built":          {En: "Built the evaluation index of %d files (%s)", Ja: "評価用インデックス（%d 件、%s）を作成しました"},
			"eval.progress":             {En: "Queries: %d/%d", Ja: "クエリ: %d/%d"},
			"eval.report.title":         {En: "Evaluation of %s on %d queries (%s)", Ja: "%s の評価: %d クエリ（%s）"},
			"eval.report.zero":          {En: "Zero-result rate", Ja: "結果 0 件の割合"},
			"eval.report.loops":         {En: "Mean loops", Ja: "平均ループ数"},
			"eval.report.results":       {En: "Mean results", Ja: "平均結果件数"},
			"eval.report.latency":       {En: "Latency p50 / p95 / max", Ja: "レイテンシ p50 / p95 / 最大"},
			"eval.report.ends":          {En: "Ends", Ja: "終了の内訳"},
			"eval.report.branches":      {En: "Branches taken", Ja: "通った分岐"},
			"flag.eval.mode":            {En: "what to measure: files (file retrieval), keystroke (file retrieval through the Alfred keystroke path: its top 9), answer (context recall@5 of chunk retrieval, answers), agentic (evidence of agentic search vs gds ask) or honest (what the search says on questions with an invented word, a typo, or no answer in the index: sets derived with --seed)", Ja: "測定対象: files（ファイル検索）、keystroke（Alfred のキー入力ごとの検索による上位 9 件）、answer（チャンク検索の context recall@5 と回答）、agentic（エージェント検索と gds ask の根拠の比較）または honest（架空の語・誤字・索引に答えのない質問に検索が何を伝えるか。--seed で作る質問セット）"},
			"flag.eval.seed":            {En: "seed of the honest-search sets (--mode honest): which articles are left out, where words are inserted and misspelt", Ja: "honest モードの質問セットの乱数シード（除く記事、語を入れる位置、誤字の位置）"},
			"eval.honest_baseline":      {En: "--baseline does not apply to --mode honest", Ja: "--baseline は --mode honest では使えません"},
			"eval.bad_mode":             {En: "--mode %q: want files, keystroke, answer or agentic", Ja: "--mode %q: files、keystroke、answer または agentic を指定してください"},
			"eval.answer_baseline":      {En: "--baseline does not apply to --mode answer (it measures every system in one run)", Ja: "--baseline は --mode answer では使えません（1 回の実行ですべての方式を測定します）"},
			"eval.keystroke_baseline":   {En: "--baseline does not apply to --mode keystroke (it measures the keystroke path itself)", Ja: "--baseline は --mode keystroke では使えません（キー入力ごとの検索そのものを測定します）"},
			"eval.answer.title":         {En: "Question answering on %d queries (%s, provider %s)", Ja: "質問応答の評価: %d クエリ（%s、プロバイダー %s）"},
			"eval.answer.system":        {En: "System", Ja: "方式"},
			"eval.answer.context_at5":   {En: "Context recall@5", Ja: "Context recall@5"},
			"eval.answer.context_at1":   {En: "@1", Ja: "@1"},
			"eval.answer.file_at5":      {En: "File in top 5", Ja: "上位 5 に正解ファイル"},
			"eval.answer.latency":       {En: "p50 / p95 ms", Ja: "p50 / p95 ms"},
			"eval.answer.answers":       {En: "Answers (%s, from %s chunks) containing a gold answer: %.3f (%.3f of those whose chunks hold one)", Ja: "正解文字列を含む回答（%s、%s のチャンクから）: %.3f（チャンクに正解を含むものでは %.3f）"},
			"eval.answer.shape":         {En: "First sentence containing a gold answer: %.3f; answer length median / p90: %d / %d characters; %d of %d answers cite a passage", Ja: "最初の文に正解文字列を含む回答: %.3f、回答の長さ 中央値 / p90: %d / %d 文字、出典を引用した回答 %d / %d 件"},
			"eval.answer.normalization": {En: "Matching: NFKC, white space collapsed, case kept, word-bounded outside CJK", Ja: "照合: NFKC、空白を畳み込み、大文字小文字を区別、CJK 以外は単語境界で照合"},
		}
	})
}
