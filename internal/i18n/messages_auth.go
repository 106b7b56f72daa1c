package i18n

// Messages of `gds auth` and package auth.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"auth.bad_timeout": {En: "--timeout must be positive, got %s", Ja: "--timeout には正の値を指定してください（指定値: %s）"},
			"cmd.auth.usage":   {En: "sign in to Google Drive (OAuth) and manage the stored token", Ja: "Google Drive にサインイン（OAuth）し、保存したトークンを管理します"},
			"cmd.auth.desc": {
				En: "gds asks for read-only Drive access (drive.readonly) with your own OAuth client\n" +
					"(GOOGLE_OAUTH_CLIENT_ID / GOOGLE_OAUTH_CLIENT_SECRET; see docs/google-drive.md, \"Create your OAuth client\").\n" +
					"The token is kept in the macOS Keychain, or in a 0600 file in the gds home elsewhere.\n\n" +
					"Examples:\n  gds auth login\n  gds auth login --no-browser\n  gds auth status --check\n  gds auth logout --revoke",
				Ja: "gds は自分で作成した OAuth クライアント（GOOGLE_OAUTH_CLIENT_ID / GOOGLE_OAUTH_CLIENT_SECRET。\n" +
					"docs/google-drive.md の「Create your OAuth client」を参照）で Drive の読み取り専用アクセス（drive.readonly）を求めます。\n" +
					"トークンは macOS ではキーチェーン、その他の OS では gds ホームの 0600 ファイルに保存します。\n\n" +
					"例:\n  gds auth login\n  gds auth login --no-browser\n  gds auth status --check\n  gds auth logout --revoke",
			},
			"cmd.auth.login.usage":  {En: "sign in with the browser and store the token", Ja: "ブラウザでサインインしてトークンを保存します"},
			"cmd.auth.status.usage": {En: "show whether you are signed in, the token's expiry and scopes, and where it is stored", Ja: "サインイン状態、トークンの有効期限とスコープ、保存場所を表示します"},
			"cmd.auth.logout.usage": {En: "delete the stored token (--revoke also revokes it at Google)", Ja: "保存したトークンを削除します（--revoke で Google 側でも無効化します）"},
			"flag.auth.no_browser":  {En: "print the sign-in URL instead of opening a browser", Ja: "ブラウザを開かずにサインイン URL を表示します"},
			"flag.auth.timeout":     {En: "how long to wait for the sign-in in the browser", Ja: "ブラウザでのサインインを待つ時間"},
			"flag.auth.check":       {En: "also try the token against Google (refreshes it if expired)", Ja: "Google に対してトークンを試します（期限切れなら更新します）"},
			"flag.auth.revoke":      {En: "revoke the token at Google before deleting it", Ja: "削除の前に Google 側でトークンを無効化します"},

			"out.auth.open_url":       {En: "Open this URL in your browser to sign in to Google (waiting up to %s):", Ja: "次の URL をブラウザで開いて Google にサインインしてください（最大 %s 待ちます）:"},
			"out.auth.browser_failed": {En: "Could not open the browser (%s); open the URL above yourself.", Ja: "ブラウザを開けませんでした（%s）。上の URL を手動で開いてください。"},
			"out.auth.logged_in":      {En: "Signed in to Google Drive (read-only). Token stored in %s.", Ja: "Google Drive にサインインしました（読み取り専用）。トークンの保存先: %s"},
			"out.auth.testing_note":   {En: "Note: if your OAuth consent screen is in \"Testing\", Google expires this sign-in after 7 days; publish the app to avoid it.", Ja: "注意: OAuth 同意画面が「テスト」のままだと、このサインインは 7 日で失効します。避けるにはアプリを公開してください。"},
			"out.auth.logged_out":     {En: "Signed out: the token was deleted from %s.", Ja: "サインアウトしました。%s からトークンを削除しました。"},
			"out.auth.revoked":        {En: "The token was revoked at Google.", Ja: "Google 側でトークンを無効化しました。"},
			"out.auth.not_stored":     {En: "No token was stored in %s.", Ja: "%s にトークンは保存されていません。"},
			"out.auth.status.in":      {En: "Signed in", Ja: "サインイン済み"},
			"out.auth.status.out":     {En: "Not signed in (run `gds auth login`)", Ja: "サインインしていません（`gds auth login` を実行してください）"},
			"out.auth.status.state":   {En: "Status", Ja: "状態"},
			"out.auth.status.store":   {En: "Stored in", Ja: "保存先"},
			"out.auth.status.client":  {En: "OAuth client", Ja: "OAuth クライアント"},
			"out.auth.status.other":   {En: "%s (not the configured client: run `gds auth login`)", Ja: "%s（設定中のクライアントと異なります。`gds auth login` を実行してください）"},
			"out.auth.status.scopes":  {En: "Scopes", Ja: "スコープ"},
			"out.auth.status.since":   {En: "Signed in at", Ja: "サインイン日時"},
			"out.auth.status.expiry":  {En: "Access token expires", Ja: "アクセストークンの期限"},
			"out.auth.status.refresh": {En: "Refresh token", Ja: "リフレッシュトークン"},
			"out.auth.status.yes":     {En: "present", Ja: "あり"},
			"out.auth.status.no":      {En: "missing", Ja: "なし"},
			"out.auth.status.check":   {En: "Check against Google", Ja: "Google での確認"},
			"out.auth.status.ok":      {En: "OK", Ja: "OK"},

			"auth.err.not_logged_in": {En: "not signed in to Google Drive: run `gds auth login`", Ja: "Google Drive にサインインしていません。`gds auth login` を実行してください"},
			"auth.err.reauth":        {En: "the Google sign-in has expired or was revoked: run `gds auth login` again", Ja: "Google のサインインが期限切れか無効化されています。`gds auth login` をもう一度実行してください"},
			"auth.err.reauth_testing": {
				En: "Google no longer accepts the sign-in made %d days ago (invalid_grant). OAuth apps whose publishing status is \"Testing\" get refresh tokens that expire after 7 days, so this returns every week until the app is published: in the Google Cloud console open Google Auth Platform → Audience (or APIs & Services → OAuth consent screen) and press \"Publish app\" (or make it Internal on Google Workspace), then run `gds auth login` again. (A revoked access or a changed password also gives this error; `gds auth login` fixes those too.)",
				Ja: "%d 日前のサインインを Google が受け付けなくなりました（invalid_grant）。公開ステータスが「テスト中（Testing）」の OAuth アプリのリフレッシュトークンは 7 日で失効するため、アプリを公開するまで毎週起こります。Google Cloud コンソールで Google Auth Platform → 対象（または API とサービス → OAuth 同意画面）を開き「アプリを公開」を押す（Google Workspace なら「内部」にする）と止まります。そのあと `gds auth login` をもう一度実行してください（アクセスの取り消しやパスワード変更でも同じエラーになりますが、`gds auth login` で直ります）",
			},
			"auth.err.client_mismatch":   {En: "the stored sign-in belongs to a different OAuth client than GOOGLE_OAUTH_CLIENT_ID: run `gds auth login` again", Ja: "保存されたサインインは GOOGLE_OAUTH_CLIENT_ID とは別の OAuth クライアントのものです。`gds auth login` をもう一度実行してください"},
			"auth.err.no_client":         {En: "GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET must be set: create a \"Desktop app\" OAuth client as described in docs/google-drive.md (\"Create your OAuth client\") and put both in the gds .env (`gds config path` shows where)", Ja: "GOOGLE_OAUTH_CLIENT_ID と GOOGLE_OAUTH_CLIENT_SECRET を設定してください。docs/google-drive.md の「Create your OAuth client」に従って「デスクトップ アプリ」の OAuth クライアントを作成し、両方を gds の .env に書いてください（場所は `gds config path` で確認できます）"},
			"auth.err.invalid_client":    {En: "Google rejected the OAuth client: check GOOGLE_OAUTH_CLIENT_ID and GOOGLE_OAUTH_CLIENT_SECRET (a \"Desktop app\" client; see docs/google-drive.md, \"Create your OAuth client\"), then run `gds auth login`", Ja: "Google が OAuth クライアントを拒否しました。GOOGLE_OAUTH_CLIENT_ID と GOOGLE_OAUTH_CLIENT_SECRET（「デスクトップ アプリ」のクライアント。docs/google-drive.md 参照）を確認してから `gds auth login` を実行してください"},
			"auth.err.login_timeout":     {En: "no sign-in arrived from the browser within %s; nothing was stored: run `gds auth login` again (--timeout gives more time)", Ja: "%s 以内にブラウザからサインインが届きませんでした。何も保存していません。`gds auth login` をもう一度実行してください（--timeout で待ち時間を延ばせます）"},
			"auth.err.state_mismatch":    {En: "the sign-in response did not belong to this login (state mismatch); nothing was stored: run `gds auth login` again", Ja: "サインインの応答がこのログインのものではありません（state 不一致）。何も保存していません。`gds auth login` をもう一度実行してください"},
			"auth.err.denied":            {En: "Google did not grant access (%s); nothing was stored: run `gds auth login` again and allow access", Ja: "Google がアクセスを許可しませんでした（%s）。何も保存していません。`gds auth login` をもう一度実行してアクセスを許可してください"},
			"auth.err.no_code":           {En: "the sign-in response had no authorization code; nothing was stored: run `gds auth login` again", Ja: "サインインの応答に認可コードがありません。何も保存していません。`gds auth login` をもう一度実行してください"},
			"auth.err.exchange":          {En: "Google did not exchange the sign-in code for a token (%s); nothing was stored: run `gds auth login` again", Ja: "Google がサインインコードをトークンに交換しませんでした（%s）。何も保存していません。`gds auth login` をもう一度実行してください"},
			"auth.err.no_refresh_token":  {En: "Google returned no refresh token, so gds could not stay signed in; nothing was stored: remove gds's access at https://myaccount.google.com/permissions and run `gds auth login` again", Ja: "Google がリフレッシュトークンを返さなかったため、サインインを維持できません。何も保存していません。https://myaccount.google.com/permissions で gds のアクセスを削除してから `gds auth login` をもう一度実行してください"},
			"auth.err.scope_not_granted": {En: "Drive read access (%s) was not granted: run `gds auth login` again and tick the Drive permission on Google's consent screen", Ja: "Drive の読み取りアクセス（%s）が許可されていません。`gds auth login` をもう一度実行し、Google の同意画面で Drive の権限にチェックを入れてください"},
			"auth.err.keychain":          {En: "the macOS Keychain refused access to the gds token (locked, or approval needed): run `gds auth status` in a terminal and choose \"Always Allow\"", Ja: "macOS キーチェーンが gds のトークンへのアクセスを拒否しました（ロック中または許可が必要）。ターミナルで `gds auth status` を実行し「常に許可」を選んでください"},

			"auth.warning":        {En: "Warning: %s", Ja: "警告: %s"},
			"cli.hint_auth":       {En: "sign in with `gds auth login`; `gds auth status` shows the stored sign-in", Ja: "`gds auth login` でサインインしてください。`gds auth status` で保存されたサインインを確認できます"},
			"cli.hint_auth_setup": {En: "see \"Create your OAuth client\" in docs/google-drive.md", Ja: "docs/google-drive.md の「Create your OAuth client」を参照してください"},
		}
	})
}
