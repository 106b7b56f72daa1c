package i18n

// Messages of the interactive time budget and degraded search (package
// budget).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"budget.notice.drive.timeout":      {En: "Drive did not answer within %s; searched the local index", Ja: "Drive が %s 以内に応答しなかったため、ローカルインデックスを検索しました"},
			"budget.notice.drive.unreachable":  {En: "Drive could not be reached (offline?); searched the local index%.0s", Ja: "Drive に接続できません（オフライン？）。ローカルインデックスを検索しました%.0s"},
			"budget.notice.drive.rate_limited": {En: "Drive is limiting requests (rate limit); searched the local index%.0s", Ja: "Drive がリクエストを制限しています（レート制限）。ローカルインデックスを検索しました%.0s"},
			"budget.notice.drive.unavailable":  {En: "Drive is not answering properly (server errors); searched the local index%.0s", Ja: "Drive が正常に応答しません（サーバーエラー）。ローカルインデックスを検索しました%.0s"},
			"budget.notice.drive.auth":         {En: "Drive needs a new sign-in (run gds auth login); searched the local index%.0s", Ja: "Drive への再ログインが必要です（gds auth login）。ローカルインデックスを検索しました%.0s"},
			"budget.notice.drive.budget":       {En: "no time left in the search budget for Drive; searched the local index%.0s", Ja: "検索の制限時間内に Drive を使えないため、ローカルインデックスを検索しました%.0s"},
			"budget.notice.drive.error":        {En: "Drive search failed; searched the local index%.0s", Ja: "Drive の検索に失敗したため、ローカルインデックスを検索しました%.0s"},

			"budget.notice.ai.timeout":      {En: "the AI provider did not answer within %s; the offline provider did the %s step (without network, set GDS_AI_PROVIDER=offline)", Ja: "AI プロバイダが %s 以内に応答しなかったため、%s の手順はオフラインプロバイダで行いました（ネットワークなしで使うには GDS_AI_PROVIDER=offline）"},
			"budget.notice.ai.unreachable":  {En: "the AI provider could not be reached%.0s; the offline provider did the %s step (without network, set GDS_AI_PROVIDER=offline)", Ja: "AI プロバイダに接続できません%.0s。%s の手順はオフラインプロバイダで行いました（ネットワークなしで使うには GDS_AI_PROVIDER=offline）"},
			"budget.notice.ai.rate_limited": {En: "the AI provider is limiting requests%.0s; the offline provider did the %s step", Ja: "AI プロバイダがリクエストを制限しています%.0s。%s の手順はオフラインプロバイダで行いました"},
			"budget.notice.ai.unavailable":  {En: "the AI provider is not answering properly%.0s; the offline provider did the %s step", Ja: "AI プロバイダが正常に応答しません%.0s。%s の手順はオフラインプロバイダで行いました"},
			"budget.notice.ai.auth":         {En: "the AI provider refused the API key%.0s; the offline provider did the %s step", Ja: "AI プロバイダが API キーを拒否しました%.0s。%s の手順はオフラインプロバイダで行いました"},
			"budget.notice.ai.budget":       {En: "no time left in the search budget for the AI provider%.0s; the offline provider did the %s step", Ja: "検索の制限時間内に AI プロバイダを使えないため%.0s、%s の手順はオフラインプロバイダで行いました"},
			"budget.notice.ai.error":        {En: "the AI provider gave no usable answer%.0s; the offline provider did the %s step", Ja: "AI プロバイダから使える応答がなかったため%.0s、%s の手順はオフラインプロバイダで行いました"},

			"budget.notice.ai_embed": {En: "the AI provider did not embed the query (%s); results were ranked without embeddings", Ja: "AI プロバイダでクエリを埋め込めなかったため（%s）、埋め込みなしで順位付けしました"},

			"budget.fail.database.timeout":     {En: "the database at %s did not answer within %s (it accepts connections but sends nothing): check that the Postgres server is healthy, or raise GDS_SEARCH_DB_TIMEOUT", Ja: "データベース %s が %s 以内に応答しません（接続は受け付けますが応答がありません）。Postgres サーバーの状態を確認するか、GDS_SEARCH_DB_TIMEOUT を延ばしてください"},
			"budget.fail.database.unreachable": {En: "cannot connect to the database at %s%.0s: start the Postgres server, or fix DATABASE_URL", Ja: "データベース %s に接続できません%.0s。Postgres サーバーを起動するか、DATABASE_URL を直してください"},
			"budget.fail.database.unavailable": {En: "the database at %s failed%.0s: check the Postgres server and DATABASE_URL", Ja: "データベース %s でエラーが起きました%.0s。Postgres サーバーと DATABASE_URL を確認してください"},
			"budget.fail.budget":               {En: "the search did not finish within its %s budget (at the %s step): raise --timeout or GDS_SEARCH_TIMEOUT, or search the local index with --local", Ja: "検索が制限時間 %s 以内に終わりませんでした（%s の手順）。--timeout か GDS_SEARCH_TIMEOUT を延ばすか、--local でローカルインデックスを検索してください"},

			"budget.notice_prefix":   {En: "note: ", Ja: "注意: "},
			"alfred.run.title.local": {En: "Search for “%s”", Ja: "「%s」を検索"},
			"alfred.degraded.title":  {En: "Answered with a fallback", Ja: "代替手段で回答しました"},

			"flag.search.local":         {En: "search the local index only; never ask Google Drive (also GDS_SEARCH_LOCAL=1)", Ja: "ローカルインデックスだけを検索し、Google Drive には問い合わせません（GDS_SEARCH_LOCAL=1 でも可）"},
			"flag.search.timeout":       {En: "time budget of the whole search, e.g. 5s (also GDS_SEARCH_TIMEOUT)", Ja: "検索全体の制限時間（例: 5s。GDS_SEARCH_TIMEOUT でも可）"},
			"flag.search.drive_timeout": {En: "time limit of one Drive keyword search before the local index answers instead (also GDS_SEARCH_DRIVE_TIMEOUT)", Ja: "Drive のキーワード検索 1 回の制限時間。超えるとローカルインデックスで検索します（GDS_SEARCH_DRIVE_TIMEOUT でも可）"},
			"flag.search.ai_timeout":    {En: "time limit of one AI call before the offline provider answers instead (also GDS_SEARCH_AI_TIMEOUT)", Ja: "AI 呼び出し 1 回の制限時間。超えるとオフラインプロバイダで処理します（GDS_SEARCH_AI_TIMEOUT でも可）"},
			"flag.search.db_timeout":    {En: "time limit of connecting to the database and of one query (also GDS_SEARCH_DB_TIMEOUT)", Ja: "データベースへの接続とクエリ 1 回の制限時間（GDS_SEARCH_DB_TIMEOUT でも可）"},
		}
	})
}
