package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"config.problem.upload_dir": {En: "is a file, not a folder", Ja: "フォルダではなくファイルです"},
			"config.fix.upload_dir":     {En: "point GDS_UPLOAD_DIR at a folder (it is created when missing), or unset it to use the uploads folder of the gds home", Ja: "GDS_UPLOAD_DIR にフォルダを指定するか（無ければ作成されます）、未設定にして gds ホームの uploads フォルダを使ってください"},

			"cmd.serve.usage":           {En: "Serve the HTTP API (search, chat, documents)", Ja: "HTTP API（検索・質問応答・文書）を提供します"},
			"cmd.serve.desc":            {En: "Serves the HTTP API on the index: POST /api/v1/search, /api/v1/chat, /api/v1/chat/stream (server-sent events), /api/v1/documents (upload, list, detail, delete), GET /health and /openapi.json. Listens on loopback unless --addr says otherwise; any other address needs --token.", Ja: "インデックスに対して HTTP API を提供します: POST /api/v1/search、/api/v1/chat、/api/v1/chat/stream（Server-Sent Events）、/api/v1/documents（アップロード・一覧・詳細・削除）、GET /health と /openapi.json。--addr を指定しない限りループバックで待ち受けます。それ以外のアドレスには --token が必要です。"},
			"flag.serve.addr":           {En: "address to listen on (HOST:PORT)", Ja: "待ち受けるアドレス（HOST:PORT）"},
			"flag.serve.token":          {En: "bearer token required on /api/ (needed for a non-loopback address; also GDS_SERVE_TOKEN)", Ja: "/api/ に必要な Bearer トークン（ループバック以外のアドレスでは必須。GDS_SERVE_TOKEN でも指定可）"},
			"flag.serve.allow_host":     {En: "another host name the server answers to (repeatable, or comma-separated; \"*.NAME\" for every name under NAME); also GDS_SERVE_ALLOW_HOSTS. Requests for any other Host get 421", Ja: "サーバーが応答するホスト名を追加します（複数指定またはカンマ区切り。\"*.NAME\" で NAME 配下のすべての名前）。GDS_SERVE_ALLOW_HOSTS でも指定可。それ以外の Host へのリクエストには 421 を返します"},
			"flag.serve.upload_timeout": {En: "time limit of reading and indexing one upload; over it the upload gets 422 (too complex to read safely)", Ja: "アップロード 1 件の読み取りと索引作成の制限時間。超えると 422（安全に読み取るには複雑すぎる）を返します"},
			"flag.serve.cors":           {En: "one browser origin allowed to call the API (CORS); none by default", Ja: "API の呼び出しを許可するブラウザのオリジン 1 つ（CORS）。既定ではなし"},
			"serve.listening":           {En: "gds serve: listening on http://%s (web UI at /ui/, API reference at /docs, API description at /openapi.json)", Ja: "gds serve: http://%s で待ち受けています（Web UI は /ui/、API リファレンスは /docs、API 仕様は /openapi.json）"},

			"serve.root_message":       {En: "gds document search AI API", Ja: "社内ドキュメント検索AI API"},
			"serve.bad_addr":           {En: "--addr %q is not HOST:PORT", Ja: "--addr %q は HOST:PORT の形式ではありません"},
			"serve.needs_token":        {En: "--addr %s is not a loopback address: set --token or GDS_SERVE_TOKEN so that only clients with the token can use the API", Ja: "--addr %s はループバックアドレスではありません。トークンを持つクライアントだけが API を使えるよう --token または GDS_SERVE_TOKEN を指定してください"},
			"serve.unauthorized":       {En: "missing or wrong bearer token (Authorization: Bearer TOKEN)", Ja: "Bearer トークンがないか、正しくありません（Authorization: Bearer TOKEN）"},
			"serve.too_large":          {En: "the request body is larger than the server accepts", Ja: "リクエスト本文がサーバーの上限を超えています"},
			"serve.internal":           {En: "internal server error (the log of gds serve, its standard error, has the details)", Ja: "サーバー内部エラー（詳細は gds serve のログ＝標準エラー出力にあります）"},
			"serve.foreign_host":       {En: "this server does not answer requests for the host %q: a web page may be trying to reach it by a name of its own (DNS rebinding). If you reach the server by that name, start it with --allow-host NAME (or GDS_SERVE_ALLOW_HOSTS)", Ja: "このサーバーはホスト %q 宛てのリクエストに応答しません。Web ページが独自の名前でこのサーバーに到達しようとしている可能性があります（DNS リバインディング）。その名前でサーバーに接続する場合は --allow-host NAME（または GDS_SERVE_ALLOW_HOSTS）を付けて起動してください"},
			"serve.bad_allow_host":     {En: "--allow-host %q is not a host name: give a name (gds.example), an IP address, or *.NAME, without a scheme or path", Ja: "--allow-host %q はホスト名ではありません。名前（gds.example）、IP アドレス、または *.NAME を、スキームやパスを付けずに指定してください"},
			"serve.token_blank":        {En: "the token (--token or GDS_SERVE_TOKEN) is only white space: use a random token of at least 16 characters, e.g. from `openssl rand -hex 16`", Ja: "トークン（--token または GDS_SERVE_TOKEN）が空白だけです。16 文字以上のランダムなトークンを指定してください（例: `openssl rand -hex 16` の出力）"},
			"serve.token_short":        {En: "the token (--token or GDS_SERVE_TOKEN) has %d characters, fewer than %d: a short token can be guessed; use a random one, e.g. from `openssl rand -hex 16`", Ja: "トークン（--token または GDS_SERVE_TOKEN）が %d 文字で、%d 文字未満です。短いトークンは推測されます。ランダムなトークンを指定してください（例: `openssl rand -hex 16` の出力）"},
			"serve.token_bad":          {En: "the token (--token or GDS_SERVE_TOKEN) has white space at an end or a control character, which no Authorization header can carry: use a random token, e.g. from `openssl rand -hex 16`", Ja: "トークン（--token または GDS_SERVE_TOKEN）の先頭・末尾に空白があるか制御文字を含むため、Authorization ヘッダーで送れません。ランダムなトークンを指定してください（例: `openssl rand -hex 16` の出力）"},
			"serve.bad_upload_timeout": {En: "--upload-timeout must be positive, got %s", Ja: "--upload-timeout には正の値を指定してください（指定値: %s）"},
			"serve.too_complex":        {En: "%s is too complex to read safely: reading it went over the limits on time, memory or text that protect the server", Ja: "%s は安全に読み取るには複雑すぎます。読み取りがサーバーを守るための時間・メモリ・テキスト量の上限を超えました"},
			"serve.too_complex_time":   {En: "%s is too complex to read safely: reading it took longer than the upload time limit of %s (gds serve --upload-timeout)", Ja: "%s は安全に読み取るには複雑すぎます。読み取りがアップロードの制限時間 %s（gds serve --upload-timeout）を超えました"},
			"serve.upload_timeout":     {En: "indexing %s did not finish within the upload time limit of %s (gds serve --upload-timeout): the AI provider or the index was too slow; try again", Ja: "%s の索引作成がアップロードの制限時間 %s（gds serve --upload-timeout）内に終わりませんでした。AI プロバイダーまたはインデックスの応答が遅すぎます。再試行してください"},
			"serve.unsupported":        {En: "unsupported file type: %s", Ja: "サポートされていないファイル形式: %s"},
			"serve.bad_file":           {En: "cannot read %s: %s", Ja: "%s を読み取れません: %s"},
			"serve.no_text":            {En: "%s has no text to index", Ja: "%s には索引できるテキストがありません"},
			"serve.file_too_large":     {En: "%s is larger than the upload limit of %d MB", Ja: "%s はアップロードの上限 %d MB を超えています"},
			"serve.no_file":            {En: "no file in the form field \"file\"", Ja: "フォーム項目 \"file\" にファイルがありません"},
			"serve.not_found":          {En: "document not found", Ja: "ドキュメントが見つかりません"},
			"serve.read_only":          {En: "document %s was indexed from %s and is read-only: only uploaded documents can be deleted", Ja: "ドキュメント %s は %s から索引されたもので読み取り専用です。削除できるのはアップロードした文書だけです"},
			"serve.bad_tag":            {En: "tags must be 1 to 50 characters each, at most 20", Ja: "タグは 1 つ 1〜50 文字、20 個までです"},
		}
	})
}
