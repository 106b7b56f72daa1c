package i18n

// Messages of the HTTP API and web UI that say in HTTP terms what the CLI
// says with commands and flags.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"serve.source.upload":        {En: "Uploaded", Ja: "アップロード"},
			"serve.source.drive":         {En: "Google Drive", Ja: "Google ドライブ"},
			"serve.source.local":         {En: "Local folder %s", Ja: "ローカルフォルダ %s"},
			"serve.source.local_unknown": {En: "Local folder", Ja: "ローカルフォルダ"},
			"serve.http_empty_index": {
				En: "nothing is indexed yet: upload a document (POST /api/v1/documents/upload, or Upload in the web UI) and ask again",
				Ja: "まだ何も索引されていません。文書をアップロードしてから（POST /api/v1/documents/upload、または Web UI の「アップロード」）もう一度お試しください",
			},
			"serve.no_context": {
				En: "No passage in your documents matches this question well enough, so there is no answer (lower score_threshold or rephrase).",
				Ja: "この質問に十分合う箇所が文書に見つからなかったため、回答できません（score_threshold を下げるか、言い換えてください）。",
			},
			"serve.agent_no_folder": {
				En: "the agent investigates one folder: set folder to one of the indexed folders (GET /api/v1/folders lists them), e.g. %s",
				Ja: "エージェントは 1 つのフォルダを調査します。folder に索引済みのフォルダを指定してください（一覧は GET /api/v1/folders）。例: %s",
			},
			"serve.bad_json": {
				En: "the request body is not valid JSON at line %d, column %d (byte %d): %s",
				Ja: "リクエスト本文が正しい JSON ではありません（%d 行 %d 列、%d バイト目）: %s",
			},
			"serve.bad_json.char": {En: "unexpected %q (strings need double quotes; no trailing commas)", Ja: "予期しない文字 %q があります（文字列は二重引用符で囲み、末尾にカンマを付けません）"},
			"serve.bad_tags_json": {En: "tags: a field that starts with [ must be a JSON array of strings, such as [\"a\",\"b\"]", Ja: "tags: [ で始まる値は [\"a\",\"b\"] のような文字列の JSON 配列にしてください"},
			"serve.bad_json.eof":  {En: "the body ends inside the JSON value", Ja: "JSON の値の途中で本文が終わっています"},
		}
	})
}
