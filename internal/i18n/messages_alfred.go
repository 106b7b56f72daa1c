package i18n

// Messages of the --json and Alfred Script Filter front ends of gds search.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			// Alfred: the keystroke path.
			"alfred.empty.title":     {En: "Search Google Drive with gds", Ja: "gds で Google ドライブを検索"},
			"alfred.empty.sub":       {En: "Type a file name, topic or words from the document", Ja: "ファイル名、話題、文書中の語を入力してください"},
			"alfred.run.title":       {En: "Search Drive for “%s”", Ja: "「%s」をドライブで検索"},
			"alfred.run.sub":         {En: "⏎ runs the full hybrid search (may ask a question); the rows below are quick index matches", Ja: "⏎ でハイブリッド検索を実行します（質問することがあります）。下は索引からの即時候補です"},
			"alfred.fast.none.title": {En: "No quick matches in the index", Ja: "索引に即時候補はありません"},
			"alfred.fast.none.sub":   {En: "Choose the first row to run the full search", Ja: "最初の行を選ぶとハイブリッド検索を実行します"},

			// Alfred: ends of the full loop.
			"alfred.not_found.sub":  {En: "Try other words (⏎ puts the query back)", Ja: "別の言葉で試してください（⏎ で検索語に戻ります）"},
			"alfred.loop_cap.title": {En: "Could not narrow to 10 or fewer", Ja: "10 件以下に絞り込めませんでした"},

			// Alfred: a pending clarifying question.
			"alfred.question.fallback":  {En: "Which files do you mean?", Ja: "どのファイルを探していますか？"},
			"alfred.question.sub":       {En: "Many files match: choose an answer below, or type your own", Ja: "該当が多すぎます。下から選ぶか、回答を入力してください"},
			"alfred.question.draft":     {En: "Answer “%s”", Ja: "「%s」と回答"},
			"alfred.question.draft.sub": {En: "⏎ continues the search with this answer", Ja: "⏎ でこの回答で検索を続けます"},
			"alfred.question.free":      {En: "Type your own answer…", Ja: "自由に回答を入力…"},
			"alfred.question.free.sub":  {En: "Type after the ] and choose “Answer”", Ja: "] の後に入力して「回答」を選んでください"},
			"alfred.question.skip":      {En: "Skip the question", Ja: "質問をスキップ"},
			"alfred.question.skip.sub":  {En: "Continue with the 100 best keyword matches", Ja: "キーワード一致の上位 100 件で続けます"},
			"alfred.choice.keyword":     {En: "adds “%s”", Ja: "「%s」を追加"},
			"alfred.choice.filters":     {En: "filter: %s", Ja: "絞り込み: %s"},
			"alfred.choice.label":       {En: "adds this answer", Ja: "この回答を追加"},

			// Alfred: modifier keys of a result.
			"alfred.mod.copy":     {En: "Copy the link", Ja: "リンクをコピー"},
			"alfred.mod.summary":  {En: "Show the summary in large type", Ja: "要約を大きく表示"},
			"alfred.mod.reveal":   {En: "Reveal the local copy: %s", Ja: "ローカルのファイルを表示: %s"},
			"alfred.mod.no_local": {En: "No local copy (not in a local folder or a Google Drive for desktop folder)", Ja: "ローカルのコピーはありません（ローカルフォルダにも Google ドライブ パソコン版のフォルダにもありません）"},

			// Alfred: errors as items.
			"alfred.err.no_index.title":  {En: "No index yet", Ja: "まだ索引がありません"},
			"alfred.updating.title":      {En: "Updating the index for this version of gds…", Ja: "このバージョンの gds に合わせて索引を更新しています…"},
			"alfred.updating.sub":        {En: "Once after an upgrade (about a minute per 50,000 files); type on to see results when it is done", Ja: "アップグレード後に 1 回だけです（5 万件あたり約 1 分）。終わったら入力を続けると結果が表示されます"},
			"alfred.err.no_index.sub":    {En: "Run `gds crawl` in a terminal (or `gds crawl --source local:PATH`)", Ja: "ターミナルで `gds crawl`（または `gds crawl --source local:PATH`）を実行してください"},
			"alfred.err.auth.title":      {En: "Not signed in to Google", Ja: "Google にログインしていません"},
			"alfred.err.auth.sub":        {En: "Run `gds auth login` in a terminal", Ja: "ターミナルで `gds auth login` を実行してください"},
			"alfred.err.config.title":    {En: "gds configuration error", Ja: "gds の設定エラー"},
			"alfred.err.title":           {En: "gds could not search", Ja: "gds で検索できませんでした"},
			"alfred.err.bad_token.title": {En: "This question has expired", Ja: "この質問は無効になりました"},
			"alfred.err.bad_token.sub":   {En: "Type the query again (it was made by another gds version or was edited)", Ja: "検索語をもう一度入力してください（別のバージョンの gds で作られたか、編集されています）"},
			"alfred.keyserver.postgres":  {En: "the keystroke server serves a SQLite index; with Postgres every keystroke runs in the full CLI", Ja: "キー入力サーバーは SQLite の索引にだけ使えます。Postgres ではキー入力ごとに gds 本体が検索します"},
			"alfred.err.malformed.sub":   {En: "Type a query after ⌕, or clear the box", Ja: "⌕ の後に検索語を入力するか、入力欄を消してください"},

			// --json and --state.
			"searchjson.bad_state":       {En: "this search token is damaged or from another version of gds; run the search again without --state", Ja: "この検索トークンは壊れているか、別のバージョンの gds のものです。--state を付けずに検索し直してください"},
			"searchjson.state_version":   {En: "this search token is from another version of gds; run the search again without --state", Ja: "この検索トークンは別のバージョンの gds のものです。--state を付けずに検索し直してください"},
			"searchjson.not_waiting":     {En: "the --state token belongs to a search that is not waiting for an answer", Ja: "--state のトークンは回答待ちの検索のものではありません"},
			"search.folder_and_state":    {En: "give --folder with a new search only (the --state token already holds its folder)", Ja: "--folder は新しい検索にだけ指定してください（--state のトークンにフォルダが含まれています）"},
			"searchjson.state_and_query": {En: "give either a query or --state, not both (the token already holds the query)", Ja: "検索語か --state のどちらか一方を指定してください（トークンに検索語が含まれています）"},
			"searchjson.answer_no_state": {En: "--answer needs the --state token printed with the question", Ja: "--answer には質問と一緒に出力された --state のトークンが必要です"},
		}
	})
}
