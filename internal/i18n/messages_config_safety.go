package i18n

// Messages of .env files gds cannot read safely (package config):
// the line a parse stops at, the size limit, files that are not files.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"config.problem.env_no_assign":    {En: "not a NAME=value line (no \"=\")", Ja: "NAME=value の形式の行ではありません（\"=\" がありません）"},
			"config.problem.env_bad_char":     {En: "%s cannot be part of a variable name (letters, digits, _ and . only)", Ja: "%s は変数名に使えません（英字・数字・_・. のみ）"},
			"config.problem.env_unterminated": {En: "the value's opening quote %s is never closed", Ja: "値の開き引用符 %s が閉じられていません"},
			"config.problem.env_no_name":      {En: "\"export\" with no variable after it", Ja: "\"export\" の後に変数名がありません"},
			"config.problem.env_expansion":    {En: "$NAME references make the values larger than %s", Ja: "$NAME の展開で値が %s を超えます"},
			"config.problem.env_too_large":    {En: "the file is larger than %s, the limit for a .env file", Ja: "ファイルが .env の上限 %s を超えています"},
			"config.problem.env_not_regular":  {En: "not a regular file (a folder, a pipe or a device)", Ja: "通常のファイルではありません（フォルダ、パイプ、デバイスなど）"},
		}
	})
}

// Messages of a stop after SIGINT or SIGTERM (package interrupt).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"interrupt.forced":   {En: "interrupted (the command did not stop in time, so gds quit without waiting)", Ja: "中断しました（コマンドが時間内に止まらなかったため、待たずに終了しました）"},
			"interrupt.stopping": {En: "Stopping… (press Ctrl-C again to quit at once)", Ja: "停止しています…（すぐに終了するにはもう一度 Ctrl-C を押してください）"},
		}
	})
}

// Messages of a folder gds must write in and cannot (package app).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"upload.read_only": {En: "the upload folder %s is read-only; make it writable or point GDS_UPLOAD_DIR at a writable folder", Ja: "アップロード用フォルダ %s は読み取り専用です。書き込めるようにするか、GDS_UPLOAD_DIR を書き込めるフォルダに設定してください"},
		}
	})
}
