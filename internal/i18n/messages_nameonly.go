package i18n

// Messages of name-only entries: files indexed by name, type and dates
// because their content could not be extracted.
func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"result.name_only": {
				En: "[name only] content not indexed: %s",
				Ja: "[名前のみ] 内容は索引されていません: %s",
			},
			"alfred.name_only.sub": {En: "Name only (content not indexed) · %s", Ja: "名前のみ（内容は未索引）・ %s"},
		}
	})
}
