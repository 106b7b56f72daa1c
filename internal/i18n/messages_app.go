package i18n

// Messages of the dependency wiring (package app).
func init() {
	register(map[Key]Message{
		"auth.not_logged_in": {En: "not logged in to Google Drive: run `gds auth login`", Ja: "Google Drive にログインしていません。`gds auth login` を実行してください"},
	})
}
