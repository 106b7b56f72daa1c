package i18n

// Messages of the command-line usage checks (cmd/gds/usage.go): unknown
// commands and flags with a suggestion, bad and out-of-range numbers.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"cli.hint_did_you_mean": {En: "did you mean %s?", Ja: "%s のことですか？"},
			"err.unknown_flag":      {En: "unknown flag %s", Ja: "不明なフラグ %s"},
		}
	})
}
