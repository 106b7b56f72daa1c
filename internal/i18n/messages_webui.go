package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"serve.cross_origin":  {En: "cross-origin request refused: the API accepts POST and DELETE only from its own pages, plain clients such as curl, and the --cors-origin origin", Ja: "クロスオリジンのリクエストを拒否しました。API が POST と DELETE を受け付けるのは、自身のページ、curl などのクライアント、--cors-origin で許可したオリジンからだけです"},
			"serve.landing_title": {En: "gds: document search and question answering", Ja: "gds: ドキュメント検索と質問応答"},
			"serve.landing_ui":    {En: "Web UI: upload, documents, search, chat", Ja: "Web UI: アップロード・文書・検索・チャット"},
			"serve.landing_docs":  {En: "API reference (Swagger UI)", Ja: "API リファレンス（Swagger UI）"},
			"serve.landing_redoc": {En: "API reference (ReDoc)", Ja: "API リファレンス（ReDoc）"},
			"serve.landing_spec":  {En: "OpenAPI 3.1 document", Ja: "OpenAPI 3.1 ドキュメント"},
		}
	})
}
