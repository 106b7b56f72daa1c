// Package offline is gds's built-in AI provider: it implements ai.Provider
// with rules and statistics instead of a language model, so that gds works
// with no API key and no network.
//
// What it does per task:
//
//   - TaskAnalyzeQuery: a rule-based Japanese and English query analyser
//     (package rules: period.go, filetype.go, segment.go, query.go; its own
//     package so that the launcher's keystroke path links it without kagome
//     and the dictionary). It never loads the
//     morphological dictionary: Japanese compound nouns are kept whole by a
//     script-run segmenter that splits kanji/katakana/Latin runs at hiragana
//     (particles) and punctuation.
//   - TaskSummarize: an extractive summary and keywords (summarize.go). For
//     Japanese documents it uses kagome with the IPA dictionary, loaded once,
//     lazily, on the first Japanese document (about 0.7 s), so it stays off
//     every query path.
//   - Embed: a lexical embedding of hashed word and character n-gram features
//     (embed.go), deterministic across runs and machines.
//   - TaskClarify, TaskRefine, TaskRelax, TaskRerank (loop.go, rerank.go) and
//     the streamed extractive answer of TaskAnswer (answer.go): the sentence
//     of the passages that answers (scored by weighted lexical features,
//     answer-type aware), more only when one adds an answer part, the same
//     sentence of duplicate files said once citing each, and a plain "the
//     passages do not answer" citing nothing when none covers the question.
//   - The GraphRAG tasks (graph.go, entities.go): TaskGraphExtract takes the
//     chunk's Japanese noun compounds (kagome) or English names (capitalised
//     runs split at punctuation, common words and sentence openers left
//     out, aliases merged, typed by rules) as entities, each described by
//     the first sentence that speaks of it, and relates two entities when a
//     sentence joins them, described by that sentence; the gleaning pass
//     adds nothing. TaskGraphReport is an extract of the members'
//     descriptions rated by the community's size, and says so. TaskGraphMap,
//     TaskGraphDrift and TaskGraphAnswer read the caller's passages (the
//     context's texts without IDs, scores or markup), score sentences by
//     their coverage of the question and quote them once, from distinct
//     communities (an overview: distinct documents) first; DRIFT's
//     follow-ups name entities of the sentences that answer.
//   - No tool calls: Provider is not an ai.ToolCaller (callers detect that
//     with a type assertion), and a request that offers tools fails with
//     ai.ErrToolsUnsupported.
//
// Decisions worth knowing:
//
//   - ドキュメント and 文書 are a file-type filter (document) only as a
//     standalone word: inside a compound such as 設計ドキュメント they are part
//     of the keyword, because such names describe content that may live in any
//     format. Strong type words (スライド, プレゼン, スプレッドシート, エクセル,
//     パワポ, PDF) are recognised also at the end of a compound (営業スライド →
//     presentation + 営業).
//   - Generic words (ファイル, 資料, 書類, データ, file, folder, find, show,
//     where ...) are never keywords; 資料 and ファイル are also stripped from
//     the end of a compound (営業資料 → 営業). Keywords rank codes and
//     acronyms (Q3, v2, AWS) first, then capitalised words and katakana
//     names, then kanji compounds, then other words.
//   - Queries are analysed up to 500 characters, documents summarised from
//     their first 30,000 characters.
//   - "最近" / "recent" with no number means the last 30 days. English "from
//     2024" alone means "in 2024"; Japanese "2024年から" means "since 2024".
//   - Weeks start on Monday. Japanese fiscal years run April to March.
//   - A query whose every word is a period or a type yields no keywords; the
//     caller searches by filters alone.
package offline
