package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"cmd.federate.usage": {En: "Search Drive, Slack and GitHub at once through their MCP servers", Ja: "Drive・Slack・GitHub を MCP サーバー経由で横断検索します"},
			"cmd.federate.desc": {En: "Turns the question into one query per service (shown), searches the MCP servers of servers.yaml in parallel, reads the top 3 hits of each (9 in all) with the right tool, and streams a summary followed by numbered sources with the services' own links. Without a question on a terminal it keeps a prompt open with the servers running. --mock (or ALLOW_REAL=0) runs the built-in mock servers; a server whose token is missing runs its mock with a warning.",
				Ja: "質問をサービスごとの検索クエリに変換して表示し、servers.yaml の MCP サーバーを並列に検索、各サービス上位 3 件（合計 9 件まで）を適切なツールで読み、要約と各サービスの実リンクによる番号付き根拠を表示します。端末で質問を省くとサーバーを起動したままプロンプトを開きます。--mock（または ALLOW_REAL=0）で内蔵のモックサーバーを使います。トークンが無いサーバーは警告してモックを使います。"},
			"flag.federate.mock":        {En: "use the built-in mock servers for every service (also ALLOW_REAL=0)", Ja: "全サービスで内蔵のモックサーバーを使う（ALLOW_REAL=0 でも同じ）"},
			"flag.federate.json":        {En: "print one JSON document: queries, per-service results, summary, sources, warnings", Ja: "クエリ・サービス別結果・要約・根拠・警告を 1 つの JSON で出力"},
			"flag.federate.config":      {En: "servers.yaml to use (default: servers.yaml in the gds home, or the built-in defaults)", Ja: "使う servers.yaml（既定: gds ホームの servers.yaml、無ければ内蔵の既定値）"},
			"flag.federate.init_config": {En: "write the commented default servers.yaml into the gds home and exit", Ja: "コメント付きの既定の servers.yaml を gds ホームに書いて終了"},
			"flag.federate.force":       {En: "with --init-config, overwrite an existing file", Ja: "--init-config で既存のファイルを上書きする"},
			"flag.federate.debug":       {En: "append a JSON Lines trace of every MCP and LLM exchange (tokens, e-mails and user IDs masked) to federate-trace.jsonl in the gds home", Ja: "MCP と LLM のやり取りをすべて JSON Lines で gds ホームの federate-trace.jsonl に追記（トークン・メールアドレス・ユーザー ID は伏せ字）"},
			"cmd.federate.mock.usage":   {En: "Serve a built-in mock MCP server on stdio (drive, slack, github; crash, ratelimit, hang)", Ja: "内蔵のモック MCP サーバーを stdio で提供（drive、slack、github、crash、ratelimit、hang）"},

			"federate.config_exists":     {En: "%s already exists (add --force to overwrite it)", Ja: "%s は既にあります（上書きするには --force を付けてください）"},
			"federate.config_written":    {En: "wrote %s", Ja: "%s を書きました"},
			"federate.config_unreadable": {En: "cannot read %s: %v", Ja: "%s を読めません: %v"},
			"federate.config_bad":        {En: "%v", Ja: "%v"},
			"federate.no_question":       {En: "give a question, e.g. gds federate \"where is the Project Alpha design doc?\"", Ja: "質問を指定してください（例: gds federate \"Project Alpha の設計ドキュメントはどこ？\"）"},
			"federate.mock_kind":         {En: "give a mock server kind: drive, slack, github, crash, ratelimit or hang", Ja: "モックサーバーの種類を指定してください: drive、slack、github、crash、ratelimit、hang"},
			"federate.prompt":            {En: "federate> ", Ja: "federate> "},
			"federate.trace":             {En: "debug trace: %s", Ja: "デバッグトレース: %s"},
			"federate.searching":         {En: "Searching %s… (%s)", Ja: "%s を検索中…（%s）"},
			"federate.found":             {En: "%s: %d found", Ja: "%s: %d 件"},
			"federate.failed":            {En: "%s: %s", Ja: "%s: %s"},
			"federate.reading":           {En: "Reading %[1]d from %[2]s…", Ja: "%[2]s の %[1]d 件を読み込み中…"},
			"federate.summarizing":       {En: "Summarizing…", Ja: "要約中…"},
			"federate.queries":           {En: "Queries", Ja: "検索クエリ"},
			"federate.sources":           {En: "Sources", Ja: "根拠リンク"},
			"federate.warnings":          {En: "Warnings", Ja: "警告"},
			"federate.no_results":        {En: "Nothing found in any service.", Ja: "どのサービスでも見つかりませんでした。"},
			"federate.suggest":           {En: "%s found nothing; try: %s", Ja: "%s は 0 件でした。次のクエリを試してください: %s"},
			"federate.extractive":        {En: "(offline: an extractive summary — sentences picked from the results, not written by a model)", Ja: "（オフライン: 抽出要約です。モデルが書いた文ではなく、結果から選んだ文です）"},
			"federate.mock_note":         {En: "(mock)", Ja: "（モック）"},
			"federate.by_rules":          {En: "keyword rules", Ja: "キーワード規則"},

			"federate.w.rate_limited":    {En: "rate limited (429): skipped, not retried", Ja: "レート制限（429）: スキップしました（再試行しません）"},
			"federate.w.timeout":         {En: "no answer in time: skipped", Ja: "時間内に応答がありません: スキップしました"},
			"federate.w.unavailable":     {En: "not available: %s", Ja: "利用できません: %s"},
			"federate.w.failed":          {En: "failed: %s", Ja: "失敗しました: %s"},
			"federate.w.no_fetch":        {En: "no fetch tool for %s: snippet only", Ja: "%s の本文を取得するツールがありません: 抜粋のみ"},
			"federate.w.body_failed":     {En: "body not read (%s): snippet used", Ja: "本文を読めませんでした（%s）: 抜粋を使用"},
			"federate.w.body_empty":      {En: "empty body: snippet used", Ja: "本文が空です: 抜粋を使用"},
			"federate.w.not_read":        {En: "not read: %s", Ja: "読み込みませんでした: %s"},
			"federate.w.model_failed":    {En: "query generation by the model failed (%s): keyword queries used", Ja: "モデルによるクエリ生成に失敗しました（%s）: キーワードのクエリを使用"},
			"federate.w.keywords_failed": {En: "keyword analysis failed: %s", Ja: "キーワード解析に失敗しました: %s"},
			"federate.w.mock":            {En: "%s is not set: using the mock server", Ja: "%s が未設定です: モックサーバーを使います"},
		}
	})
}
