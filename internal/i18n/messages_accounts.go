package i18n

// Messages of several Google accounts: `gds auth login --account NAME`,
// the "drive@NAME" sources, and an account whose sign-in fails.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"account.bad_name": {
				En: "account name %q: use 1 to %d lowercase letters, digits, \"-\" or \"_\", starting with a letter or digit (for example work or personal)",
				Ja: "アカウント名 %q は使えません。英小文字・数字・\"-\"・\"_\" を 1〜%d 文字で、先頭は英小文字か数字にしてください（例: work、personal）",
			},
			"auth.err.not_logged_in_account": {En: "Google account %[1]s is not signed in: run `gds auth login --account %[1]s`", Ja: "Google アカウント %[1]s はサインインしていません。`gds auth login --account %[1]s` を実行してください"},
			"auth.err.reauth_account":        {En: "the sign-in of Google account %[1]s has expired or was revoked: run `gds auth login --account %[1]s` again", Ja: "Google アカウント %[1]s のサインインが期限切れか無効化されています。`gds auth login --account %[1]s` をもう一度実行してください"},
			"auth.err.reauth_testing_account": {
				En: "Google no longer accepts the sign-in of account %[1]s made %[2]d days ago (invalid_grant). OAuth apps whose publishing status is \"Testing\" get refresh tokens that expire after 7 days: publish the app (Google Auth Platform → Audience → \"Publish app\", or Internal on Google Workspace), then run `gds auth login --account %[1]s` again. (A revoked access or a changed password also gives this error; the same command fixes those too.)",
				Ja: "アカウント %[1]s の %[2]d 日前のサインインを Google が受け付けなくなりました（invalid_grant）。公開ステータスが「テスト中（Testing）」の OAuth アプリのリフレッシュトークンは 7 日で失効します。アプリを公開（Google Auth Platform → 対象 →「アプリを公開」、Google Workspace なら「内部」）してから `gds auth login --account %[1]s` をもう一度実行してください（アクセスの取り消しやパスワード変更でも同じエラーになりますが、同じコマンドで直ります）",
			},
			"auth.err.account":                 {En: "Google account %s: %s", Ja: "Google アカウント %s: %s"},
			"auth.hint.account":                {En: "sign in again with `%[1]s`; the other accounts' sources are not affected (`gds auth status` lists every account)", Ja: "`%[1]s` でもう一度サインインしてください。ほかのアカウントのソースには影響しません（`gds auth status` ですべてのアカウントを確認できます）"},
			"budget.notice.drive_account_auth": {En: "the sign-in of Google account %[1]s failed, so its files were searched in the local index: run `gds auth login --account %[1]s`", Ja: "Google アカウント %[1]s のサインインに失敗したため、そのファイルはローカルのインデックスで検索しました。`gds auth login --account %[1]s` を実行してください"},
			"budget.notice.drive_account":      {En: "the Drive of Google account %s could not be searched (%s), so its files were searched in the local index", Ja: "Google アカウント %s のドライブを検索できなかったため（%s）、そのファイルはローカルのインデックスで検索しました"},
			"out.auth.status.out_account":      {En: "Not signed in (run `gds auth login --account %s`)", Ja: "サインインしていません（`gds auth login --account %s` を実行してください）"},
			"out.auth.status.account":          {En: "Account", Ja: "アカウント"},
			"flag.auth.account":                {En: "the Google account: a name of your choice for a second account (lowercase letters, digits, - and _), used by sources drive@NAME and drive@NAME:FOLDER_ID; default: the default account", Ja: "Google アカウント: 2 つ目のアカウントに付ける名前（英小文字・数字・-・_）。ソース drive@NAME、drive@NAME:FOLDER_ID で使います。既定: 既定のアカウント"},
			"init.out.second_account": {
				En: "Another Google account too (say work)? Run `gds auth login --account work`, then add drive@work:FOLDER_ID to GDS_SOURCES in the .env above (see \"Several Google accounts\" in docs/google-drive.md).",
				Ja: "別の Google アカウント（例: work）も検索しますか？ `gds auth login --account work` を実行し、上の .env の GDS_SOURCES に drive@work:フォルダID を追加してください（docs/google-drive.md の「Several Google accounts」参照）。",
			},
			"init.q.account": {
				En: "Add another Google account? Name it (e.g. work; lowercase letters, digits, - and _), or press Enter for no",
				Ja: "別の Google アカウントも追加しますか？ 名前を入力してください（例: work。英小文字・数字・-・_）。追加しない場合は Enter",
			},
			"init.note.account":          {En: "Google account %s: its folders become drive@%[1]s:FOLDER_ID sources", Ja: "Google アカウント %s: 選んだフォルダーは drive@%[1]s:フォルダID のソースになります"},
			"init.problem.account":       {En: "%s", Ja: "%s"},
			"serve.source.drive_account": {En: "Google Drive (%s)", Ja: "Google ドライブ（%s）"},
			"config.problem.bad_account": {En: "bad account name in a drive@ACCOUNT source", Ja: "drive@ACCOUNT ソースのアカウント名が正しくありません"},
			"config.fix.account":         {En: "use lowercase letters, digits, \"-\" or \"_\" after \"drive@\" (for example drive@work or drive@work:FOLDER_ID)", Ja: "\"drive@\" の後は英小文字・数字・\"-\"・\"_\" にしてください（例: drive@work、drive@work:FOLDER_ID）"},
		}
	})
}
