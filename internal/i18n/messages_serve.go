package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"config.problem.upload_dir": {En: "is a file, not a folder", Ja: "フォルダではなくファイルです"},
			"config.fix.upload_dir":     {En: "point GDS_UPLOAD_DIR at a folder (it is created when missing), or unset it to use the uploads folder of the gds home", Ja: "GDS_UPLOAD_DIR にフォルダを指定するか（無ければ作成されます）、未設定にして gds ホームの uploads フォルダを使ってください"},

			"cmd.serve.usage":  {En: "Serve the HTTP API (search, chat, documents)", Ja: "HTTP API（検索・質問応答・文書）を提供します"},
			"cmd.serve.desc":   {En: "Serves the HTTP API on the index: POST /api/v1/search, /api/v1/chat, /api/v1/chat/stream (server-sent events), /api/v1/documents (upload, list, detail, delete), GET /health and /openapi.json. Listens on loopback unless --addr says otherwise; any other address needs --token.", Ja: "インデックスに対して HTTP API を提供します: POST /api/v1/search、/api/v1/chat、/api/v1/chat/stream（Server-Sent Events）、/api/v1/documents（アップロード・一覧・詳細・削除）、GET /health と /openapi.json。--addr を指定しない限りループバックで待ち受けます。それ以外のアドレスには --token が必要です。"},
			"flag.serve.addr":  {En: "address to listen on (HOST:PORT)", Ja: "待ち受けるアドレス（HOST:PORT）"},
			"flag.serve.token": {En: "bearer token required on /api/ (needed for a non-loopback address; also GDS_SERVE_TOKEN)", Ja: "/api/ に必要な Bearer トークン（ループバック以外のアドレスでは必須。GDS_SERVE_TOKEN でも指定可）"},
			"flag.serve.cors":  {En: "one browser origin allowed to call the API (CORS); none by default", Ja: "API の呼び出しを許可するブラウザのオリジン 1 つ（CORS）。既定ではなし"},
			"serve.listening":  {En: "gds serve: listening on http://%s (web UI at /ui/, API reference at /docs, API description at /openapi.json)", Ja: "gds serve: http://%s で待ち受けています（Web UI は /ui/、API リファレンスは /docs、API 仕様は /openapi.json）"},

			"serve.root_message":   {En: "gds document search AI API", Ja: "社内ドキュメント検索AI API"},
			"serve.bad_addr":       {En: "--addr %q is not HOST:PORT", Ja: "--addr %q は HOST:PORT の形式ではありません"},
			"serve.needs_token":    {En: "--addr %s is not a loopback address: set --token or GDS_SERVE_TOKEN so that only clients with the token can use the API", Ja: "--addr %s はループバックアドレスではありません。トークンを持つクライアントだけが API を使えるよう --token または GDS_SERVE_TOKEN を指定してください"},
			"serve.unauthorized":   {En: "missing or wrong bearer token (Authorization: Bearer TOKEN)", Ja: "Bearer トークンがないか、正しくありません（Authorization: Bearer TOKEN）"},
			"serve.too_large":      {En: "the request body is larger than the server accepts", Ja: "リクエスト本文がサーバーの上限を超えています"},
			"serve.internal":       {En: "internal server error", Ja: "サーバー内部エラー"},
			"serve.unsupported":    {En: "unsupported file type: %s", Ja: "サポートされていないファイル形式: %s"},
			"serve.bad_file":       {En: "cannot read %s: %s", Ja: "%s を読み取れません: %s"},
			"serve.no_text":        {En: "%s has no text to index", Ja: "%s には索引できるテキストがありません"},
			"serve.file_too_large": {En: "%s is larger than the upload limit of %d MB", Ja: "%s はアップロードの上限 %d MB を超えています"},
			"serve.no_file":        {En: "no file in the form field \"file\"", Ja: "フォーム項目 \"file\" にファイルがありません"},
			"serve.not_found":      {En: "document not found", Ja: "ドキュメントが見つかりません"},
			"serve.read_only":      {En: "document %s was indexed from %s and is read-only: only uploaded documents can be deleted", Ja: "ドキュメント %s は %s から索引されたもので読み取り専用です。削除できるのはアップロードした文書だけです"},
			"serve.bad_tag":        {En: "tags must be 1 to 50 characters each, at most 20", Ja: "タグは 1 つ 1〜50 文字、20 個までです"},
		}
	})
}
