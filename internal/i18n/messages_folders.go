package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"folder.unknown":      {En: "no indexed folder is named %q; the closest: %s", Ja: "%q という索引済みのフォルダはありません。近いフォルダ: %s"},
			"folder.unknown.none": {En: "no indexed folder is named %q, and no indexed file is in a folder yet", Ja: "%q という索引済みのフォルダはありません（フォルダ内の文書はまだ索引されていません）"},
		}
	})
}
