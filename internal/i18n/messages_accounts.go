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
			"serve.source.drive_account": {En: "Google Drive (%s)", Ja: "Google ドライブ（%s）"},
			"config.problem.bad_account": {En: "bad account name in a drive@ACCOUNT source", Ja: "drive@ACCOUNT ソースのアカウント名が正しくありません"},
			"config.fix.account":         {En: "use lowercase letters, digits, \"-\" or \"_\" after \"drive@\" (for example drive@work or drive@work:FOLDER_ID)", Ja: "\"drive@\" の後は英小文字・数字・\"-\"・\"_\" にしてください（例: drive@work、drive@work:FOLDER_ID）"},
		}
	})
}
