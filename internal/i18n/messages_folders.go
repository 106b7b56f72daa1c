package i18n

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"folder.unknown":      {En: "no indexed folder is named %q; the closest: %s", Ja: "%q という索引済みのフォルダはありません。近いフォルダ: %s"},
			"folder.unknown.none": {En: "no indexed folder is named %q, and no indexed file is in a folder yet", Ja: "%q という索引済みのフォルダはありません（フォルダ内の文書はまだ索引されていません）"},
		}
	})
}

func init() {
	register(func() map[Key]Message {
		return map[Key]Message{
			"alfred.fulltext_fallback.notice": {En: "Full-text match only", Ja: "全文一致のみ"},
			"cmd.completion.usage":            {En: "print the shell completion script for bash, zsh, fish or pwsh", Ja: "bash、zsh、fish、pwsh の補完スクリプトを出力します"},
			"cmd.completion.desc": {
				En: "Homebrew installs the scripts; otherwise load one in your shell's start-up file:\n\n" +
					"  source <(gds completion bash)     # ~/.bashrc\n" +
					"  source <(gds completion zsh)      # ~/.zshrc\n" +
					"  gds completion fish > ~/.config/fish/completions/gds.fish",
				Ja: "Homebrew でインストールした場合は設定済みです。それ以外はシェルの起動ファイルで読み込みます:\n\n" +
					"  source <(gds completion bash)     # ~/.bashrc\n" +
					"  source <(gds completion zsh)      # ~/.zshrc\n" +
					"  gds completion fish > ~/.config/fish/completions/gds.fish",
			},
		}
	})
}
