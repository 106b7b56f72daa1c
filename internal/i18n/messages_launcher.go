package i18n

// Messages of the gds front binary (internal/launcher).
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"launcher.no_core": {En: "the full gds program %s is missing (%v)", Ja: "gds 本体のプログラム %s が見つかりません（%v）"},
			"launcher.no_core.hint": {
				En: "reinstall gds: the release ships gds and %s side by side (or set %s to the path of the full gds program)",
				Ja: "gds を再インストールしてください。リリースには gds と %s が並んで入っています（または %s に gds 本体のパスを設定してください）",
			},
			"launcher.no_core.hint_env": {
				En: "%s names a file that does not exist: correct it or unset it",
				Ja: "%s が存在しないファイルを指しています。修正するか設定を外してください",
			},
		}
	})
}
