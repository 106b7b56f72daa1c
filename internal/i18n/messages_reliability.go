package i18n

// Messages added with the reliability work: the GDS_DB_SCHEMA
// setting, which lets several gds indexes share one Postgres database.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"config.problem.db_schema": {En: "not a plain lower-case Postgres schema name", Ja: "Postgres のスキーマ名として使えません（小文字の英字・数字・_ のみ）"},
			"config.fix.db_schema":     {En: "use 1 to 63 characters a-z, 0-9 and _ starting with a letter or _, or unset GDS_DB_SCHEMA to use public", Ja: "英小文字または _ で始まる 1〜63 文字（a-z、0-9、_）を指定するか、GDS_DB_SCHEMA を未設定にして public を使ってください"},
		}
	})
}
