package i18n

// Help texts and outputs of the commands in cmd/gds. Keys: "cmd.<path>.usage"
// is the one-line summary, "cmd.<path>.desc" the description (with
// examples), "flag.<name>" a flag's usage.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"cmd.root.usage": {En: "find files in Google Drive with hybrid keyword/vector/LLM search", Ja: "キーワード・ベクトル・LLM のハイブリッド検索で Google Drive のファイルを探します"},
			"cmd.root.desc": {
				En: "gds indexes a Google Drive (or a local folder) and finds the file you mean.\n" +
					"It works without any account or key on a local folder with the built-in offline provider.\n\n" +
					"Configuration comes from environment variables, ./.env and the .env in the gds home\n" +
					"(see `gds config path`); `gds config show` prints the effective values.\n\n" +
					"Examples:\n" +
					"  gds init                                  # first run: choose what to index\n" +
					"  gds crawl\n" +
					"  gds search \"先月の議事録PDF\"\n" +
					"  gds search --json \"Q3 roadmap slides from 2024\"",
				Ja: "gds は Google Drive（またはローカルフォルダ）をインデックスし、目的のファイルを探します。\n" +
					"アカウントや API キーがなくても、内蔵のオフラインプロバイダーでローカルフォルダを検索できます。\n\n" +
					"設定は環境変数、./.env、gds ホームの .env から読み込みます（場所は `gds config path`）。\n" +
					"実際に使われる値は `gds config show` で確認できます。\n\n" +
					"例:\n" +
					"  gds init                                  # 初回: インデックスするものを選びます\n" +
					"  gds crawl\n" +
					"  gds search \"先月の議事録PDF\"\n" +
					"  gds search --json \"Q3 roadmap slides from 2024\"",
			},

			"cmd.search.usage": {En: "search the index with the hybrid search loop", Ja: "ハイブリッド検索ループでインデックスを検索します"},
			"cmd.search.desc": {
				En: "Analyses the query (period, file type, 1–5 keywords), runs a keyword search, and\n" +
					"narrows the hits: a clarifying question above 100 hits, vector search for 11–100,\n" +
					"an LLM rerank for 2–10. Without QUERY it asks for one on a terminal.\n\n" +
					"It says what it could not match: a word no indexed file contains is named\n" +
					"(--json: unmatched); a word one letter away from a term of the index is searched\n" +
					"as that term, with the way back (\"Showing results for\"; --json: corrected;\n" +
					"a word in double quotes is never corrected); each result lists the query's words\n" +
					"it lacks (\"Missing:\"; --json: results[].missing), and a weak match is said so.\n\n" +
					"Examples:\n" +
					"  gds search \"先月の議事録PDF\"\n" +
					"  gds search --json \"budget 2024 spreadsheet\"\n" +
					"  gds search --folder Team/Specs \"login flow\"   # only that folder and its subfolders\n" +
					"  gds search --json --state TOKEN --answer \"the marketing one\"   # answer a pending question",
				Ja: "クエリを解析し（期間・ファイル種別・キーワード 1〜5 件）、キーワード検索のヒット件数に応じて\n" +
					"絞り込みます: 101 件以上は追加の質問、11〜100 件はベクトル検索、2〜10 件は LLM による並べ替え。\n" +
					"QUERY を省略すると端末で入力を求めます。\n\n" +
					"合わなかったものを伝えます: どのファイルにもない語は名前を挙げ（--json: unmatched）、\n" +
					"インデックスの語と 1 文字違いの語はその語で検索して元に戻す方法を示します（--json: corrected。\n" +
					"二重引用符で囲んだ語は直しません）。各結果には含まない質問の語を示し（「含まない語:」、\n" +
					"--json: results[].missing）、一致が弱いときはそう伝えます。\n\n" +
					"例:\n" +
					"  gds search \"先月の議事録PDF\"\n" +
					"  gds search --json \"budget 2024 spreadsheet\"\n" +
					"  gds search --folder Team/Specs \"ログイン画面\"   # そのフォルダとサブフォルダだけ\n" +
					"  gds search --json --state TOKEN --answer \"マーケティングの方\"   # 保留中の質問に回答",
			},
			"flag.search.json":    {En: "print one machine-readable JSON result (including a pending question, if any)", Ja: "機械可読な JSON で結果を 1 つ出力します（保留中の質問を含む）"},
			"flag.search.alfred":  {En: "print Alfred Script Filter JSON", Ja: "Alfred の Script Filter JSON を出力します"},
			"flag.search.verbose": {En: "show each step of the search loop", Ja: "検索ループの各ステップを表示します"},
			"flag.search.answer":  {En: "answer to the pending clarifying question (with --state)", Ja: "保留中の追加質問への回答（--state と併用）"},
			"flag.search.state":   {En: "state token of a previous --json/--alfred run that asked a question", Ja: "質問を返した前回の --json/--alfred 実行の状態トークン"},
			"flag.search.limit":   {En: "maximum number of results to show", Ja: "表示する結果の最大件数"},
			"flag.search.folder":  {En: "search only this folder and its subfolders (a path as shown in results, e.g. Team/Specs)", Ja: "このフォルダとサブフォルダだけを検索します（結果に表示されるパス。例: Team/Specs）"},

			"cmd.crawl.usage": {En: "index the configured sources (incremental after the first run)", Ja: "設定したソースをインデックスします（2 回目以降は差分）"},
			"cmd.crawl.desc": {
				En: "Walks each source, extracts text, asks the AI provider for a summary and keywords,\n" +
					"embeds them and stores everything in the index. Later runs read only what changed:\n" +
					"new, modified, moved, renamed and deleted files (Google Drive's changes feed, or a\n" +
					"local folder's listing compared with the index). Changing a source's settings makes\n" +
					"its next crawl a full scan; --full reads every file again. Without a source yet,\n" +
					"run gds init first.\n\n" +
					"Examples:\n" +
					"  gds crawl                                # every configured source (GDS_SOURCES; gds init writes it)\n" +
					"  gds crawl --source local:~/Docs --source drive:FOLDER_ID  # only these sources\n" +
					"  gds crawl --source local:testdata/sample\n" +
					"  gds crawl --full --concurrency 8\n" +
					"  gds crawl --dry-run",
				Ja: "各ソースを巡回してテキストを抽出し、AI プロバイダーで要約とキーワードを作り、\n" +
					"ベクトル化してインデックスに保存します。2 回目以降は変更分（追加・更新・移動・名前変更・\n" +
					"削除）だけを読みます（Google ドライブは変更フィード、ローカルフォルダは一覧とインデックスの比較）。\n" +
					"ソースの設定を変えると次回はそのソースをフルスキャンします。--full はすべてのファイルを読み直します。\n" +
					"ソースが未設定なら、先に gds init を実行してください。\n\n" +
					"例:\n" +
					"  gds crawl                                # 設定したすべてのソース（GDS_SOURCES。gds init が書き込みます）\n" +
					"  gds crawl --source local:~/Docs --source drive:FOLDER_ID  # このソースだけ\n" +
					"  gds crawl --source local:testdata/sample\n" +
					"  gds crawl --full --concurrency 8\n" +
					"  gds crawl --dry-run",
			},
			"flag.crawl.source":      {En: "crawl only these sources (repeatable, or comma-separated): drive, drive:FOLDER_ID, drive@ACCOUNT[:FOLDER_ID], local:PATH (default: every source of GDS_SOURCES); other sources' files are kept", Ja: "このソースだけをクロールします（複数指定またはカンマ区切り）: drive、drive:FOLDER_ID、drive@ACCOUNT[:FOLDER_ID]、local:PATH（既定: GDS_SOURCES のすべてのソース）。ほかのソースのファイルは残ります"},
			"flag.crawl.full":        {En: "read every file again and remove files no longer in the crawled folders (needed after changing the embedding model, which also rebuilds the index); files indexed under older chunking rules are indexed again", Ja: "すべてのファイルを確認し直し、対象フォルダに無いファイルを削除します（埋め込みモデル変更後に必要。その場合はインデックスを作り直します）。古いチャンク分割規則で索引されたファイルは索引し直します"},
			"flag.crawl.dry_run":     {En: "list what would be indexed without calling the AI provider or writing", Ja: "AI プロバイダーの呼び出しや書き込みをせず、インデックス予定を一覧表示します"},
			"flag.max_rpm":           {En: "model requests per minute to stay under, below the account's limit (default: GDS_AI_MAX_RPM, else the limit OpenAI reports)", Ja: "超えないようにする毎分のモデルリクエスト数。アカウントの上限より低く抑えるとき（既定: GDS_AI_MAX_RPM、なければ OpenAI が返す上限）"},
			"flag.crawl.concurrency": {En: "files processed in parallel (default: GDS_CRAWL_CONCURRENCY)", Ja: "並列に処理するファイル数（既定: GDS_CRAWL_CONCURRENCY）"},

			"flag.json": {En: "print JSON", Ja: "JSON で出力します"},

			"cmd.schedule.usage":           {En: "run the incremental crawl periodically (launchd on macOS, systemd or cron on Linux)", Ja: "差分クロールを定期実行します（macOS は launchd、Linux は systemd または cron）"},
			"cmd.schedule.desc":            {En: "Examples:\n  gds schedule install --interval 1h\n  gds schedule status\n  gds schedule run-now\n  gds schedule uninstall", Ja: "例:\n  gds schedule install --interval 1h\n  gds schedule status\n  gds schedule run-now\n  gds schedule uninstall"},
			"cmd.schedule.install.usage":   {En: "install and load the launchd agent", Ja: "launchd エージェントをインストールして読み込みます"},
			"cmd.schedule.uninstall.usage": {En: "unload and remove the launchd agent", Ja: "launchd エージェントを停止して削除します"},
			"cmd.schedule.status.usage":    {En: "show whether the agent is loaded and the last run", Ja: "エージェントの読み込み状態と前回の実行を表示します"},
			"cmd.schedule.run_now.usage":   {En: "start the scheduled crawl now", Ja: "スケジュールされたクロールを今すぐ開始します"},
			"flag.schedule.interval":       {En: "time between crawls", Ja: "クロールの間隔"},

			"cmd.alfred.usage":           {En: "Alfred workflow: Script Filter output and workflow export", Ja: "Alfred ワークフロー: Script Filter 出力とワークフローの書き出し"},
			"cmd.alfred.desc":            {En: "Examples:\n  gds alfred filter \"議事録\"      # what the workflow's Script Filter runs\n  gds alfred workflow --output gds.alfredworkflow", Ja: "例:\n  gds alfred filter \"議事録\"      # ワークフローの Script Filter が実行するコマンド\n  gds alfred workflow --output gds.alfredworkflow"},
			"cmd.alfred.filter.usage":    {En: "run the search loop and print Alfred Script Filter JSON", Ja: "検索ループを実行し Alfred の Script Filter JSON を出力します"},
			"cmd.alfred.keyserver.usage": {En: "keep the index open for Alfred's keystrokes (started by gds itself; exits when idle)", Ja: "Alfred のキー入力のために索引を開いたままにします（gds が自動で起動し、使われなければ終了します）"},
			"cmd.alfred.workflow.usage":  {En: "write the Alfred workflow file to import", Ja: "インポート用の Alfred ワークフローファイルを書き出します"},
			"flag.alfred.output":         {En: "path of the .alfredworkflow file to write", Ja: "書き出す .alfredworkflow ファイルのパス"},

			"cmd.config.usage":      {En: "show the effective configuration and where it lives", Ja: "実際に使われる設定とその場所を表示します"},
			"cmd.config.desc":       {En: "Examples:\n  gds config show\n  gds config show --json\n  gds config path", Ja: "例:\n  gds config show\n  gds config show --json\n  gds config path"},
			"cmd.config.show.usage": {En: "print every setting with its source (secrets masked)", Ja: "すべての設定値と出どころを表示します（秘密情報はマスク）"},
			"cmd.config.path.usage": {En: "print the gds home, .env, data directory and index paths", Ja: "gds ホーム、.env、データディレクトリ、インデックスのパスを表示します"},

			"cmd.db.usage":         {En: "manage the index database (embedded SQLite or Postgres)", Ja: "インデックスのデータベース（内蔵 SQLite または Postgres）を管理します"},
			"cmd.db.desc":          {En: "The index is Postgres when DATABASE_URL or SUPABASE_DB_URL is set, else the embedded\nSQLite file in the gds home. Migrations also run automatically on first use.\n\nExamples:\n  gds db migrate\n  gds db status --json", Ja: "DATABASE_URL または SUPABASE_DB_URL が設定されていれば Postgres、なければ gds ホームの\n内蔵 SQLite ファイルを使います。マイグレーションは初回利用時にも自動で実行されます。\n\n例:\n  gds db migrate\n  gds db status --json"},
			"cmd.db.migrate.usage": {En: "apply pending schema migrations and print the schema version", Ja: "未適用のスキーママイグレーションを適用し、スキーマバージョンを表示します"},
			"cmd.db.status.usage":  {En: "print index statistics: backend, schema, files, chunks, embedding model, last sync", Ja: "インデックスの統計（バックエンド、スキーマ、ファイル数、チャンク数、埋め込みモデル、最終同期）を表示します"},

			"cmd.doctor.usage":    {En: "check the setup: config, index, AI provider, Drive access, schedule", Ja: "設定、インデックス、AI プロバイダー、Drive へのアクセス、スケジュールを点検します"},
			"cmd.doctor.desc":     {En: "Examples:\n  gds doctor\n  gds doctor --offline", Ja: "例:\n  gds doctor\n  gds doctor --offline"},
			"flag.doctor.offline": {En: "skip checks that need the network", Ja: "ネットワークが必要な点検を省略します"},

			"cmd.version.usage": {En: "print the version, commit and build date", Ja: "バージョン、コミット、ビルド日時を表示します"},

			"out.config.home":       {En: "Home", Ja: "ホーム"},
			"out.config.env_files":  {En: ".env files read", Ja: "読み込んだ .env"},
			"out.config.env_unread": {En: ".env files not read (their problems are listed below)", Ja: "読み込めなかった .env（問題は下に表示します）"},
			"out.config.none":       {En: "(none)", Ja: "（なし）"},
			"out.config.header":     {En: "NAME\tVALUE\tSOURCE", Ja: "名前\t値\t出どころ"},
			"out.config.unset":      {En: "(unset)", Ja: "（未設定）"},
			"out.path.home":         {En: "home", Ja: "ホーム"},
			"out.path.env":          {En: "config (.env)", Ja: "設定 (.env)"},
			"out.path.data":         {En: "data", Ja: "データ"},
			"out.path.index":        {En: "index", Ja: "インデックス"},
			"out.db.migrated":       {En: "Index ready: %s at %s, schema version %d", Ja: "インデックス準備完了: %s（%s）、スキーマバージョン %d"},
			"out.db.backend":        {En: "backend", Ja: "バックエンド"},
			"out.db.location":       {En: "location", Ja: "場所"},
			"out.db.schema":         {En: "schema version", Ja: "スキーマバージョン"},
			"out.db.files":          {En: "files", Ja: "ファイル数"},
			"out.db.chunks":         {En: "chunks", Ja: "チャンク数"},
			"out.db.embedding":      {En: "embedding", Ja: "埋め込み"},
			"out.db.last_sync":      {En: "last sync", Ja: "最終同期"},
			"out.db.never":          {En: "never", Ja: "未実行"},
			"out.db.no_embedding":   {En: "none yet", Ja: "まだありません"},
			"err.extra_args":        {En: "%s takes no arguments, got %q", Ja: "%s は引数を取りません（%q が渡されました）"},
			"err.usage":             {En: "%s", Ja: "%s"},
			"err.unknown_command":   {En: "unknown command %q", Ja: "不明なコマンド %q"},
		}
	})
}
